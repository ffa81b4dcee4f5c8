-- Every impersonation start, stop and refused attempt; members read their own.
CREATE TABLE access_log (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    staff_id TEXT NOT NULL,
    staff_name TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX access_log_profile ON access_log (profile_id, at_ms);

-- Check-ins (mode visit) and event attendance recorded when the member signs in.
CREATE TABLE sign_in_activity (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    location TEXT NOT NULL,
    event_data TEXT NOT NULL,
    custom_fields TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX sign_in_activity_profile ON sign_in_activity (profile_id, at);
