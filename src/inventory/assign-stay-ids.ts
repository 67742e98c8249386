// Stable stay ids across refreshes (docs/decisions.md 58): a stay's id comes from the persistent
// map (supplier listing -> stay id), so it outlives the listing that first named it.
import type { StayIdMap } from '../store/stay-id-map.ts';
import type { Listing } from '../types.ts';
import { serviceId } from './build-stays.ts';

const keyOf = (listing: Listing): string => `${listing.supplier}:${listing.supplierStayId}`;

/**
 * The id of each group, in group order. A group takes the id most of its listings had (ties: the
 * smaller id); when two groups claim one id (a stay split), the one with more listings keeping it
 * wins. Groups left without one get serviceId of their listings, salted until it is new: an id
 * once given, even to a stay since removed, is never given to another stay. The ids given are
 * recorded in `known` (as given, from then on).
 *
 * A refresh at 10M stays has a claim for nearly every group: they are kept in typed arrays (a
 * group's claimed ids by their number in `known`, ranked, at most one per listing), not in an
 * object, a Map and two arrays each (~200 bytes a group, gigabytes at that size: issue 22).
 */
export function assignStayIds(groups: readonly (readonly Listing[])[], known: StayIdMap): string[] {
  // Claims: claimGroup[k] is the group; its ranked ids are claimed[claimStart[k] .. claimStart[k + 1]).
  let listings = 0;
  for (const group of groups) listings += group.length;
  const claimGroup = new Int32Array(known.size === 0 ? 0 : groups.length);
  const claimStart = new Int32Array(claimGroup.length + 1);
  const claimed = new Int32Array(known.size === 0 ? 0 : listings);
  const votes = new Int32Array(claimed.length);
  let claims = 0;
  let end = 0;
  if (known.size > 0) {
    groups.forEach((group, g) => {
      const from = end;
      for (const listing of group) {
        const n = known.stayOfKey(keyOf(listing));
        if (n < 0) continue;
        let at = from;
        while (at < end && claimed[at] !== n) at++;
        if (at === end) {
          claimed[end] = n;
          votes[end++] = 0;
        }
        votes[at]++;
      }
      if (end === from) return;
      // Most votes first, then the smaller id: a few entries, sorted in place.
      for (let i = from + 1; i < end; i++) {
        for (let j = i; j > from && before(claimed[j], votes[j], claimed[j - 1], votes[j - 1]); j--) {
          [claimed[j], claimed[j - 1]] = [claimed[j - 1], claimed[j]];
          [votes[j], votes[j - 1]] = [votes[j - 1], votes[j]];
        }
      }
      claimGroup[claims] = g;
      claimStart[++claims] = end;
    });
  }
  /** Whether id number x with vx votes ranks before y with vy. */
  function before(x: number, vx: number, y: number, vy: number): boolean {
    return vx !== vy ? vx > vy : known.stayId(x) < known.stayId(y);
  }

  // Strongest claims first, so a split gives the id to the bigger part, whatever the group order.
  const order = Uint32Array.from({ length: claims }, (_, k) => k).sort((x, y) => {
    const a = claimStart[x],
      b = claimStart[y];
    // Their first choices ranked as a group ranks its own; one choice, in group order.
    if (votes[a] !== votes[b] || claimed[a] !== claimed[b]) return before(claimed[a], votes[a], claimed[b], votes[b]) ? -1 : 1;
    return claimGroup[x] - claimGroup[y];
  });
  const ids: (string | null)[] = new Array<string | null>(groups.length).fill(null);
  const taken = new Uint8Array(known.stayCount);
  for (const k of order) {
    for (let at = claimStart[k]; at < claimStart[k + 1]; at++) {
      if (taken[claimed[at]] === 1) continue;
      taken[claimed[at]] = 1;
      ids[claimGroup[k]] = known.stayId(claimed[at]);
      break;
    }
  }
  // Every id given or taken is in `known` from here on: a new one is new only if it is not there.
  return ids.map((id, g) => {
    if (id !== null) return id;
    let candidate = serviceId(groups[g]);
    for (let salt = 1; known.stayNumber(candidate) >= 0; salt++) candidate = serviceId(groups[g], salt);
    known.addStay(candidate);
    return candidate;
  });
}
