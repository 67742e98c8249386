import type { HotelIdRef, StayType, SupplierId } from '../types.ts';

/** Where to search. A box may cross the antimeridian (west > east). */
export type LocationQuery =
  | { kind: 'box'; south: number; west: number; north: number; east: number }
  | { kind: 'point'; lat: number; lng: number; radius: number }
  | { kind: 'address'; address: string; radius: number };

export interface StayDates {
  checkin: string;
  checkout: string;
  nights: number;
}

export interface Occupancy {
  adults: number;
  children: number;
  /** One age per child, or null to let suppliers apply their defaults. */
  childrenAges: number[] | null;
  rooms: number;
}

export const CLUSTER_MODES = ['false', 'auto', 'true', 'top'] as const;
export type ClusterMode = (typeof CLUSTER_MODES)[number];

/**
 * A search, independent of the API version that asked for it. Every version's query parser
 * produces one; the search core never sees raw query strings.
 */
export interface SearchQuery {
  /** Null only for ID lookups. */
  location: LocationQuery | null;
  hotelIds: HotelIdRef[] | null;
  /** Null means every supplier. */
  providers: SupplierId[] | null;
  /** Null means every type; `rental` is already expanded into its concrete types. */
  types: StayType[] | null;
  /** Folded name tokens of a `hotelsearch`, or null. */
  hotelSearch: string[] | null;
  /**
   * Whose rating `minStars` and `minGuestRating` apply to: one supplier's own (v1 shows one
   * supplier's data), or, when absent, the stay's average across its suppliers.
   */
  ratingsOf?: SupplierId;
  /** 0 means no filter. */
  minStars: number;
  minGuestRating: number;
  minRatingCount: number;
  page: number;
  pageSize: number;
  dates: StayDates | null;
  occupancy: Occupancy;
  /** ISO 4217, upper case. */
  currency: string;
  /** Per-night USD bounds, applied only with dates. */
  minPrice: number | null;
  maxPrice: number | null;
  cluster: ClusterMode;
  precision: number | null;
  cell: string | null;
}
