-- The loyalty module's tables (services/profile/src/loyalty).

-- The points ledger: every change to a member's points is one entry, and the balance is their
-- sum. Credits (positive entries) are lots: `remaining` is how many of their points are not yet
-- spent or expired, `expires_at` when they expire (NULL: never). Debits take from the oldest
-- lots first and record what they took in loyalty_allocations, so SUM(points) = SUM(remaining).
CREATE TABLE loyalty_ledger (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    -- earn, spend, expire, adjust
    kind TEXT NOT NULL,
    -- purchase, claim, bonus, redemption, conversion, expiry, staff, import
    source TEXT NOT NULL,
    reason TEXT NOT NULL,
    -- The operation that posted it (claim:<id>, redeem:<reward>, expire:<lot>, ...): unique, so
    -- an operation retried or run twice is posted once.
    reference TEXT NOT NULL,
    points BIGINT NOT NULL,
    issued_at BIGINT NOT NULL,
    expires_at BIGINT,
    remaining BIGINT NOT NULL DEFAULT 0 CHECK (remaining >= 0),
    -- The entry's number in the member's ledger (1, 2, ...), taken under the member's lock: the
    -- order of entries posted in the same second.
    seq BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX loyalty_ledger_reference ON loyalty_ledger (reference);
CREATE UNIQUE INDEX loyalty_ledger_seq ON loyalty_ledger (profile_id, seq);
CREATE INDEX loyalty_ledger_profile_time ON loyalty_ledger (profile_id, issued_at);
-- The expiry job's question: which lots still hold points past their date.
CREATE INDEX loyalty_ledger_due ON loyalty_ledger (expires_at) WHERE remaining > 0;

CREATE TABLE loyalty_allocations (
    debit_id TEXT NOT NULL REFERENCES loyalty_ledger (id),
    lot_id TEXT NOT NULL REFERENCES loyalty_ledger (id),
    points BIGINT NOT NULL CHECK (points > 0),
    PRIMARY KEY (debit_id, lot_id)
);

-- One row per member with ledger activity. Every ledger write updates it first, so writes for
-- one member run one at a time on both backends (a row lock on PostgreSQL, the write lock on
-- SQLite): a balance read inside that transaction is the balance the write acts on.
-- review_at: when the member's tier must be worked out again (a credit, or the tier's end).
CREATE TABLE loyalty_accounts (
    profile_id TEXT PRIMARY KEY REFERENCES profiles (id),
    updated_at_ms BIGINT NOT NULL,
    review_at BIGINT
);
CREATE INDEX loyalty_accounts_review ON loyalty_accounts (review_at);

-- The first answer to each Idempotency-Key, per member, kept for retries.
CREATE TABLE loyalty_idempotency (
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    idem_key TEXT NOT NULL,
    -- The request it answered; the same key with another request is refused.
    request TEXT NOT NULL,
    -- ok, or the gRPC code of a refusal that a retry must get again
    outcome TEXT NOT NULL,
    message TEXT NOT NULL,
    -- JSON of what the answer is rebuilt from.
    result TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (profile_id, idem_key)
);
CREATE INDEX loyalty_idempotency_age ON loyalty_idempotency (created_at);

-- Rewards: gifts, and vouchers bought with points from the catalogue, each with a code.
ALTER TABLE rewards ADD COLUMN terms TEXT NOT NULL DEFAULT '';
ALTER TABLE rewards ADD COLUMN source TEXT NOT NULL DEFAULT 'gift';
ALTER TABLE rewards ADD COLUMN catalogue_id TEXT NOT NULL DEFAULT '';
ALTER TABLE rewards ADD COLUMN code TEXT;
ALTER TABLE rewards ADD COLUMN used_at BIGINT;
CREATE UNIQUE INDEX rewards_code ON rewards (code);
CREATE INDEX rewards_profile_time ON rewards (profile_id, issued_at);

-- Offers: the tenant's definitions (texts, portal overrides in meta, published, claimable), and
-- each member's offers with when they activated a claimable one.
CREATE TABLE benefit_definitions (
    id BIGINT PRIMARY KEY,
    tenant TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    meta TEXT,
    is_published BIGINT NOT NULL,
    is_claimable BIGINT NOT NULL,
    ends_at BIGINT
);
ALTER TABLE benefits ADD COLUMN definition_id BIGINT REFERENCES benefit_definitions (id);
ALTER TABLE benefits ADD COLUMN activated_at BIGINT;

-- The points rows written before the ledger become credit lots that never expire (nothing
-- wrote a debit before: the old table only ever received credits).
INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, seq, created_at_ms)
SELECT 'led_p' || CAST(id AS TEXT), profile_id, 'earn',
       CASE WHEN ref LIKE 'claim:%' THEN 'claim' ELSE 'import' END,
       reason, COALESCE(ref, 'points:' || CAST(id AS TEXT)), points, issued_at, NULL, points,
       ROW_NUMBER() OVER (PARTITION BY profile_id ORDER BY issued_at, id), issued_at * 1000
FROM points WHERE points > 0;
INSERT INTO loyalty_accounts (profile_id, updated_at_ms, review_at)
SELECT DISTINCT profile_id, 0, 0 FROM loyalty_ledger;
DROP TABLE points;

-- Tiers are the tenant's configuration now (components.loyalty.tiers).
DROP TABLE tiers;
