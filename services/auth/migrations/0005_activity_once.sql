-- A check-in counts once per member per store per local day, an event sign-up once per event:
-- `once_key` says which (store handle and the store's local date, or the event key), and the
-- unique index makes the second of two concurrent sign-ins record nothing. Rows from before
-- keep their own id as their key, so none of them clash.
ALTER TABLE sign_in_activity ADD COLUMN once_key TEXT NOT NULL DEFAULT '';
UPDATE sign_in_activity SET once_key = id;
CREATE UNIQUE INDEX sign_in_activity_once ON sign_in_activity (profile_id, kind, once_key);
