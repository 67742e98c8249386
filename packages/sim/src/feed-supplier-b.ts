// supplier_b's content feed: cursor pages, snake_case, "HB" + 7 digit ids (see README.md).
import { STAY_TYPES } from './types.ts';
import type { SimListing } from './generate-world.ts';
import { requestBase } from './media.ts';
import {
  FEED_DEFAULT_PAGE_SIZE,
  FEED_MAX_PAGE_SIZE,
  ok,
  readIntegerParam,
  SupplierHttpError,
  type SupplierRoute,
} from './create-supplier-server.ts';
import { splitAddress } from './split-address.ts';

export const SUPPLIER_B_CONTENT_PATH = '/v2/hotels';

export interface SupplierBHotel {
  hotel_id: string;
  name: string;
  kind_id: number;
  kind: string;
  lat: number;
  lon: number;
  street: string;
  city: string;
  country: string;
  stars: number | null;
  review_score: number;
  review_count: number;
  max_occupancy: number;
  bedroom_count: number | null;
  bed_count: number | null;
  bathroom_count: number;
  instant_confirmation: boolean;
  free_cancellation: boolean;
  photo_url: string;
  logo_url: string;
}

export interface SupplierBPage {
  hotels: SupplierBHotel[];
  next_cursor: string | null;
}

export function renderSupplierBHotel(listing: SimListing, base = ''): SupplierBHotel {
  const { line1, city, countryCode } = splitAddress(listing.address);
  return {
    hotel_id: listing.supplierStayId,
    name: listing.name,
    kind_id: STAY_TYPES.indexOf(listing.type),
    kind: listing.typeLabel,
    lat: listing.lat,
    lon: listing.lng,
    street: line1,
    city,
    country: countryCode,
    stars: listing.rating.hotelStars,
    // 0-5 scale: halving a one-decimal value is exact in binary floating point (and doubling back is).
    review_score: listing.rating.value / 2,
    review_count: listing.rating.count,
    max_occupancy: listing.capacity.guests,
    bedroom_count: listing.capacity.bedrooms,
    bed_count: listing.capacity.beds,
    bathroom_count: listing.capacity.bathrooms,
    instant_confirmation: listing.policies.instantBook,
    free_cancellation: listing.policies.freeCancellation,
    photo_url: `${base}${listing.media.thumbnail}`,
    logo_url: `${base}${listing.media.logoSquare}`,
  };
}

/** The cursor is opaque to clients; inside it is the offset of the next record. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

export function decodeCursor(cursor: string, total: number): number {
  const match = /^o:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset >= 0 && offset <= total)) {
    throw new SupplierHttpError(400, 'cursor is not a cursor this feed issued', { param: 'cursor', value: cursor });
  }
  return offset;
}

/** `GET /v2/hotels?limit=<1..5000, default 1000>[&cursor=<opaque>]`. */
export function supplierBContentRoute(listings: readonly SimListing[]): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_B_CONTENT_PATH,
    handle({ query, headers }) {
      // Media URLs name this server as the request reached it (media.ts).
      const base = requestBase(headers);
      const limit = readIntegerParam(query, 'limit', { min: 1, max: FEED_MAX_PAGE_SIZE, fallback: FEED_DEFAULT_PAGE_SIZE });
      const cursor = query.get('cursor');
      const offset = cursor === null ? 0 : decodeCursor(cursor, listings.length);
      const end = Math.min(offset + limit, listings.length);
      const body: SupplierBPage = {
        hotels: listings.slice(offset, end).map((listing) => renderSupplierBHotel(listing, base)),
        next_cursor: end < listings.length ? encodeCursor(end) : null,
      };
      return ok(body);
    },
  };
}
