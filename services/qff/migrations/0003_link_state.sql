-- The link's saga state: `pending` while its profile side (the identity and attributes the
-- profile service keeps) is being set or cleared, `linked` once both sides hold it. The
-- reconciler settles a link left pending by asking the profile service what it holds.
ALTER TABLE qff_links ADD COLUMN state TEXT NOT NULL DEFAULT 'linked';
ALTER TABLE qff_links ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX qff_links_pending ON qff_links (state, updated_at);
