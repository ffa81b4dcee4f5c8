CREATE TABLE connections (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    definition_id TEXT NOT NULL,
    connector TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX connections_profile ON connections (profile_id);
