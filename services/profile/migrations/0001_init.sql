CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    email TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    region_handle TEXT NOT NULL DEFAULT '',
    tier_handle TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX profiles_tenant_email ON profiles (tenant, email);

CREATE TABLE identities (
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    handle TEXT NOT NULL,
    identifier TEXT NOT NULL,
    PRIMARY KEY (profile_id, handle)
);

CREATE TABLE custom_attributes (
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    namespace TEXT NOT NULL,
    handle TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (profile_id, namespace, handle)
);

CREATE TABLE comms (
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    channel TEXT NOT NULL,
    value BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (profile_id, channel)
);

CREATE TABLE tiers (
    handle TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    rank BIGINT NOT NULL
);

CREATE TABLE transactions (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    transacted_at BIGINT NOT NULL,
    store TEXT NOT NULL,
    total_cents BIGINT NOT NULL,
    currency TEXT NOT NULL
);
CREATE INDEX transactions_profile_time ON transactions (profile_id, transacted_at);

CREATE TABLE transaction_items (
    id TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL REFERENCES transactions (id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    amount_cents BIGINT NOT NULL,
    product_id TEXT NOT NULL,
    product_name TEXT NOT NULL
);
CREATE INDEX transaction_items_tx ON transaction_items (transaction_id);

CREATE TABLE rewards (
    id BIGINT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    points_cost BIGINT NOT NULL,
    issued_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE TABLE benefits (
    id BIGINT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    ends_at BIGINT NOT NULL
);

CREATE TABLE points (
    id BIGINT PRIMARY KEY,
    profile_id TEXT NOT NULL REFERENCES profiles (id),
    points BIGINT NOT NULL,
    reason TEXT NOT NULL,
    issued_at BIGINT NOT NULL
);
CREATE INDEX points_profile ON points (profile_id, issued_at);
