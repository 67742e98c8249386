// supplier_c's content feed: offset/limit, compact records, numeric ids sharing supplier_a's range.
import type { SimListing } from './generate-world.ts';
import { requestBase } from './media.ts';
import { FEED_DEFAULT_PAGE_SIZE, FEED_MAX_PAGE_SIZE, ok, readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';

export const SUPPLIER_C_CONTENT_PATH = '/feed/accommodations';

export interface SupplierCItem {
  id: number;
  title: string;
  type_code: string;
  type_label: string;
  /** [lng, lat], GeoJSON order. */
  location: [number, number];
  addr: string;
  class: number | null;
  rating: { pct: number; votes: number };
  sleeps: number;
  layout: { bedrooms: number | null; beds: number | null; baths: number };
  flags: ('instant_book' | 'free_cancellation')[];
  media: { thumb: string; square_logo: string };
}

export interface SupplierCPage {
  total: number;
  offset: number;
  limit: number;
  items: SupplierCItem[];
}

export function renderSupplierCItem(listing: SimListing, base = ''): SupplierCItem {
  const flags: SupplierCItem['flags'] = [];
  if (listing.policies.instantBook) flags.push('instant_book');
  if (listing.policies.freeCancellation) flags.push('free_cancellation');
  return {
    id: Number(listing.supplierStayId),
    title: listing.name,
    type_code: listing.type.replaceAll('_', '-'),
    type_label: listing.typeLabel,
    location: [listing.lng, listing.lat],
    addr: listing.address,
    class: listing.rating.hotelStars,
    // Percent: an integer, so the canonical one-decimal value is pct / 10 exactly.
    rating: { pct: Math.round(listing.rating.value * 10), votes: listing.rating.count },
    sleeps: listing.capacity.guests,
    layout: { bedrooms: listing.capacity.bedrooms, beds: listing.capacity.beds, baths: listing.capacity.bathrooms },
    flags,
    media: { thumb: `${base}${listing.media.thumbnail}`, square_logo: `${base}${listing.media.logoSquare}` },
  };
}

/** `GET /feed/accommodations?offset=<0-based, default 0>&limit=<1..5000, default 1000>`. */
export function supplierCContentRoute(listings: readonly SimListing[]): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_C_CONTENT_PATH,
    handle({ query, headers }) {
      // Media URLs name this server as the request reached it (media.ts).
      const base = requestBase(headers);
      const offset = readIntegerParam(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
      const limit = readIntegerParam(query, 'limit', { min: 1, max: FEED_MAX_PAGE_SIZE, fallback: FEED_DEFAULT_PAGE_SIZE });
      const body: SupplierCPage = {
        total: listings.length,
        offset,
        limit,
        items: listings.slice(offset, offset + limit).map((listing) => renderSupplierCItem(listing, base)),
      };
      return ok(body);
    },
  };
}
