// Stable stay ids across refreshes (docs/decisions.md 58): a stay's id comes from the persistent
// map (supplier listing -> stay id), so it outlives the listing that first named it.
import type { Listing } from '../types.ts';
import { serviceId } from './build-stays.ts';

const keyOf = (listing: Listing): string => `${listing.supplier}:${listing.supplierStayId}`;

/**
 * The id of each group, in group order. A group takes the id most of its listings had (ties: the
 * smaller id); when two groups claim one id (a stay split), the one with more listings keeping it
 * wins. Groups left without one get serviceId of their listings, salted until it is new: an id
 * once given, even to a stay since removed, is never given to another stay.
 */
export function assignStayIds(groups: readonly (readonly Listing[])[], known: ReadonlyMap<string, string>): string[] {
  const everGiven = new Set(known.values());
  // Only groups with a known listing claim anything: a map and an array for each of 7.8M groups
  // on a first start (none known) were a gigabyte of a 10M build's peak for nothing (issue 22).
  const claims: { g: number; ranked: [string, number][] }[] = [];
  groups.forEach((group, g) => {
    let votes: Map<string, number> | null = null;
    for (const listing of group) {
      const id = known.size === 0 ? undefined : known.get(keyOf(listing));
      if (id !== undefined) (votes ??= new Map()).set(id, (votes.get(id) ?? 0) + 1);
    }
    if (votes !== null) claims.push({ g, ranked: [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) });
  });
  // Strongest claims first, so a split gives the id to the bigger part, whatever the group order.
  const order = claims.sort(
    (a, b) => b.ranked[0][1] - a.ranked[0][1] || (a.ranked[0][0] < b.ranked[0][0] ? -1 : a.ranked[0][0] > b.ranked[0][0] ? 1 : a.g - b.g),
  );
  const ids: (string | null)[] = groups.map(() => null);
  const taken = new Set<string>();
  for (const claim of order) {
    const free = claim.ranked.find(([id]) => !taken.has(id));
    if (free === undefined) continue;
    ids[claim.g] = free[0];
    taken.add(free[0]);
  }
  return ids.map((id, g) => {
    if (id !== null) return id;
    let candidate = serviceId(groups[g]);
    for (let salt = 1; everGiven.has(candidate) || taken.has(candidate); salt++) candidate = serviceId(groups[g], salt);
    taken.add(candidate);
    return candidate;
  });
}
