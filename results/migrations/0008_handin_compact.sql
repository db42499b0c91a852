-- A version is stored compactly: a folder's tar of 16 MiB of zeros, from a
-- 16 KB zip, is kept gzipped (gzip = 1); size is the version's own size,
-- NULL for the versions stored before (their content is not compressed).
ALTER TABLE handins ADD COLUMN gzip INTEGER NOT NULL DEFAULT 0;
ALTER TABLE handins ADD COLUMN size INTEGER;
