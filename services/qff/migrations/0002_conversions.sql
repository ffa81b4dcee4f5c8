-- The link checked with the airline, unlinks with their reasons, and points conversions.
DROP TABLE qff_links;

-- One airline account per member and one member per airline account.
CREATE TABLE qff_links (
    profile_id TEXT PRIMARY KEY,
    qff_number TEXT NOT NULL UNIQUE,
    last_name TEXT NOT NULL,
    linked_at BIGINT NOT NULL
);

CREATE TABLE qff_unlinks (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    qff_number TEXT NOT NULL,
    -- wrong_account, not_using, privacy, other
    reason TEXT NOT NULL,
    comment TEXT NOT NULL,
    linked_at BIGINT NOT NULL,
    unlinked_at BIGINT NOT NULL
);

-- A conversion of the member's points to airline points, and the first answer to its
-- Idempotency-Key. `id` is also the reference the airline is credited under, and the ledger's
-- hold is `qff:<id>`.
CREATE TABLE qff_conversions (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    -- The request the key answered; the same key with another request is refused.
    request TEXT NOT NULL,
    qff_number TEXT NOT NULL,
    points BIGINT NOT NULL,
    airline_points BIGINT NOT NULL,
    -- running (this request is working on it), pending (the airline did not answer; the
    -- reconciler settles it), completed, failed (the points were given back)
    status TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    -- The member's balance just after the first answer.
    balance BIGINT NOT NULL DEFAULT 0,
    partner_credit_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    settled_at BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    UNIQUE (profile_id, idem_key)
);
CREATE INDEX qff_conversions_profile ON qff_conversions (profile_id, created_at);
CREATE INDEX qff_conversions_open ON qff_conversions (status, updated_at);
