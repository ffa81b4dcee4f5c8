ALTER TABLE connections ADD COLUMN name TEXT NOT NULL DEFAULT '';
-- One connection per definition per member.
CREATE UNIQUE INDEX connections_profile_definition ON connections (profile_id, definition_id);

CREATE TABLE product_lists (
    id TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL REFERENCES connections (id),
    handle TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX product_lists_connection_handle ON product_lists (connection_id, handle);

CREATE TABLE list_items (
    id TEXT PRIMARY KEY,
    list_id TEXT NOT NULL REFERENCES product_lists (id),
    product_id TEXT NOT NULL,
    product_variant_id TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- A product (or variant) is in a list once.
CREATE UNIQUE INDEX list_items_product ON list_items (list_id, product_id, product_variant_id);
