import { hash } from 'node:crypto';
import type { SearchResult } from '../search/search-result.ts';

/**
 * A weak entity tag over the given parts. Weak: the same tag may cover bodies that differ only in
 * encoding (compression, whitespace), which is all If-None-Match needs.
 */
export function etagOf(parts: readonly string[]): string {
  // One-shot crypto.hash: a Hash object per request cost more than the hashing itself.
  return `W/"${hash('sha1', parts.join('\u0000'), 'base64url')}"`;
}

/** Whether an If-None-Match header matches the tag: `*`, or any listed tag by weak comparison (RFC 9110 13.1.2). */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const candidate of value.match(/(?:W\/)?"[^"]*"/g) ?? []) {
    if (candidate.replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

/**
 * What of a search result a body depends on beyond the request itself: the stays and their
 * order, prices, totals and clusters. A dated search's tag is built from this rather than from
 * the serialised body, so the body is serialised once.
 */
export function resultDigest(result: SearchResult): string {
  return JSON.stringify([
    result.total,
    result.hasMore,
    result.currency,
    result.unresolved,
    result.hits.map((h) => [h.stay.id, h.cellId ?? null, h.offers === null ? null : [...h.offers]]),
    result.clusters?.map((c) => [c.id, c.count]) ?? null,
    result.clustering,
  ]);
}
