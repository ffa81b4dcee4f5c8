-- When each reference data set last changed in this deployment, by content digest.
CREATE TABLE refdata_meta (
    key TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
