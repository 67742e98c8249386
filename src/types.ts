// Domain types shared by every layer. Imports nothing; everything may import it.
import type { defaults } from './defaults.ts';

export const SUPPLIER_IDS = ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] as const;
export type SupplierId = (typeof SUPPLIER_IDS)[number];

/** The real supplier APIs a slot may speak (STAYGATE_SUPPLIER_<X>_API), one driver each (suppliers/create-suppliers.ts). */
export const SUPPLIER_APIS = ['booking-demand', 'hotelbeds', 'liteapi', 'expedia-rapid'] as const;
export type SupplierApi = (typeof SUPPLIER_APIS)[number];

export function isSupplierApi(value: string): value is SupplierApi {
  return (SUPPLIER_APIS as readonly string[]).includes(value);
}

/** Each slot's API unless configured otherwise: the four suppliers the interface was written for. */
export const DEFAULT_SUPPLIER_APIS: Readonly<Record<SupplierId, SupplierApi>> = {
  supplier_a: 'booking-demand',
  supplier_b: 'hotelbeds',
  supplier_c: 'liteapi',
  supplier_d: 'expedia-rapid',
};

/** Each supplier's price for a whole stay in the search currency; null when the supplier could not tell. */
export type Offers = Map<SupplierId, number | null>;

export function isSupplierId(value: string): value is SupplierId {
  return (SUPPLIER_IDS as readonly string[]).includes(value);
}

/** The spec's concrete non-hotel types, in its order. `rental` means any of these. */
export const RENTAL_TYPES = [
  'palace',
  'lodge',
  'agritourism',
  'riad',
  'ryokan',
  'villa',
  'resort',
  'pension',
  'bed_and_breakfast',
  'apartment',
  'private_vacation_home',
  'bungalow',
  'tourist',
  'all_inclusive',
  'hostel',
  'farm_stay',
  'cabin',
  'residence',
  'house',
  'condo',
  'chalet',
  'country_house',
  'aparthotel',
  'cottage',
] as const;
export type RentalType = (typeof RENTAL_TYPES)[number];

/** Normalised category of a stay: what the `type` filter matches. */
export const STAY_TYPES = ['hotel', ...RENTAL_TYPES] as const;
export type StayType = (typeof STAY_TYPES)[number];

export interface Coordinates {
  lat: number;
  lng: number;
}

export interface Rating {
  /**
   * Guest rating on the 0-10 scale, one decimal; null when there is none: the supplier's API has
   * no guest rating (Hotelbeds), or no listing of a stay has one (`averageRating`). Never 0 for
   * "none" (docs/decisions.md 135).
   */
  value: number | null;
  /** Star class 0-5 (half stars allowed), null when the property has none. */
  hotelStars: number | null;
  /** Number of reviews behind `value` (0 in an average whose value is null). */
  count: number;
}

export interface Capacity {
  guests: number;
  bedrooms: number | null;
  beds: number | null;
  /** May be fractional (0.5 = a half bathroom). */
  bathrooms: number;
}

export interface Policies {
  instantBook: boolean;
  freeCancellation: boolean;
}

/** Image URLs; ingest makes them JSON-safe (json-safe-url.ts), so responses write them unscanned. */
export interface Media {
  thumbnail: string;
  logoSquare: string;
}

/** One supplier's listing of a property, after its adapter normalised the feed record. */
export interface Listing {
  supplier: SupplierId;
  /** The supplier's own id for the property (bare, as the supplier writes it). */
  supplierStayId: string;
  name: string;
  /** Free-form display label from the supplier ("Boutique hotel", "Entire villa"). */
  typeLabel: string;
  /** Normalised category. */
  type: StayType;
  address: string;
  lat: number;
  lng: number;
  rating: Rating;
  capacity: Capacity;
  policies: Policies;
  media: Media;
  /**
   * The stay's own web page as the supplier's API gives it, placeholders and all (Booking.com's
   * `url`, with `!AFFILIATE_ID!`...): where `/go` sends the traveller for this listing. Absent: the
   * slot's booking page template (STAYGATE_SUPPLIER_<X>_BOOKING_URL) builds the link.
   */
  url?: string;
}

/**
 * A stay as the gateway knows it: one property, merged from the listings of every supplier
 * that sells it (at most one listing per supplier).
 */
export interface Stay {
  /** Position in the store and in the in-memory index: 0..n-1, dense. */
  idx: number;
  /** The service id, stable across re-ingests of the same feeds. */
  id: string;
  name: string;
  type: StayType;
  typeLabel: string;
  address: string;
  lat: number;
  lng: number;
  /** Resolution-15 H3 cell of (lat, lng), hex string, computed at ingest. */
  h3: string;
  capacity: Capacity;
  /** Review-count-weighted average over the listings that have a rating (the spec's `averageRatings`). */
  averageRating: Rating;
  /** Ordered by SUPPLIER_IDS. */
  listings: Listing[];
}

/** A `hotelids` entry once parsed: `supplier` is set for `<supplier>:<id>` entries. */
export interface HotelIdRef {
  raw: string;
  supplier: SupplierId | null;
  id: string;
}

type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? readonly Widen<U>[]
        : T extends object
          ? { readonly [K in keyof T]: Widen<T[K]> }
          : T;

/**
 * The service's tunable figures: defaults.ts overlaid with the environment, resolved once by
 * config.ts (`Config.settings`) and passed down. A module never reads defaults.ts: it takes the
 * slice it uses as a parameter, `settings: Pick<Settings, 'feedPageSize' | 'feedPageTimeoutMs'>`,
 * and its caller hands on the whole `config.settings`.
 */
export type Settings = Widen<typeof defaults>;
