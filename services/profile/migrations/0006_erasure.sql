-- A member's erasure keeps their points ledger, anonymised, under a placeholder profile made
-- for it (id anon_…, no name, no address): erased_at marks such a placeholder, which no search,
-- sign-in or staff view ever finds.
ALTER TABLE profiles ADD COLUMN erased_at BIGINT;
