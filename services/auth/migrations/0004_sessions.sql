-- Every session issued to a member or staff user (its token's id), for "My sessions" in the
-- privacy centre: when and on what it signed in. The token itself is never stored. The address is
-- kept truncated (IPv4 /24, IPv6 /48); the place is the GeoIP city and country of the full
-- address, when a database is configured. A member's expired rows go when they next sign in.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    signed_in_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    browser TEXT NOT NULL DEFAULT '',
    os TEXT NOT NULL DEFAULT '',
    device TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT '',
    place TEXT NOT NULL DEFAULT '',
    revoked_at BIGINT,
    -- When the record was written, in milliseconds: the order of sign-ins in the same second.
    recorded_at_ms BIGINT NOT NULL
);
CREATE INDEX sessions_profile ON sessions (profile_id, signed_in_at);
