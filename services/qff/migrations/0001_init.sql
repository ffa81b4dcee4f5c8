CREATE TABLE qff_links (
    profile_id TEXT PRIMARY KEY,
    qff_number TEXT NOT NULL,
    points BIGINT NOT NULL,
    linked_at BIGINT NOT NULL
);
