// Where `/go` sends a traveller for one listing of a slot (docs/decisions.md 146): the slot's
// booking-page template when it has one (STAYGATE_SUPPLIER_<X>_BOOKING_URL, the simulator's page
// for a simulated slot, or the API's documented default), else the stay's own page where the
// API's content gives one (Booking.com's `url`), else none.
import type { Listing, SupplierApi } from '../types.ts';
import { bookingComUrl, type BookingComFields } from './booking-com-url.ts';
import { compileBookingTemplate, type BookingFields } from './booking-url.ts';

/**
 * A real Expedia Rapid slot's booking page unless configured: Vrbo's search page with the stay
 * selected, the form Expedia's own lodging API links Vrbo stays with
 * (`https://www.vrbo.com/search?selected=<Expedia property id>&startDate=&endDate=&adults=`), since
 * Rapid's property id is an Expedia property id and Vrbo's `vrbo.com/<n>` pages want Vrbo's own
 * listing number. Vrbo documents no affiliate parameter: `affiliateId` carries the operator's id
 * for an affiliate network that reads it; operators whose programme names its own parameters set
 * STAYGATE_SUPPLIER_<X>_BOOKING_URL.
 */
export const VRBO_BOOKING_URL =
  'https://www.vrbo.com/search?selected={supplierStayId}&startDate={checkin}&endDate={checkout}&adults={adults}&affiliateId={affiliateId}';

interface ApiBookingPage {
  /** A real slot's template when STAYGATE_SUPPLIER_<X>_BOOKING_URL is unset; null: none documented. */
  template: string | null;
  /** Fills the stay's own page from the API's content (`Listing.url`), for the APIs whose content has one. */
  listingPage: ((url: string, fields: BookingComFields) => string | null) | null;
}

/** Each API's booking page without configuration: Hotelbeds and LiteAPI have no public page per stay. */
export const API_BOOKING_PAGES: Readonly<Record<SupplierApi, ApiBookingPage>> = {
  'booking-demand': { template: null, listingPage: bookingComUrl },
  hotelbeds: { template: null, listingPage: null },
  liteapi: { template: null, listingPage: null },
  'expedia-rapid': { template: VRBO_BOOKING_URL, listingPage: null },
};

/** Whether a real slot of this API has no page to send a traveller to unless STAYGATE_SUPPLIER_<X>_BOOKING_URL names one. */
export function needsBookingUrl(api: SupplierApi): boolean {
  const page = API_BOOKING_PAGES[api];
  return page.template === null && page.listingPage === null;
}

/** One slot as its booking pages need it (supplier-slots.ts' SupplierSlot has these fields). */
export interface BookingPageSlot {
  api: SupplierApi;
  /** The template (STAYGATE_SUPPLIER_<X>_BOOKING_URL syntax), or null: the listings' own pages. */
  bookingUrl: string | null;
  baseUrl: string;
  affiliateId: string;
}

/** What one click knows besides the listing: the link's fields, the click id, and today's date. */
export type ClickFields = Omit<BookingFields, 'supplierStayId'> & { today: string };

/** The page for one click on a listing of the slot; null when the slot has none for it. */
export type BookingPage = (listing: Pick<Listing, 'supplierStayId' | 'url'>, fields: ClickFields) => string | null;

/** Compiles the slot's template once (throws on an invalid one). */
export function createBookingPage(slot: BookingPageSlot): BookingPage {
  const template =
    slot.bookingUrl === null ? null : compileBookingTemplate(slot.bookingUrl, { supplierUrl: slot.baseUrl, affiliateId: slot.affiliateId });
  const { listingPage } = API_BOOKING_PAGES[slot.api];
  return (listing, fields) => {
    if (template !== null) return template({ ...fields, supplierStayId: listing.supplierStayId });
    if (listingPage !== null && listing.url !== undefined) return listingPage(listing.url, { ...fields, affiliateId: slot.affiliateId });
    return null;
  };
}
