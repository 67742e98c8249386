// Tracked deeplinks (docs/decisions.md 7): every `link` and `url` of a search result points here.
// The route reads the link and finds its stay; clicks/track-click.ts chooses the supplier, builds
// its booking page and records the click; the answer is the redirect (or why there is none).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { trackClick, type ClickLink, type ClickSinks } from '../../clicks/track-click.ts';
import { ApiError, Violations } from '../../errors/api-error.ts';
import type { SearchHit } from '../../search/search-result.ts';
import { isSupplierId, type Offers, type Stay, type SupplierId } from '../../types.ts';
import type { RawQuery } from '../query/compile-query.ts';
import { effectiveLinkParams } from '../access/request-auth.ts';
import type { RouteContext, Services } from '../route-context.ts';
import { parseStayDates, TRIP_PARAMS, toSearchQuery } from '../query/search-params.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { unifiedQuery, type UnifiedQuery } from '../query/unified-query-schema.ts';
import { Type, type TSchema } from 'typebox';

/** Where clicks go (clicks/track-click.ts), and the routes' keyless allowance. */
export interface Tracking extends ClickSinks {
  /** Keyless clicks allowed per IP per minute on each of the two routes. */
  keylessPerMinute: number;
}

/** What a deeplink carries: the affiliate parameters, and on dated searches the stay priced. */
const goQuerySchema = (query: UnifiedQuery) =>
  Type.Pick(query.schema, ['aid', 'campaign', 'checkin', 'checkout', 'adults', 'children', 'childrenAges', 'rooms']);
const redirectResponse = Type.Null({
  description: "Found: `Location` is the supplier's booking page, carrying the affiliate id and the click id. A HEAD counts no click.",
});

function goSchema(query: UnifiedQuery, summary: string, description: string, params: TSchema) {
  return {
    tags: ['deeplinks'],
    summary,
    description,
    security: OPTIONAL_KEY,
    params,
    querystring: goQuerySchema(query),
    response: { 302: redirectResponse, ...errorResponses(400, 404, 429, 503) },
  };
}

function notFound(message: string): ApiError {
  return new ApiError('NOT_FOUND', message);
}

/** The stays a `hotelids` entry names, or null when the entry is not one the search accepts. */
async function lookup(services: Services, context: RouteContext, raw: RawQuery): Promise<SearchHit[] | null> {
  const violations = new Violations();
  const params = unifiedQuery(context.settings).parse({ ...raw, pageSize: '100' }, violations);
  const query = toSearchQuery(params, context.now(), violations, context.settings);
  if (violations.list.length > 0) return null;
  return (await services.search(query)).hits;
}

/**
 * The link's own parameters: `aid` (the key's, when a key is presented) and `campaign`, and the
 * stay it was priced for: its dates while they still make a valid stay, and its party (`adults`,
 * `rooms`) while the search would accept it. A malformed or repeated aid or campaign is a 400.
 */
function linkOf(request: FastifyRequest, query: UnifiedQuery, now: Date): ClickLink {
  const raw = request.query as RawQuery;
  const violations = new Violations();
  // A repeated parameter is refused as on a search: which of the two did the link mean?
  const params = query.parse({ aid: raw.aid, campaign: raw.campaign, checkin: raw.checkin, checkout: raw.checkout }, violations);
  violations.throwIfAny();
  // The booking page gets the link's dates only while they still make a valid stay.
  const { checkin, checkout } = params;
  const dateViolations = new Violations();
  const parsed = checkin !== undefined && checkout !== undefined ? parseStayDates(checkin, checkout, now, dateViolations) : null;
  const dates = dateViolations.list.length === 0 ? parsed : null;
  // A party the search would refuse is ignored as stale dates are: the link still leads to the stay.
  const partyViolations = new Violations();
  const party = query.parse({ adults: raw.adults, rooms: raw.rooms }, partyViolations);
  const valid = partyViolations.list.length === 0;
  return {
    ...effectiveLinkParams(request, { aid: params.aid ?? null, campaign: params.campaign ?? null }),
    checkin: dates?.checkin ?? null,
    checkout: dates?.checkout ?? null,
    adults: (valid ? party.adults : undefined) ?? null,
    rooms: (valid ? party.rooms : undefined) ?? null,
  };
}

export function registerGoRoutes(app: FastifyInstance, context: RouteContext, tracking: Tracking): void {
  const config = { rateLimit: { keyless: tracking.keylessPerMinute } };
  const query = unifiedQuery(context.settings);

  /** The click through clicks/track-click.ts: a 302 to the booking page, or a 503 when the slot has none for the stay. */
  async function redirect(request: FastifyRequest, reply: FastifyReply, stay: Stay, supplier: SupplierId | null, offers: Offers | null) {
    const now = context.now();
    const click = { stay, supplier, offers, link: linkOf(request, query, now), userAgent: request.headers['user-agent'], now };
    // A HEAD checks a link, it does not follow it: answered alike, but not counted as a click.
    const outcome = await trackClick(tracking, { ...click, record: request.method !== 'HEAD' }, context.settings);
    if ('unavailable' in outcome)
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `${outcome.unavailable} has no booking page for this stay yet; try again after the next content refresh`,
        { provider: outcome.unavailable },
      );
    // Every click must reach us: nothing may cache the redirect.
    return reply.code(302).headers({ Location: outcome.location, 'Cache-Control': 'no-store' }).send();
  }

  app.get(
    '/go/:supplier/:supplierStayId',
    {
      config,
      schema: goSchema(
        query,
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
      linkOf(request, query, context.now()); // a malformed aid or campaign is a 400 before anything is looked up
      const { supplier, supplierStayId } = request.params as { supplier: string; supplierStayId: string };
      if (!isSupplierId(supplier)) throw notFound(`Unknown supplier "${supplier}"`);
      const hits = supplierStayId.includes(',') ? null : await lookup(services, context, { hotelids: `${supplier}:${supplierStayId}` });
      const stay = hits?.find((h) => h.stay.listings.some((l) => l.supplier === supplier && l.supplierStayId === supplierStayId))?.stay;
      if (stay === undefined) throw notFound(`${supplier} sells no stay with id "${supplierStayId}"`);
      return redirect(request, reply, stay, supplier, null);
    },
  );

  app.get(
    '/go/:id',
    {
      config,
      schema: goSchema(
        query,
        'Book a stay',
        "Records a click and redirects to the best supplier: with valid dates on the link, the lowest price; otherwise the stay's first supplier (a result's `url`).",
        Type.Object({
          id: Type.String({ description: "The stay's service id.", examples: ['s_5f3a9c'] }),
        }),
      ),
    },
    async (request, reply) => {
      const services = context.services();
      linkOf(request, query, context.now());
      const { id } = request.params as { id: string };
      const raw = request.query as RawQuery;
      const bad = id.includes(',') || id.includes(':');
      // With the link's dates (and party), the best-priced supplier. Dates that no longer make a
      // valid stay (the link is older than its check-in) are ignored rather than refused.
      let hit: SearchHit | undefined;
      if (!bad && raw.checkin !== undefined && raw.checkout !== undefined) {
        const trip: RawQuery = {};
        for (const name of TRIP_PARAMS) trip[name] = raw[name];
        hit = (await lookup(services, context, { ...trip, hotelids: id }))?.find((h) => h.stay.id === id);
      }
      // Without dates, or sold out everywhere for them: the stay's first supplier.
      hit ??= bad ? undefined : (await lookup(services, context, { hotelids: id }))?.find((h) => h.stay.id === id);
      if (hit === undefined) throw notFound(`No stay with id "${id}"`);
      return redirect(request, reply, hit.stay, null, hit.offers);
    },
  );
}
