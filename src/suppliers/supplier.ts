import type { Listing, Settings, SupplierApi, SupplierId } from '../types.ts';
import type { SupplierError } from './supplier-error.ts';

/**
 * One supplier slot as its driver needs it: which API, where, and the operator's credentials
 * (configuration: src/config.ts; the simulator's own for a simulated slot). Plain data, so the
 * content worker's thread can make drivers of its own from it.
 */
export interface SupplierConfig {
  /** The slot: the interface's supplier id, whatever API sits behind it. */
  id: SupplierId;
  api: SupplierApi;
  /** Base URL as the API's spec writes its server (Hotelbeds: the host alone), e.g. https://demandapi.booking.com/3.1 */
  baseUrl: string;
  /** Booking.com's bearer token; Hotelbeds', LiteAPI's and Rapid's API key. */
  key: string;
  /** Hotelbeds' and Rapid's shared secret (request signatures); '' for the others. */
  secret: string;
  /** The operator's affiliate id with this supplier (Booking.com's X-Affiliate-Id; every deeplink's). */
  affiliateId: string;
  /** The clock of request signatures (Hotelbeds, Rapid), in milliseconds; default Date.now. */
  now?: () => number;
}

/**
 * The figures a driver works with: its default content page size and commission report page size,
 * and its calls' deadline and 429 rule (fetch-json.ts). Plain data, as the slot's configuration.
 */
export type DriverSettings = Pick<
  Settings,
  'feedPageSize' | 'reportFeedPageSize' | 'feedPageTimeoutMs' | 'rateLimitBackoffMs' | 'rateLimitMaxWaits' | 'rateLimitMaxWaitMs'
>;

/** What to price: one call's worth of ids (at most `maxIdsPerQuote`) for one stay and party. */
export interface QuoteRequest {
  supplierStayIds: string[];
  /** YYYY-MM-DD */
  checkin: string;
  checkout: string;
  adults: number;
  children: number;
  /** One age per child, or null: the supplier applies its own default ages. */
  childrenAges: number[] | null;
  rooms: number;
  /** ISO 4217 the caller would like; a supplier may answer in another (it says which). */
  currency: string;
}

/** A supplier's answer for one stay: the whole stay's price, or not bookable for these dates. */
export type Quote = { available: true; total: number; currency: string } | { available: false };

/** docs/decisions.md 8: a booking's status as the gateway reports it, whatever a supplier calls it. */
export const BOOKING_STATUSES = ['Pending', 'Approved', 'Canceled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** What to ask of a commission report: the changes in [from, to). */
export interface CommissionReportRequest {
  from: Date;
  to: Date;
  /** Records per page asked (capped at the supplier's own maximum). */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * One booking as a supplier's commission report states it, normalised: times are ISO 8601 UTC
 * (`toISOString()`), dates YYYY-MM-DD, the commission in US cents as the report says it
 * (converted at the report's own rate when it is in another currency, computed from total x rate
 * when the report gives those).
 */
export interface CommissionRecord {
  bookingId: string;
  /** The click id the booking page received, null when the report has none. */
  clickId: string | null;
  supplierStayId: string;
  bookedAt: string;
  checkin: string;
  checkout: string;
  rooms: number;
  status: BookingStatus;
  commissionUsdCents: number;
  propertyName: string;
  /** "City, CC" */
  destination: string;
  /** ISO 3166 alpha-2 in upper case, or null when the report does not say. */
  guestCountry: string | null;
  /** When the supplier last changed the booking: the version of this record. */
  updatedAt: string;
}

/**
 * One upstream supplier, reached over HTTP through its adapter (suppliers/booking-demand.ts ...).
 * The adapter owns the supplier's wire format; everything above sees normalised Listings and
 * Quotes. Adapters make exactly the calls asked of them: deadlines, batching, concurrency, the
 * breaker and the cache live around them (suppliers/quote-service.ts).
 */
export interface Supplier {
  readonly id: SupplierId;
  /** The supplier's whole content feed, page by page, normalised. Throws on HTTP or format errors. */
  /** With `onSkipped`, malformed records are skipped and told; without it, one fails the feed. */
  contentPages(options?: { pageSize?: number; signal?: AbortSignal; onSkipped?: (error: SupplierError) => void }): AsyncIterable<Listing[]>;
  /** Most ids one quote call may carry. */
  readonly maxIdsPerQuote: number;
  /**
   * One availability call. Every asked id is in the answer: an id the supplier leaves out counts
   * as not available. Throws SupplierError (timeout, http, network, malformed) on failure.
   */
  quote(request: QuoteRequest, signal: AbortSignal): Promise<Map<string, Quote>>;
  /**
   * The supplier's commission report of the changes in [from, to), page by page, normalised.
   * Throws SupplierError on HTTP or format errors (one bad record fails the report). Absent for
   * an API with no commission report (Hotelbeds: net rates; Expedia Rapid: none for affiliates):
   * the sync skips that slot, whose transactions come from `staygate transactions import`.
   */
  commissionReport?(request: CommissionReportRequest): AsyncIterable<CommissionRecord[]>;
}
