-- Postal address (country as ISO 3166-1 alpha-2, state as the ISO 3166-2 subdivision's short code).
ALTER TABLE profiles ADD COLUMN address_line1 TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_line2 TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN city TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN state TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN postcode TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN country TEXT NOT NULL DEFAULT '';

-- One account per linked identifier (e.g. a frequent-flyer number), so staff search finds one
-- member. Email identities follow profiles.email, which is unique per tenant already.
CREATE UNIQUE INDEX identities_handle_identifier ON identities (handle, identifier) WHERE handle <> 'email';

-- Every change of a messaging preference, kept: the consent history, not just the latest flags.
CREATE TABLE consent_history (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    channel TEXT NOT NULL,
    value BIGINT NOT NULL,
    source TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX consent_history_profile_time ON consent_history (profile_id, at_ms);
