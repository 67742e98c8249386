// Booking.com's own page for a stay, as its Demand API gives it (the `url` of an accommodation):
// placeholders `!AFFILIATE_ID!`, `!START_DATE!`, `!END_DATE!` (and `!TODAY!`, which the API's
// examples use for dates) stand where the affiliate fills in its values, e.g.
// https://www.booking.com/hotel/nl/toren.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!
// Booking.com reads the dates and party from `checkin`, `checkout`, `group_adults` and `no_rooms`,
// the affiliate from `aid` (or `affiliate_id`), and reports a booking's `label` back in its orders:
// the click id goes there (docs/decisions.md 146).

/** What a click fills in. */
export interface BookingComFields {
  /** The operator's Booking.com affiliate id (the slot's STAYGATE_SUPPLIER_<X>_AFFILIATE_ID). */
  affiliateId: string;
  clickId: string;
  checkin: string | null;
  checkout: string | null;
  adults: number | null;
  rooms: number | null;
  /** The gateway's date today (YYYY-MM-DD), for `!TODAY!`. */
  today: string;
}

const PLACEHOLDER = /!([A-Z_]+)!/g;

/** A query pair's parameter name, decoded (as written when it is not valid percent-encoding). */
function paramName(pair: string): string {
  const name = pair.split('=', 1)[0];
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The stay's Booking.com page for one click, or null when `url` is not an http(s) URL (or names
 * a host by placeholder): then there is no page to send the traveller to. Every placeholder is
 * filled, percent-encoded; a query parameter holding an unknown or empty one (no dates on the
 * link) is left out. The link's dates and party replace whatever the URL says of them, `label`
 * is the click id (replacing any label there), and a URL that names no affiliate gets `aid`.
 * Every other parameter, and the fragment, stays as Booking.com wrote it.
 */
export function bookingComUrl(url: string, fields: BookingComFields): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(parsed.protocol) || /!/.test(parsed.host)) return null;
  const values: Record<string, string> = {
    AFFILIATE_ID: fields.affiliateId,
    START_DATE: fields.checkin ?? '',
    END_DATE: fields.checkout ?? '',
    TODAY: fields.today,
  };
  const fill = (text: string): string | null => {
    let complete = true;
    const filled = text.replace(PLACEHOLDER, (_, name: string) => {
      const value = values[name] ?? '';
      if (value === '') complete = false;
      return encodeURIComponent(value);
    });
    return complete ? filled : null;
  };
  const ours: [string, string | null][] = [
    ['checkin', fields.checkin],
    ['checkout', fields.checkout],
    ['group_adults', fields.adults === null ? null : String(fields.adults)],
    ['no_rooms', fields.rooms === null ? null : String(fields.rooms)],
    ['label', fields.clickId],
  ];
  const replaced = new Set(ours.filter(([, value]) => value !== null).map(([name]) => name));
  const pairs: string[] = [];
  for (const pair of parsed.search.slice(1).split('&')) {
    if (pair === '') continue;
    if (replaced.has(paramName(pair))) continue;
    const filled = fill(pair);
    if (filled !== null) pairs.push(filled);
  }
  for (const [name, value] of ours) if (value !== null) pairs.push(`${name}=${encodeURIComponent(value)}`);
  const names = new Set(pairs.map(paramName));
  if (!names.has('aid') && !names.has('affiliate_id') && fields.affiliateId !== '')
    pairs.push(`aid=${encodeURIComponent(fields.affiliateId)}`);
  const path = parsed.pathname.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(values[name] ?? ''));
  return `${parsed.origin}${path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}${parsed.hash}`;
}
