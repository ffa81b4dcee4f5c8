-- A brand-issued member number (crate::member_number): shown to the member, encoded in the card's
-- barcode, searched by staff. Unique per tenant; NULL only until the start-up backfill gives
-- existing profiles theirs, and on the placeholders an erasure leaves.
ALTER TABLE profiles ADD COLUMN member_number TEXT;
CREATE UNIQUE INDEX profiles_tenant_member_number ON profiles (tenant, member_number);

-- The last sequence number issued per tenant, bumped in the transaction that creates a profile.
CREATE TABLE member_number_seq (
    tenant TEXT PRIMARY KEY,
    last BIGINT NOT NULL
);
