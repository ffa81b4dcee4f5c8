-- Costs flat in a member's history (issue 26): the balance checkpoint.
--
-- The member's account row keeps what reads used to work out from the whole ledger: `balance`,
-- the sum of their entries up to `last_seq`, and `entries`, how many those are. Each entry is
-- folded in by the transaction that posts it (store::ledger::insert, under the account lock);
-- a read takes the checkpoint plus the entries after `last_seq` (an index probe: none once
-- folded), so entries posted by the release before this one, which keeps no checkpoint, still
-- count, and the next post folds them in. NULL `last_seq`: never folded (everything is after
-- it); the loyalty beat folds those accounts in batches (loyalty::ledger::fold_unfolded), never
-- one UPDATE here. The invariant, checked by loyalty::ledger::audit and the ledger's tests:
-- balance + the tail = SUM(points) = SUM(remaining), entries + the tail = COUNT(*).
--
-- The indexes these reads want (pages by key, the open lots) are on tables with rows: they are
-- built online, declared in loyalty::ledger::INDEXES.
ALTER TABLE loyalty_accounts ADD COLUMN balance BIGINT NOT NULL DEFAULT 0;
ALTER TABLE loyalty_accounts ADD COLUMN entries BIGINT NOT NULL DEFAULT 0;
ALTER TABLE loyalty_accounts ADD COLUMN last_seq BIGINT;
