// The vocabulary the simulated suppliers speak: their ids, the stay types their feeds write, and
// the canonical shape of a listing (what an adapter recovers from a feed record). The simulator is
// its own package and never imports the gateway, so it defines these itself; they are the same
// values as the gateway's src/types.ts because they stand for the same upstream world, and
// src/sim-vocabulary.test.ts fails when the two disagree. Imports nothing.

export const SUPPLIER_IDS = ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] as const;
export type SupplierId = (typeof SUPPLIER_IDS)[number];

export function isSupplierId(value: string): value is SupplierId {
  return (SUPPLIER_IDS as readonly string[]).includes(value);
}

/** The concrete non-hotel types, in the order of the gateway's spec. */
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

/** Every stay type of the world (each API writes them in its own words). */
export const STAY_TYPES = ['hotel', ...RENTAL_TYPES] as const;
export type StayType = (typeof STAY_TYPES)[number];

export interface Rating {
  /** Guest rating on a 1-10 scale. */
  value: number;
  /** Star class 0-5 (half stars allowed), null when the property has none. */
  hotelStars: number | null;
  /** Number of reviews behind `value`. */
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

export interface Media {
  thumbnail: string;
  logoSquare: string;
}

/** One supplier's listing of a property, in canonical values: what its feed record encodes. */
export interface Listing {
  supplier: SupplierId;
  /** The supplier's own id for the property (bare, as the supplier writes it). */
  supplierStayId: string;
  name: string;
  /** Free-form display label of the supplier ("Boutique hotel", "Entire villa"). */
  typeLabel: string;
  type: StayType;
  address: string;
  lat: number;
  lng: number;
  rating: Rating;
  capacity: Capacity;
  policies: Policies;
  media: Media;
}
