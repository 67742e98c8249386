/** A content version as pruning sees it. */
export interface VersionState {
  no: number;
  published: boolean;
}

/**
 * The content versions to drop after `current` was published (docs/decisions.md 69): every one
 * that is neither among the newest `keep` published versions, nor held by a live reader, nor
 * newer than `current` (a version still being written elsewhere is not ours to judge). The same
 * rule on every store engine.
 */
export function versionsToPrune(versions: readonly VersionState[], current: number, held: ReadonlySet<number>, keep: number): number[] {
  const newest = new Set(
    versions
      .filter((v) => v.published && v.no <= current)
      .map((v) => v.no)
      .sort((a, b) => b - a)
      .slice(0, keep),
  );
  newest.add(current);
  return versions
    .filter((v) => v.no < current && !newest.has(v.no) && !held.has(v.no))
    .map((v) => v.no)
    .sort((a, b) => a - b);
}
