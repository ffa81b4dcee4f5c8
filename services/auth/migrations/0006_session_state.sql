-- Sessions become the record the gateway checks (its KV key is only a cache of it), so a
-- sign-out survives a restart of the in-process KV:
--   last_seen_at   when the session was last used (to the minute): the idle timeout
--   auth_time      when the member really signed in; a renewed token keeps it
--   staff_id, staff_name, parent_id   a staff view of the member's account (impersonation):
--                  who, and the staff user's own session that opened it (the view ends with it)
ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN auth_time BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN staff_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN staff_name TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
UPDATE sessions SET last_seen_at = signed_in_at, auth_time = signed_in_at;
CREATE INDEX sessions_parent ON sessions (parent_id);

-- A member's confirmed change of sign-in address, kept so the old address can undo it (a link in
-- the notice it was sent, stored as a hash) and so a change undone locks further changes for a while.
CREATE TABLE email_changes (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    old_email TEXT NOT NULL,
    new_email TEXT NOT NULL,
    changed_at BIGINT NOT NULL,
    undo_hash TEXT NOT NULL,
    undo_until BIGINT NOT NULL,
    undone_at BIGINT
);
CREATE INDEX email_changes_profile ON email_changes (profile_id, changed_at);
CREATE UNIQUE INDEX email_changes_undo ON email_changes (undo_hash);
