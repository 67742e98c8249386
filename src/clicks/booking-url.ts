// Booking-page URLs from per-supplier templates (configuration): where a tracked deeplink sends
// the traveller, carrying the affiliate id and the click id in the supplier's own parameters.

/** What a template may name, written `{name}`. */
export const BOOKING_PLACEHOLDERS = [
  'supplierUrl',
  'supplierStayId',
  'affiliateId',
  'aid',
  'campaign',
  'clickId',
  'checkin',
  'checkout',
  'adults',
  'rooms',
] as const;

/** What one click knows: the link's parameters (its `aid` and `campaign`, its stay) and the click id. */
export interface BookingFields {
  supplierStayId: string;
  aid: string | null;
  campaign: string | null;
  clickId: string;
  checkin: string | null;
  checkout: string | null;
  adults: number | null;
  rooms: number | null;
}

export type BookingUrl = (fields: BookingFields) => string;

/** What a template is compiled for: the slot's base URL and the operator's affiliate id with that supplier. */
export interface BookingSlot {
  supplierUrl: string;
  affiliateId: string;
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * Compiles a template such as
 * `{supplierUrl}/hotels/{supplierStayId}?affiliate={affiliateId}&click={clickId}&checkin={checkin}`.
 * `{supplierUrl}` is the slot's configured base URL, put in as is; `{affiliateId}` the operator's
 * affiliate id with the supplier (the slot's STAYGATE_SUPPLIER_<X>_AFFILIATE_ID), `{aid}` and
 * `{campaign}` the partner's, from the link; every value but `{supplierUrl}` is percent-encoded,
 * and a query parameter whose placeholders are all empty (no aid, no dates) is left out.
 * Placeholders may only stand in the path and the query, never in the scheme or host, so a
 * request can never send a traveller to another site. Throws on an invalid template.
 */
export function compileBookingTemplate(template: string, slot: BookingSlot): BookingUrl {
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(BOOKING_PLACEHOLDERS as readonly string[]).includes(name))
      throw new Error(`booking URL template "${template}": unknown placeholder {${name}}`);
  }
  const text = template.replaceAll('{supplierUrl}', slot.supplierUrl.replace(/\/+$/, ''));
  const origin = /^https?:\/\/[^/?#{}]+/i.exec(text)?.[0];
  if (origin === undefined)
    throw new Error(`booking URL template "${template}": must start with http(s)://host, with no placeholder in the host`);
  try {
    new URL(origin);
  } catch {
    throw new Error(`booking URL template "${template}": "${origin}" is not a valid origin`);
  }
  const hash = text.indexOf('#');
  if (hash >= 0) throw new Error(`booking URL template "${template}": a fragment is not supported`);
  const q = text.indexOf('?');
  const path = text.slice(origin.length, q < 0 ? undefined : q);
  const query =
    q < 0
      ? []
      : text
          .slice(q + 1)
          .split('&')
          .filter((p) => p !== '')
          .map((pair) => {
            const eq = pair.indexOf('=');
            return eq < 0 ? { name: pair, value: null } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
          });

  return (fields) => {
    const values: Record<string, string> = {
      supplierStayId: fields.supplierStayId,
      affiliateId: slot.affiliateId,
      aid: fields.aid ?? '',
      campaign: fields.campaign ?? '',
      clickId: fields.clickId,
      checkin: fields.checkin ?? '',
      checkout: fields.checkout ?? '',
      adults: fields.adults === null ? '' : String(fields.adults),
      rooms: fields.rooms === null ? '' : String(fields.rooms),
    };
    const fill = (part: string) => part.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(values[name]));
    const pairs: string[] = [];
    for (const { name, value } of query) {
      if (value === null) {
        pairs.push(name); // a bare flag stays bare
        continue;
      }
      const filled = fill(value);
      if (filled === '' && value !== '') continue; // nothing but empty placeholders: leave it out
      pairs.push(`${name}=${filled}`);
    }
    return `${origin}${fill(path)}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
  };
}
