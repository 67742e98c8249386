// One click on a tracked deeplink (docs/decisions.md 7), without HTTP: the supplier it goes to, the
// booking page it opens (booking-page.ts: the slot's template, or the stay's own page where the
// API gives one) carrying the affiliate id, the click id and the link's dates and party, and the
// click recorded before the traveller is sent on. `http/partner/go-routes.ts` finds the stay and
// answers with the redirect.
import { randomBytes } from 'node:crypto';
import type { Offers, Settings, Stay, SupplierId } from '../types.ts';
import type { BookingPage } from './booking-page.ts';
import { chooseSupplier } from './choose-supplier.ts';
import type { ClickStore } from './click-store.ts';
import { deviceClass } from './device-class.ts';

/** Where clicks are recorded and each slot's booking page (what `/go` needs of the app). */
export interface ClickSinks {
  clicks: Pick<ClickStore, 'record'>;
  /** Each slot's booking page for a listing (booking-page.ts). */
  bookingPages: Record<SupplierId, BookingPage>;
}

/** What a deeplink carries, read and checked by the route: the effective affiliate parameters and the stay priced. */
export interface ClickLink {
  aid: string | null;
  campaign: string | null;
  /** The link's dates while they still make a valid stay; null otherwise (an old link still leads to the stay). */
  checkin: string | null;
  checkout: string | null;
  /** The link's party where valid; null where the link names none. */
  adults: number | null;
  rooms: number | null;
}

export interface ClickRequest {
  stay: Stay;
  /** The supplier the link names (`/go/{supplier}/{id}`); null: the best one for `offers` (chooseSupplier). */
  supplier: SupplierId | null;
  /** The stay's offers for the link's dates (null: none asked); read only when `supplier` is null. */
  offers: Offers | null;
  link: ClickLink;
  userAgent: string | undefined;
  /** False for a HEAD: it checks a link without following it, so no click is counted. */
  record: boolean;
  now: Date;
}

/** Where to send the traveller, and the click id the page carries; or the supplier that has no page for the stay. */
export type ClickOutcome = { location: string; clickId: string; supplier: SupplierId } | { unavailable: SupplierId };

/** 128 random bits, URL-safe: unguessable, so a click id in a report cannot be forged for another click. */
export function newClickId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The party a booking page opens with: the link's, else, on a dated link, the search's defaults
 * it was priced with (`adults`, `rooms`); an undated link that names none names none.
 */
function partyOf(link: ClickLink, settings: Pick<Settings, 'adults' | 'rooms'>): { adults: number | null; rooms: number | null } {
  const dated = link.checkin !== null;
  return { adults: link.adults ?? (dated ? settings.adults : null), rooms: link.rooms ?? (dated ? settings.rooms : null) };
}

/**
 * Follows one click: the supplier, its booking page, and the click recorded (on disk before the
 * answer). A slot with no page for the stay (a Booking.com stay stored before its content carried
 * its page) is `unavailable`, and no click is counted for a redirect that does not happen.
 */
export async function trackClick(
  sinks: ClickSinks,
  request: ClickRequest,
  settings: Pick<Settings, 'adults' | 'rooms'>,
): Promise<ClickOutcome> {
  const { stay, link, now } = request;
  const supplier = request.supplier ?? chooseSupplier(stay, request.offers);
  const listing = stay.listings.find((l) => l.supplier === supplier);
  if (listing === undefined) throw new Error(`stay ${stay.id} has no listing of ${supplier}`);
  const clickId = newClickId();
  const location = sinks.bookingPages[supplier](listing, {
    aid: link.aid,
    campaign: link.campaign,
    clickId,
    checkin: link.checkin,
    checkout: link.checkout,
    ...partyOf(link, settings),
    today: now.toISOString().slice(0, 10),
  });
  if (location === null) return { unavailable: supplier };
  if (request.record) {
    await sinks.clicks.record({
      id: clickId,
      at: now.toISOString(),
      aid: link.aid,
      campaign: link.campaign,
      stayId: stay.id,
      supplier,
      supplierStayId: listing.supplierStayId,
      device: deviceClass(request.userAgent),
    });
  }
  return { location, clickId, supplier };
}
