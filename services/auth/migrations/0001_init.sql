CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    -- PKCS#8 document, base64. Production deployments supply keys from their secret store.
    private_pkcs8 TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    retired_at BIGINT
);

CREATE TABLE staff_users (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    email TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE UNIQUE INDEX staff_users_tenant_email ON staff_users (tenant, email);

-- Dev mode only: every email and SMS the portal would have sent.
CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    channel TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    link TEXT NOT NULL,
    sent_at_ms BIGINT NOT NULL
);
CREATE INDEX outbox_sent ON outbox (sent_at_ms);
