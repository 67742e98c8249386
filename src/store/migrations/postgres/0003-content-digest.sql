-- The digest of each content version's stays (store/content-digest.ts): stays identical to the
-- served version's publish nothing (docs/decisions.md 80). Versions of before have none, so the
-- next publish writes a version and the ones after it compare.
ALTER TABLE content_versions ADD COLUMN digest text;
