import type { IgnoredParam } from '../../errors/api-error.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { Listing, Stay, SupplierId } from '../../types.ts';
import type { Deeplinks, PageLinks } from '../search/links.ts';
import { displayType, pageMeta, presentClusters, priceOf, shownListings } from '../search/paged-response.ts';

/**
 * The v3 200 body (v3-response-schema.ts says its shape), written as JSON text. Why not an object
 * serialised by the schema like v2: most of an accommodation (name, address, ratings, capacity,
 * media, policies) is the same for every request that shows the stay, so it is written once per
 * stay and kept; a request writes only what is its own (links, distance, prices, cell), and the
 * body is one join of ~150 strings. Serialising the whole object graph, then flattening the
 * ~1,500-piece string the serialiser builds, was a quarter of a static search's CPU.
 * render-v3.test.ts holds every body to the schema, strictly, in its key order.
 *
 * The supplier map shows the requested providers only; `averageRatings` covers every supplier of
 * the stay, as the spec defines it.
 */
export function renderV3(
  result: SearchResult,
  query: SearchQuery,
  links: PageLinks,
  go: Deeplinks,
  expand: (cellId: string) => string,
  ignored: readonly IgnoredParam[],
  contentUnavailable: readonly SupplierId[] = [],
): string {
  const parts: string[] = [
    '{"meta":',
    JSON.stringify(pageMeta(result, query, result.hits.length, ignored, contentUnavailable)),
    ',"_links":',
    JSON.stringify(links),
    ',"results":[',
  ];
  result.hits.forEach(({ stay, distanceMeters, offers, cellId }, i) => {
    const written = fragmentsOf(stay);
    if (i > 0) parts.push(',');
    // URLs the gateway builds are JSON-safe (json-schema.ts, jsonSafeString): quoted, not escaped.
    parts.push(written.open, '"', go.stay(stay.id), '","suppliers":{');
    let first = true;
    for (const listing of shownListings(stay, query.providers, offers)) {
      const at = stay.listings.indexOf(listing);
      parts.push(
        first ? '' : ',',
        written.entryOpen[at],
        '"',
        go.supplier(listing.supplier, listing.supplierStayId),
        '"',
        written.entryRest[at],
      );
      const { price } = priceOf(offers, listing.supplier);
      if (price !== undefined) parts.push(',"price":', price === null ? 'null' : `{"total":${JSON.stringify(price.total)}}`);
      parts.push('}');
      first = false;
    }
    // v3 types the distance as a number: an ID lookup, which has no point to measure from, says 0.
    parts.push(written.middle, JSON.stringify(distanceMeters ?? 0), written.close);
    if (cellId !== undefined) parts.push(',"cellId":"', cellId, '"');
    parts.push('}');
  });
  parts.push(']');
  const clusters = presentClusters(result, expand);
  if (clusters !== undefined) parts.push(',"clusters":', JSON.stringify(clusters));
  parts.push('}');
  return parts.join('');
}

/** The request-independent JSON of a stay, cut where a request's own values go. */
interface StayFragments {
  /** `{"id":"…","url":` */
  open: string;
  /** Per listing (parallel to stay.listings): `"supplier_x":{"link":` */
  entryOpen: string[];
  /** Per listing: `,"media":{…},"rating":{…},"policies":{…}` (the entry's price and `}` follow). */
  entryRest: string[];
  /** `},"name":…,"type":…,"location":{"address":…,"coordinates":{…},"distanceInMeters":` */
  middle: string;
  /** `},"averageRatings":{…},"capacity":{…}` */
  close: string;
}

/** Kept as long as the stay object is (the stay cache holds the stays in use). */
const fragments = new WeakMap<Stay, StayFragments>();

function fragmentsOf(stay: Stay): StayFragments {
  let written = fragments.get(stay);
  if (written === undefined) {
    written = writeFragments(stay);
    fragments.set(stay, written);
  }
  return written;
}

const json = JSON.stringify;

function writeFragments(stay: Stay): StayFragments {
  const { lat, lng } = stay;
  const { guests, bedrooms, beds, bathrooms } = stay.capacity;
  // Array.join makes flat strings: each fragment is copied into a body without walking pieces.
  return {
    open: ['{"id":', json(stay.id), ',"url":'].join(''),
    entryOpen: stay.listings.map((l) => [json(l.supplier), ':{"link":'].join('')),
    entryRest: stay.listings.map(supplierEntryRest),
    middle: [
      '},"name":',
      json(stay.name),
      ',"type":',
      json(displayType(stay.typeLabel)),
      ',"location":{"address":',
      json(stay.address),
      ',"coordinates":{"lat":',
      json(lat),
      ',"lng":',
      json(lng),
      '},"distanceInMeters":',
    ].join(''),
    close: [
      '},"averageRatings":',
      rating(stay.averageRating),
      ',"capacity":{"guests":',
      json(guests),
      ',"bedrooms":',
      json(bedrooms),
      ',"beds":',
      json(beds),
      ',"bathrooms":',
      json(bathrooms),
      '}',
    ].join(''),
  };
}

function supplierEntryRest(listing: Listing): string {
  const { media, policies } = listing;
  return [
    ',"media":{"thumbnail":',
    json(media.thumbnail),
    ',"logoSquare":',
    json(media.logoSquare),
    '},"rating":',
    rating(listing.rating),
    ',"policies":{"instantBook":',
    json(policies.instantBook),
    ',"freeCancellation":',
    json(policies.freeCancellation),
    '}',
  ].join('');
}

function rating(r: Stay['averageRating']): string {
  return ['{"value":', json(r.value), ',"hotelStars":', json(r.hotelStars), ',"count":', json(r.count), '}'].join('');
}
