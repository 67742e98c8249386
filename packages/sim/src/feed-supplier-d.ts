// supplier_d's content feed: numbered pages in a Laravel-style envelope, numeric-string ids.
import type { SimListing } from './generate-world.ts';
import { MEDIA_PATHS, requestBase } from './media.ts';
import { FEED_DEFAULT_PAGE_SIZE, FEED_MAX_PAGE_SIZE, ok, readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';

export const SUPPLIER_D_CONTENT_PATH = '/api/listings';

export type CancellationPolicy = 'flexible' | 'moderate' | 'strict';

export interface SupplierDListing {
  listing_id: string;
  headline: string;
  property_type: string;
  property_type_label: string;
  coordinates: { lat: number; lng: number };
  address: { full: string };
  star_class: number | null;
  host_rating: number;
  ratings_count: number;
  sleeps: number;
  bedrooms: number | null;
  beds: number | null;
  bathrooms: number;
  instant_book: boolean;
  cancellation_policy: CancellationPolicy;
  photos: { url: string; is_cover: boolean }[];
  brand_logo: string;
}

export interface SupplierDPage {
  data: SupplierDListing[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/**
 * A listing has one to three photos and the cover is not always the first one, as on a real
 * marketplace where hosts reorder photos: the thumbnail is the photo flagged `is_cover`.
 * A non-free cancellation is `moderate` or `strict`, chosen from the id so that it is stable.
 */
export function renderSupplierDListing(listing: SimListing, base = ''): SupplierDListing {
  const n = Number(listing.supplierStayId);
  const photoCount = 1 + (n % 3);
  const coverAt = Math.floor(n / 3) % photoCount;
  // The cover is photo 1 (the thumbnail); the others are numbered 2, 3 in the order shown.
  let next = 2;
  const photos = Array.from({ length: photoCount }, (_v, i) =>
    i === coverAt
      ? { url: `${base}${listing.media.thumbnail}`, is_cover: true }
      : { url: `${base}${MEDIA_PATHS.supplier_d.photo(listing.supplierStayId, next++)}`, is_cover: false },
  );
  return {
    listing_id: listing.supplierStayId,
    headline: listing.name,
    property_type: listing.type,
    property_type_label: listing.typeLabel,
    coordinates: { lat: listing.lat, lng: listing.lng },
    address: { full: listing.address },
    star_class: listing.rating.hotelStars,
    // 0-5 scale: halving a one-decimal value is exact in binary floating point (and doubling back is).
    host_rating: listing.rating.value / 2,
    ratings_count: listing.rating.count,
    sleeps: listing.capacity.guests,
    bedrooms: listing.capacity.bedrooms,
    beds: listing.capacity.beds,
    bathrooms: listing.capacity.bathrooms,
    instant_book: listing.policies.instantBook,
    cancellation_policy: listing.policies.freeCancellation ? 'flexible' : n % 2 === 0 ? 'moderate' : 'strict',
    photos,
    brand_logo: `${base}${listing.media.logoSquare}`,
  };
}

/** `GET /api/listings?page=<1-based, default 1>&per_page=<1..5000, default 1000>`. */
export function supplierDContentRoute(listings: readonly SimListing[]): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_D_CONTENT_PATH,
    handle({ query, headers }) {
      // Media URLs name this server as the request reached it (media.ts).
      const base = requestBase(headers);
      const page = readIntegerParam(query, 'page', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
      const perPage = readIntegerParam(query, 'per_page', { min: 1, max: FEED_MAX_PAGE_SIZE, fallback: FEED_DEFAULT_PAGE_SIZE });
      const start = (page - 1) * perPage;
      const body: SupplierDPage = {
        data: listings.slice(start, start + perPage).map((listing) => renderSupplierDListing(listing, base)),
        // Laravel reports last_page 1 for an empty collection.
        meta: {
          current_page: page,
          last_page: Math.max(1, Math.ceil(listings.length / perPage)),
          per_page: perPage,
          total: listings.length,
        },
      };
      return ok(body);
    },
  };
}
