-- unless: SELECT 1 FROM pragma_table_info('content_versions') WHERE name = 'digest'
-- The digest of each content version's stays (store/content-digest.ts): stays identical to the
-- served version's publish nothing (docs/decisions.md 80). Versions of before have none, so the
-- next publish writes a version and the ones after it compare. A file of before the migrations
-- written since the digest has the column already: the line above skips the step there.
ALTER TABLE content_versions ADD COLUMN digest TEXT;
