-- Purchases: the receipt they came from, the store's location handle and the points they earned.
ALTER TABLE transactions ADD COLUMN receipt_number TEXT NOT NULL DEFAULT '';
ALTER TABLE transactions ADD COLUMN store_handle TEXT NOT NULL DEFAULT '';
ALTER TABLE transactions ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE transaction_items ADD COLUMN variant_id TEXT NOT NULL DEFAULT '';

-- A purchased item linked to one of the member's list items (held by the connections service).
CREATE TABLE transaction_item_links (
    item_id TEXT PRIMARY KEY REFERENCES transaction_items (id),
    list_item_id TEXT NOT NULL,
    list_id TEXT NOT NULL,
    connection_id TEXT NOT NULL,
    linked_at BIGINT NOT NULL
);

-- The stores' own record of sales (the point-of-sale feed). profile_id is set once the sale is
-- on a member's account, by a card scan at the till or by a claim.
CREATE TABLE store_receipts (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    store_handle TEXT NOT NULL,
    receipt_number TEXT NOT NULL,
    transacted_at BIGINT NOT NULL,
    total_cents BIGINT NOT NULL,
    currency TEXT NOT NULL,
    profile_id TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX store_receipts_number ON store_receipts (tenant, store_handle, receipt_number);

CREATE TABLE store_receipt_items (
    id TEXT PRIMARY KEY,
    receipt_id TEXT NOT NULL REFERENCES store_receipts (id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    amount_cents BIGINT NOT NULL,
    product_id TEXT NOT NULL,
    product_name TEXT NOT NULL,
    variant_id TEXT NOT NULL
);
CREATE INDEX store_receipt_items_receipt ON store_receipt_items (receipt_id);

-- One claim per receipt, whoever makes it: the unique index decides a race.
CREATE TABLE claims (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    store_handle TEXT NOT NULL,
    store_name TEXT NOT NULL,
    receipt_number TEXT NOT NULL,
    purchase_date TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    status TEXT NOT NULL,
    points BIGINT NOT NULL DEFAULT 0,
    transaction_id TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    -- Milliseconds, so claims filed in the same second still list newest first.
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX claims_receipt ON claims (tenant, store_handle, receipt_number);
CREATE INDEX claims_profile ON claims (profile_id, created_at_ms);

-- Points issued for something happen once: a claim's points carry ref 'claim:<id>'.
ALTER TABLE points ADD COLUMN ref TEXT;
CREATE UNIQUE INDEX points_ref ON points (ref) WHERE ref IS NOT NULL;
