-- The loyalty beat (points expiry, tier reviews, clean-up) runs on one replica at a time: it
-- takes the `profile-points-expiry` lease (portal_common::lease; expires_at in unix milliseconds
-- by the database's clock).
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
