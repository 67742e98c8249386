import { Type, type Static } from 'typebox';
import type { Violations } from '../../errors/api-error.ts';
import { CLUSTER_MODES } from '../../search/search-query.ts';
import type { Settings } from '../../types.ts';
import { compileQuery, type RawQuery } from './compile-query.ts';

/** Text without C0/C1 control characters or DEL: aid and campaign are stored with every click and shown in reports. */
const NO_CONTROLS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

// The v2/v3 (unified) search query as the spec's v3 table gives it. Numbers arrive as strings and are converted;
// rules that need more than a type and a range live in search-params.ts.
//
// One source for the parser and the documentation: `expected` is what an error message says a value
// must be; `description` and `examples` are the parameter's entry in the OpenAPI document
// (GET /openapi.json), so the reference cannot drift from what the parser accepts.
const coordinate = (limit: number, description: string, example: number) =>
  Type.Number({ minimum: -limit, maximum: limit, expected: `a number from -${limit} to ${limit}`, description, examples: [example] });

const LOCATION_RULE =
  'Location rule: give `address`, or `lat` with `lng`, or all four box corners, unless `hotelids` is given; otherwise 400 LOCATION_REQUIRED.';

/** The figures the unified query's bounds and documentation name. */
export type UnifiedQuerySettings = Pick<Settings, 'radiusMeters' | 'maxHotelIds' | 'maxPageSize' | 'pageSize'>;

// Every parameter is optional: which ones a request needs is a rule (the location rule), not a type.
// Long because it is one object literal, a parameter a few lines, read as the API's table of them.
export function unifiedQuerySchema(settings: UnifiedQuerySettings) {
  return Type.Partial(
    Type.Object({
      provider: Type.Array(Type.String(), {
        expected: 'supplier identifiers, comma-separated or repeated',
        description:
          'Suppliers to search: `supplier_a`, `supplier_b`, `supplier_c`, `supplier_d`; one value, comma-separated, repeated, or `provider[]=`. OR-combined: every stay is bookable by at least one. Default: all. With `hotelids`, at most one. Unknown value: 400 VALIDATION_ERROR.',
        examples: [['supplier_a', 'supplier_c']],
      }),
      address: Type.String({
        maxLength: 300,
        expected: 'a place or address of at most 300 characters',
        description: `A place or address in any script ("Paris", "12 Rue de Rivoli, Paris, France", "東京"), resolved offline to its city centre and searched within \`radius\`. Unresolvable: 400 VALIDATION_ERROR. ${LOCATION_RULE}`,
        examples: ['Paris'],
      }),
      lat: coordinate(90, `Latitude of the search centre, with \`lng\` and \`radius\`. ${LOCATION_RULE}`, 48.8566),
      lng: coordinate(180, 'Longitude of the search centre, with `lat`.', 2.3522),
      radius: Type.Integer({
        minimum: 1,
        maximum: 20_000_000,
        expected: 'an integer number of metres above 0',
        capReason: "half the Earth's circumference: a larger circle covers nothing more",
        description: `Search radius in metres around \`lat\`/\`lng\` or \`address\`, 1 to 20,000,000. Default ${settings.radiusMeters}.`,
        examples: [3000],
      }),
      nelat: coordinate(90, `North-east corner latitude of a map viewport; all four box parameters together. ${LOCATION_RULE}`, 48.9),
      nelng: coordinate(180, 'North-east corner longitude; west of `swlng` means the box crosses the antimeridian.', 2.42),
      swlat: coordinate(90, 'South-west corner latitude.', 48.82),
      swlng: coordinate(180, 'South-west corner longitude.', 2.27),
      hotelids: Type.String({
        maxLength: 10_000,
        expected: 'comma-separated ids',
        description: `Direct lookup of at most ${settings.maxHotelIds} comma-separated ids, no location needed: a supplier id, \`<supplier>:<id>\`, or a service \`id\` from an earlier answer. Entries that match nothing are listed in \`meta.unresolved\`; an unknown prefix is 400.`,
        examples: ['supplier_a:A100234,supplier_b:77812'],
      }),
      hotelsearch: Type.String({
        maxLength: 100,
        expected: 'a hotel name of at most 100 characters',
        description:
          'Hotels whose name contains these words, ordered by distance. Needs exactly one location (`address`, or `lat`/`lng`); not with `hotelids`, a box or clustering; with `type` only `hotel`.',
        examples: ['hotel'],
      }),
      type: Type.String({
        maxLength: 1_000,
        expected: 'comma-separated stay types',
        description:
          '`hotel`, `rental` (any non-hotel stay) or concrete types (apartment, villa, hostel, ...), comma-separated and OR-combined. Default: all types.',
        examples: ['hotel'],
      }),
      checkin: Type.String({
        description:
          'Check-in date `YYYY-MM-DD`, today (UTC) or later, at most 2 years ahead. With `checkout` the search is dated and priced; alone it is reported in `meta.ignored`. Not a real date: 400 INVALID_DATE_FORMAT.',
        examples: ['2027-03-10'],
      }),
      checkout: Type.String({ description: 'Check-out date `YYYY-MM-DD`, after `checkin`, same bounds.', examples: ['2027-03-13'] }),
      adults: Type.Integer({
        minimum: 1,
        maximum: 30,
        expected: 'an integer from 1 to 30',
        capReason: 'at most 30 adults: no supplier prices a larger party',
        description: 'Adults, 1 to 30. Default 2. Used for prices and booking links.',
        examples: [2],
      }),
      children: Type.Integer({
        minimum: 0,
        maximum: 20,
        expected: 'an integer from 0 to 20',
        capReason: 'at most 20 children: no supplier prices a larger party',
        description: 'Children, 0 to 20. Default 0.',
        examples: [1],
      }),
      childrenAges: Type.String({
        maxLength: 200,
        description: 'Comma-separated ages 0 to 17, one per child (the count must equal `children`).',
        examples: ['4'],
      }),
      rooms: Type.Integer({
        minimum: 1,
        maximum: 10,
        expected: 'an integer from 1 to 10',
        capReason: 'at most 10 rooms: no supplier books more in one reservation',
        description: 'Rooms, 1 to 10. Default 1.',
        examples: [1],
      }),
      min: Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        expected: 'a per-night USD amount of at least 0',
        capReason: 'a per-night USD amount of at most 1,000,000',
        description: 'Minimum per-night price in USD, applied only on dated searches (otherwise reported in `meta.ignored`).',
        examples: [50],
      }),
      max: Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        expected: 'a per-night USD amount of at least 0',
        capReason: 'a per-night USD amount of at most 1,000,000',
        description: 'Maximum per-night price in USD, at least `min`; dated searches only.',
        examples: [250],
      }),
      currency: Type.String({
        pattern: '^[A-Za-z]{3}$',
        expected: 'an ISO 4217 currency code',
        description:
          'ISO 4217 code of the prices, case-insensitive. Default USD; a valid code without a rate falls back to USD (`meta.currency` says).',
        examples: ['EUR'],
      }),
      minstarrating: Type.Number({
        minimum: 0,
        maximum: 5,
        expected: 'a number from 0 to 5',
        description: 'Minimum hotel stars, 0 to 5; 0 = no filter.',
        examples: [4],
      }),
      minguestrating: Type.Number({
        minimum: 0,
        maximum: 10,
        expected: 'a number from 0 to 10',
        description: 'Minimum guest rating, 0 to 10; 0 = no filter.',
        examples: [8],
      }),
      minratingcount: Type.Integer({
        minimum: 0,
        expected: 'an integer of at least 0',
        description: 'Minimum number of reviews; 0 = no filter.',
        examples: [20],
      }),
      pageSize: Type.Integer({
        minimum: 1,
        maximum: settings.maxPageSize,
        expected: `an integer from 1 to ${settings.maxPageSize}`,
        description: `Results per page, 1 to ${settings.maxPageSize}. Default ${settings.pageSize}.`,
        examples: [20],
      }),
      // Any whole number: 0 and below read as 1 (the spec clamps), a page past the last is empty.
      page: Type.Integer({
        expected: 'an integer page number',
        description:
          '1-indexed page; 0 and below read as 1, a page past the last is empty. Default 1. Follow `_links.next` while `meta.hasMore`.',
        examples: [2],
      }),
      lang: Type.String({
        pattern: '^[A-Za-z]{2}$',
        expected: 'an ISO 639-1 two-letter language code',
        description: 'ISO 639-1 language code; content is served in English (`meta.lang`). Default en.',
        examples: ['en'],
      }),
      aid: Type.String({
        maxLength: 128,
        pattern: NO_CONTROLS,
        expected: 'an affiliate id of at most 128 characters, without control characters',
        description: "Affiliate id written into every deeplink; with an API key, the key's own aid wins.",
        examples: ['partner-aid'],
      }),
      campaign: Type.String({
        maxLength: 128,
        pattern: NO_CONTROLS,
        expected: 'a campaign label of at most 128 characters, without control characters',
        description: 'Campaign label written into every deeplink; `-` separates campaign ids in reports.',
        examples: ['summer-newsletter'],
      }),
      cluster: Type.Union(
        CLUSTER_MODES.map((m) => Type.Literal(m)),
        {
          expected: `one of ${CLUSTER_MODES.join(', ')}`,
          description:
            '`false` (flat list, default), `auto` (H3 clusters on dense viewports), `true` (clusters whenever possible, down to r8) or `top` (one best stay per H3 cell, with `cellId`).',
          examples: ['auto'],
        },
      ),
      precision: Type.String({
        pattern: '^[rR]?([0-9]|1[0-5])$',
        expected: 'an H3 resolution from 0 to 15 (r0 to r15)',
        description: 'H3 resolution `r0` to `r15` (or 0 to 15); forces `cluster=top` at that cell size.',
        examples: ['r7'],
      }),
      cell: Type.String({
        maxLength: 20,
        description: "An H3 cell id: only stays inside it (what a cluster's `_links.expand` uses); alone it is a location.",
        examples: ['881fb46625fffff'],
      }),
      key: Type.String({
        description: 'API key, for clients that cannot set the `X-API-KEY` header (the header wins). Never copied into links.',
      }),
    }),
  );
}

/** The unified parameters as the parser returns them (every one optional). */
export type UnifiedParams = Partial<Static<ReturnType<typeof unifiedQuerySchema>>>;

/** The unified query of one set of settings: its schema (for the route documentation) and its compiled parser. */
export interface UnifiedQuery {
  schema: ReturnType<typeof unifiedQuerySchema>;
  parse(raw: RawQuery, violations: Violations): UnifiedParams;
}

const built = new WeakMap<UnifiedQuerySettings, UnifiedQuery>();

/**
 * The unified query of these settings, built once per settings object: v2, v3, the map's search,
 * `/go` and the MCP tools share it (a compile costs ~5 ms, and tests create many apps).
 */
export function unifiedQuery(settings: UnifiedQuerySettings): UnifiedQuery {
  let query = built.get(settings);
  if (query === undefined) {
    const schema = unifiedQuerySchema(settings);
    query = { schema, parse: compileQuery(schema) };
    built.set(settings, query);
  }
  return query;
}
