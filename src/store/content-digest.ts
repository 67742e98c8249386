// What tells a content version with the served one's content from a new one (docs/decisions.md 80):
// a digest of everything a store keeps of a version, computed by the store itself before it writes
// anything, so "nothing changed, nothing written" holds whoever publishes.
import { createHash } from 'node:crypto';
import type { RankedStay } from './store.ts';

/** Stays hashed per update: one string of ~1 MB rather than a call per stay. */
const HASH_BATCH = 500;

/**
 * SHA-256 over every stay in idx order, each as JSON with its rank (the stay's document, its index
 * row and its listings' ids all derive from it). Equal digests: the same stays, in the same order,
 * with the same ranks.
 */
export function contentDigest(byIdx: readonly RankedStay[]): string {
  const hash = createHash('sha256');
  for (let from = 0; from < byIdx.length; from += HASH_BATCH) {
    const part: string[] = [];
    for (const stay of byIdx.slice(from, from + HASH_BATCH)) part.push(JSON.stringify(stay));
    hash.update(`${part.join('\n')}\n`);
  }
  return `sha256:${hash.digest('base64url')}`;
}
