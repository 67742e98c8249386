import {
  atLeastDim,
  FACET_CODES,
  FACET_DIMS,
  FACET_RATING,
  FACET_STARS,
  FACET_SUPPLIERS,
  FACET_TYPE,
  facetCode,
  facetColumn,
  NO_CODE,
  SUPPLIER_CODE,
} from '../inventory/cell-facets.ts';
import { NO_RATING, NO_STARS, supplierMask, typeCode, type StayIndex } from '../inventory/stay-index.ts';
import { STAY_TYPES, SUPPLIER_IDS } from '../types.ts';
import type { SearchQuery } from './search-query.ts';

const ALL_SUPPLIERS = supplierMask(SUPPLIER_IDS);

/**
 * A static filter of one attribute, which keeps exactly the stays whose value of one index
 * column is kept: the clustering walk adds up the cell pyramid's facet entries for it
 * (inventory/cell-facets.ts) and scans small pieces' stays by a table, not the whole predicate.
 */
export interface FacetFilter {
  /** The dimension (FACET_TYPE, ...). */
  dim: number;
  /** 1 for each code whose entries the walk adds (one supplier: its own entry, SUPPLIER_CODE + its slot). */
  codes: Uint8Array;
  /** The dimension's index column, and 1 for each of its byte values the filter keeps. */
  column: Uint8Array;
  values: Uint8Array;
}

/**
 * The query's static filter as a FacetFilter, or null when it is not of one attribute (nothing
 * filters, two attributes, a review count, hotel names, one supplier's own ratings): those keep
 * the predicate of static-filter.ts. Kept values follow that predicate to the byte.
 */
export function facetFilterOf(index: StayIndex, query: SearchQuery): FacetFilter | null {
  if (query.hotelIds !== null || query.hotelSearch !== null || query.cell !== null) return null;
  if (query.minRatingCount > 0 || query.ratingsOf !== undefined) return null;
  const key = `${query.providers?.join() ?? '*'}|${query.types?.join() ?? '*'}|${query.minGuestRating}|${query.minStars}`;
  let byKey = made.get(index);
  if (byKey === undefined) made.set(index, (byKey = new Map()));
  let filter = byKey.get(key);
  if (filter === undefined) {
    filter = makeFacetFilter(index, query);
    if (byKey.size >= MADE_MAX) byKey.clear();
    byKey.set(key, filter);
  }
  return filter;
}

/**
 * Filters made, per index, by what they filter on: a map asks the same few again and again, and
 * making one tests 256 values a way (~3 us of a 40 us whole-world view). Read only once made.
 */
const made = new WeakMap<StayIndex, Map<string, FacetFilter | null>>();
const MADE_MAX = 256;

function makeFacetFilter(index: StayIndex, query: SearchQuery): FacetFilter | null {
  const mask = query.providers === null ? ALL_SUPPLIERS : supplierMask(query.providers);
  const filters: ((v: number) => boolean)[] = [];
  let dim = -1;
  if (mask !== ALL_SUPPLIERS) {
    dim = FACET_SUPPLIERS;
    filters.push((v) => (v & mask) !== 0);
  }
  if (query.types !== null && query.types.length < STAY_TYPES.length) {
    const codes = new Set(query.types.map(typeCode));
    dim = FACET_TYPE;
    filters.push((v) => codes.has(v));
  }
  if (query.minGuestRating > 0) {
    const min = query.minGuestRating * 10;
    dim = FACET_RATING;
    filters.push((v) => v !== NO_RATING && v >= min - 1e-9);
  }
  if (query.minStars > 0) {
    const min = query.minStars * 2;
    dim = FACET_STARS;
    filters.push((v) => v !== NO_STARS && v >= min);
  }
  if (filters.length !== 1) return null;
  const values = new Uint8Array(256);
  const test = filters[0];
  for (let v = 0; v < 256; v++) values[v] = test(v) ? 1 : 0;
  const codes = dim === FACET_SUPPLIERS && oneBit(mask) ? supplierCodes(mask) : keptCodes(dim, values);
  return codes === null ? null : { dim, codes, column: facetColumn(index, dim), values };
}

const oneBit = (mask: number): boolean => mask !== 0 && (mask & (mask - 1)) === 0;

/** One supplier's: its own entry (SUPPLIER_CODE + its slot), not each set that holds it. */
function supplierCodes(mask: number): Uint8Array {
  const kept = new Uint8Array(FACET_CODES);
  kept[SUPPLIER_CODE + Math.log2(mask)] = 1;
  return kept;
}

/** Each dimension's code of each byte value. */
const CODES = Array.from({ length: FACET_DIMS }, (_, dim) => Uint8Array.from({ length: 256 }, (_, v) => facetCode(dim, v)));

/**
 * 1 for each kept code. A code is one value of the column (inventory/cell-facets.ts), so the kept
 * values are whole codes. Of an atLeastDim (ratings, stars, whose entries hold their code and the
 * higher ones), the kept codes must be a minimum's (a code and every higher one but NO_CODE), else null.
 */
export function keptCodes(dim: number, values: Uint8Array): Uint8Array | null {
  const kept = new Uint8Array(FACET_CODES);
  const codeOf = CODES[dim];
  // Values no stay can have (a rating of 18.0) have no code.
  for (let v = 0; v < 256; v++) if (codeOf[v] < FACET_CODES && values[v] === 1) kept[codeOf[v]] = 1;
  // Never otherwise from the filters of today (static-filter.ts); were it, the stays are scanned.
  const from = kept.indexOf(1);
  if (atLeastDim(dim) && from >= 0) {
    if (kept[NO_CODE] === 1) return null;
    for (let v = 0; v < 256; v++) if (codeOf[v] >= from && codeOf[v] < NO_CODE && kept[codeOf[v]] === 0) return null;
  }
  return kept;
}
