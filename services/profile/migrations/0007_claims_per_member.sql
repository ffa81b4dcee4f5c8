-- A claim no longer blocks anyone else's: one claim per member per receipt (the old index allowed
-- one per receipt whoever filed it, so a wrong claim for someone else's receipt locked the real
-- buyer out for the whole window). Crediting stays exactly once: a claim is credited only by
-- taking the store's sale (store_receipts.profile_id from '' to the member) in the same
-- transaction.
DROP INDEX claims_receipt;
CREATE UNIQUE INDEX claims_member_receipt ON claims (profile_id, store_handle, receipt_number);
