CREATE TABLE locations (
    id BIGINT PRIMARY KEY,
    tenant TEXT NOT NULL,
    handle TEXT NOT NULL,
    name TEXT NOT NULL,
    external_code TEXT NOT NULL,
    external_id TEXT NOT NULL,
    latitude DOUBLE PRECISION NOT NULL,
    longitude DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX locations_tenant_handle ON locations (tenant, handle);
