// supplier_a's content feed: numbered pages, camelCase, numeric ids (see README.md).
import type { SimListing } from './generate-world.ts';
import { requestBase } from './media.ts';
import { FEED_DEFAULT_PAGE_SIZE, FEED_MAX_PAGE_SIZE, ok, readIntegerParam, type SupplierRoute } from './create-supplier-server.ts';
import { splitAddress } from './split-address.ts';

export const SUPPLIER_A_CONTENT_PATH = '/content/properties';

export interface SupplierAProperty {
  propertyId: number;
  propertyName: string;
  propertyType: { code: string; label: string };
  geo: { latitude: number; longitude: number };
  address: { line1: string; city: string; countryCode: string };
  starRating: number | null;
  guestScore: { score: number; reviews: number };
  occupancy: { maxGuests: number; bedrooms: number | null; beds: number | null; bathrooms: number };
  policies: { instantConfirmation: boolean; freeCancellation: boolean };
  images: { kind: 'thumbnail' | 'logo'; url: string }[];
}

export interface SupplierAPage {
  page: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
  properties: SupplierAProperty[];
}

export function renderSupplierAProperty(listing: SimListing, base = ''): SupplierAProperty {
  return {
    propertyId: Number(listing.supplierStayId),
    propertyName: listing.name,
    propertyType: { code: listing.type.toUpperCase(), label: listing.typeLabel },
    geo: { latitude: listing.lat, longitude: listing.lng },
    address: splitAddress(listing.address),
    starRating: listing.rating.hotelStars,
    guestScore: { score: listing.rating.value, reviews: listing.rating.count },
    occupancy: {
      maxGuests: listing.capacity.guests,
      bedrooms: listing.capacity.bedrooms,
      beds: listing.capacity.beds,
      bathrooms: listing.capacity.bathrooms,
    },
    policies: { instantConfirmation: listing.policies.instantBook, freeCancellation: listing.policies.freeCancellation },
    images: [
      { kind: 'thumbnail', url: `${base}${listing.media.thumbnail}` },
      { kind: 'logo', url: `${base}${listing.media.logoSquare}` },
    ],
  };
}

/** `GET /content/properties?page=<1-based, default 1>&pageSize=<1..5000, default 1000>`. */
export function supplierAContentRoute(listings: readonly SimListing[]): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_A_CONTENT_PATH,
    handle({ query, headers }) {
      // Media URLs name this server as the request reached it (media.ts).
      const base = requestBase(headers);
      const page = readIntegerParam(query, 'page', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
      const pageSize = readIntegerParam(query, 'pageSize', { min: 1, max: FEED_MAX_PAGE_SIZE, fallback: FEED_DEFAULT_PAGE_SIZE });
      const start = (page - 1) * pageSize;
      const body: SupplierAPage = {
        page,
        pageSize,
        totalPages: Math.ceil(listings.length / pageSize),
        totalCount: listings.length,
        properties: listings.slice(start, start + pageSize).map((listing) => renderSupplierAProperty(listing, base)),
      };
      return ok(body);
    },
  };
}
