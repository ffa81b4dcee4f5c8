-- Which impersonation token an entry belongs to, and when a start's token expires, so a view
-- that simply runs out is shown as ended even though nobody pressed "Stop viewing".
ALTER TABLE access_log ADD COLUMN token_id TEXT NOT NULL DEFAULT '';
ALTER TABLE access_log ADD COLUMN ends_at_ms BIGINT NOT NULL DEFAULT 0;
