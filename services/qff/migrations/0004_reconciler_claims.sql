-- The reconciler runs on one replica at a time: it takes the `qff-reconciler` lease
-- (portal_common::lease; expires_at in unix milliseconds by the database's clock).
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- A row the reconciler is settling is claimed by one instance until `claimed_until` (unix
-- seconds), so two instances (a lease that expired mid-pass, or the Reconcile RPC beside the
-- loop) never ask the airline or the profile about it at once. `claimed_by` is the instance's
-- lease holder id, kept after the claim ends: who settled it.
ALTER TABLE qff_conversions ADD COLUMN claimed_by TEXT;
ALTER TABLE qff_conversions ADD COLUMN claimed_until BIGINT;
ALTER TABLE qff_links ADD COLUMN claimed_by TEXT;
ALTER TABLE qff_links ADD COLUMN claimed_until BIGINT;
