// Tracked deeplinks (docs/decisions.md 7): every `link` and `url` of a search result points here.
// A click is recorded, then the traveller is redirected to the supplier's booking page (the slot's
// template, or the stay's own page where the API gives one: clicks/booking-page.ts), carrying the
// affiliate id and the click id, and the link's dates and party.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BookingPage } from '../../clicks/booking-page.ts';
import { chooseSupplier } from '../../clicks/choose-supplier.ts';
import type { ClickStore } from '../../clicks/click-store.ts';
import { deviceClass } from '../../clicks/device-class.ts';
import { defaults } from '../../defaults.ts';
import { ApiError, Violations } from '../../errors/api-error.ts';
import type { SearchHit } from '../../search/search-result.ts';
import { isSupplierId, type Stay, type SupplierId } from '../../types.ts';
import { compileQuery, type RawQuery } from '../query/compile-query.ts';
import { effectiveLinkParams } from '../access/request-auth.ts';
import type { RouteContext, Services } from '../route-context.ts';
import { parseStayDates, TRIP_PARAMS, toSearchQuery } from '../query/search-params.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { unifiedQuerySchema } from '../query/unified-query-schema.ts';
import { Type, type TSchema } from 'typebox';

export interface Tracking {
  clicks: ClickStore;
  /** Each slot's booking page for a listing (clicks/booking-page.ts). */
  bookingPages: Record<SupplierId, BookingPage>;
  /** Keyless clicks allowed per IP per minute on each of the two routes. */
  keylessPerMinute: number;
}

const parseQuery = compileQuery(unifiedQuerySchema);

/** What a deeplink carries: the affiliate parameters, and on dated searches the stay priced. */
const goQuerySchema = Type.Pick(unifiedQuerySchema, [
  'aid',
  'campaign',
  'checkin',
  'checkout',
  'adults',
  'children',
  'childrenAges',
  'rooms',
]);
const redirectResponse = Type.Null({
  description: "Found: `Location` is the supplier's booking page, carrying the affiliate id and the click id. A HEAD counts no click.",
});

function goSchema(summary: string, description: string, params: TSchema) {
  return {
    tags: ['deeplinks'],
    summary,
    description,
    security: OPTIONAL_KEY,
    params,
    querystring: goQuerySchema,
    response: { 302: redirectResponse, ...errorResponses(400, 404, 429, 503) },
  };
}

/** 128 random bits, URL-safe: unguessable, so a click id in a report cannot be forged for another click. */
export function newClickId(): string {
  return randomBytes(16).toString('base64url');
}

function notFound(message: string): ApiError {
  return new ApiError('NOT_FOUND', message);
}

/** The stays a `hotelids` entry names, or null when the entry is not one the search accepts. */
async function lookup(services: Services, context: RouteContext, raw: RawQuery): Promise<SearchHit[] | null> {
  const violations = new Violations();
  const query = toSearchQuery(parseQuery({ ...raw, pageSize: '100' }, violations), context.now(), violations);
  if (violations.list.length > 0) return null;
  return (await services.search(query)).hits;
}

export function registerGoRoutes(app: FastifyInstance, context: RouteContext, tracking: Tracking): void {
  const config = { rateLimit: { keyless: tracking.keylessPerMinute } };

  /**
   * The link's own parameters: `aid` (the key's, when a key is presented) and `campaign`, and the
   * stay it was priced for: its dates while they still make a valid stay, and its party (`adults`,
   * `rooms`; on a dated link that names none, the search's defaults it was priced with).
   */
  function linkOf(request: FastifyRequest) {
    const query = request.query as RawQuery;
    const violations = new Violations();
    // A repeated parameter is refused as on a search: which of the two did the link mean?
    const params = parseQuery({ aid: query.aid, campaign: query.campaign, checkin: query.checkin, checkout: query.checkout }, violations);
    violations.throwIfAny();
    // The booking page gets the link's dates only while they still make a valid stay.
    const { checkin, checkout } = params;
    const dateViolations = new Violations();
    const parsed =
      checkin !== undefined && checkout !== undefined ? parseStayDates(checkin, checkout, context.now(), dateViolations) : null;
    const dates = dateViolations.list.length === 0 ? parsed : null;
    // A party the search would refuse is ignored as stale dates are: the link still leads to the stay.
    const partyViolations = new Violations();
    const party = parseQuery({ adults: query.adults, rooms: query.rooms }, partyViolations);
    const valid = partyViolations.list.length === 0;
    return {
      ...effectiveLinkParams(request, { aid: params.aid ?? null, campaign: params.campaign ?? null }),
      checkin: dates?.checkin ?? null,
      checkout: dates?.checkout ?? null,
      adults: (valid ? party.adults : undefined) ?? (dates === null ? null : defaults.adults),
      rooms: (valid ? party.rooms : undefined) ?? (dates === null ? null : defaults.rooms),
    };
  }

  async function redirect(request: FastifyRequest, reply: FastifyReply, stay: Stay, supplier: SupplierId) {
    const link = linkOf(request);
    const listing = stay.listings.find((l) => l.supplier === supplier)!;
    const clickId = newClickId();
    const now = context.now();
    const location = tracking.bookingPages[supplier](listing, {
      aid: link.aid,
      campaign: link.campaign,
      clickId,
      checkin: link.checkin,
      checkout: link.checkout,
      adults: link.adults,
      rooms: link.rooms,
      today: now.toISOString().slice(0, 10),
    });
    // No page to send the traveller to (a Booking.com stay stored before its content carried its
    // page): said plainly, and no click is counted for a redirect that did not happen.
    if (location === null)
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `${supplier} has no booking page for this stay yet; try again after the next content refresh`,
        {
          provider: supplier,
        },
      );
    // A HEAD checks a link, it does not follow it: answered alike, but not counted as a click.
    if (request.method !== 'HEAD') {
      await tracking.clicks.record({
        id: clickId,
        at: now.toISOString(),
        aid: link.aid,
        campaign: link.campaign,
        stayId: stay.id,
        supplier,
        supplierStayId: listing.supplierStayId,
        device: deviceClass(request.headers['user-agent']),
      });
    }
    // Every click must reach us: nothing may cache the redirect.
    return reply.code(302).headers({ Location: location, 'Cache-Control': 'no-store' }).send();
  }

  app.get(
    '/go/:supplier/:supplierStayId',
    {
      config,
      schema: goSchema(
        'Book with one supplier',
        "Records a click and redirects to this supplier's booking page for the stay (a result's `suppliers.<supplier>.link`).",
        Type.Object({
          supplier: Type.String({ description: 'A supplier identifier.', examples: ['supplier_a'] }),
          supplierStayId: Type.String({ description: "The stay's id at that supplier.", examples: ['A100234'] }),
        }),
      ),
    },
    async (request, reply) => {
      const services = context.services();
      linkOf(request); // a malformed aid or campaign is a 400 before anything is looked up
      const { supplier, supplierStayId } = request.params as { supplier: string; supplierStayId: string };
      if (!isSupplierId(supplier)) throw notFound(`Unknown supplier "${supplier}"`);
      const hits = supplierStayId.includes(',') ? null : await lookup(services, context, { hotelids: `${supplier}:${supplierStayId}` });
      const stay = hits?.find((h) => h.stay.listings.some((l) => l.supplier === supplier && l.supplierStayId === supplierStayId))?.stay;
      if (stay === undefined) throw notFound(`${supplier} sells no stay with id "${supplierStayId}"`);
      return redirect(request, reply, stay, supplier);
    },
  );

  app.get(
    '/go/:id',
    {
      config,
      schema: goSchema(
        'Book a stay',
        "Records a click and redirects to the best supplier: with valid dates on the link, the lowest price; otherwise the stay's first supplier (a result's `url`).",
        Type.Object({
          id: Type.String({ description: "The stay's service id.", examples: ['s_5f3a9c'] }),
        }),
      ),
    },
    async (request, reply) => {
      const services = context.services();
      linkOf(request);
      const { id } = request.params as { id: string };
      const query = request.query as RawQuery;
      const bad = id.includes(',') || id.includes(':');
      // With the link's dates (and party), the best-priced supplier. Dates that no longer make a
      // valid stay (the link is older than its check-in) are ignored rather than refused.
      let hit: SearchHit | undefined;
      if (!bad && query.checkin !== undefined && query.checkout !== undefined) {
        const trip: RawQuery = {};
        for (const name of TRIP_PARAMS) trip[name] = query[name];
        hit = (await lookup(services, context, { ...trip, hotelids: id }))?.find((h) => h.stay.id === id);
      }
      // Without dates, or sold out everywhere for them: the stay's first supplier.
      hit ??= bad ? undefined : (await lookup(services, context, { hotelids: id }))?.find((h) => h.stay.id === id);
      if (hit === undefined) throw notFound(`No stay with id "${id}"`);
      return redirect(request, reply, hit.stay, chooseSupplier(hit.stay, hit.offers));
    },
  );
}
