-- What a member needs to visit a store: its address and phone, its time zone (for "open now"
-- and for the local day a check-in counts for) and its opening hours, a JSON object by weekday
-- (mon..sun) of ["HH:MM", "HH:MM"] local opening periods; a missing or empty day is closed.
ALTER TABLE locations ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE locations ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE locations ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Australia/Melbourne';
ALTER TABLE locations ADD COLUMN hours TEXT NOT NULL DEFAULT '{}';
