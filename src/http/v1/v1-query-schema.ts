import { Type } from 'typebox';

/** Text without C0/C1 control characters or DEL. */
const NO_CONTROLS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

// The v1 query (deprecated, single supplier). Coordinates carry no range here: out of range is
// v1's own INVALID_COORDINATES, checked in v1-params.ts; so is an unknown provider.
export const v1QuerySchema = Type.Partial(
  Type.Object({
    provider: Type.String({
      maxLength: 50,
      description:
        'One supplier per call (required): `supplier_a`, `supplier_b`, `supplier_c` or `supplier_d`; anything else is 400 INVALID_PROVIDER.',
      examples: ['supplier_a'],
    }),
    address: Type.String({
      maxLength: 300,
      expected: 'a place or address of at most 300 characters',
      description: 'A place or address in any script, resolved offline to a city centre. Location rule as v3.',
      examples: ['Paris'],
    }),
    lat: Type.Number({
      expected: 'a number',
      description: 'Latitude of the search centre, -90 to 90 (else 400 INVALID_COORDINATES), with `lng`.',
      examples: [48.8566],
    }),
    lng: Type.Number({ expected: 'a number', description: 'Longitude of the search centre, -180 to 180, with `lat`.', examples: [2.3522] }),
    radius: Type.Integer({
      minimum: 1,
      maximum: 20_000_000,
      expected: 'an integer number of metres above 0',
      capReason: "half the Earth's circumference: a larger circle covers nothing more",
      description: 'Radius in metres, 1 to 20,000,000. Default 10000.',
      examples: [3000],
    }),
    nelat: Type.Number({
      expected: 'a number',
      description: 'North-east latitude of a box; all four box parameters together.',
      examples: [48.9],
    }),
    nelng: Type.Number({ expected: 'a number', description: 'North-east longitude.', examples: [2.42] }),
    swlat: Type.Number({ expected: 'a number', description: 'South-west latitude.', examples: [48.82] }),
    swlng: Type.Number({ expected: 'a number', description: 'South-west longitude.', examples: [2.27] }),
    hotelids: Type.String({
      maxLength: 10_000,
      expected: 'comma-separated ids',
      description: "Comma-separated ids in the provider's own namespace, at most 100.",
      examples: ['A100234'],
    }),
    type: Type.String({ maxLength: 20, description: '`hotel` or `rental`. Default both.', examples: ['hotel'] }),
    checkin: Type.String({
      description:
        'Check-in `YYYY-MM-DD`, today or later, at most 2 years ahead. Default today + 90 days; alone, the start of a 3-night stay.',
      examples: ['2027-03-10'],
    }),
    checkout: Type.String({
      description: 'Check-out `YYYY-MM-DD`, after `checkin`. Default `checkin` + 3 nights.',
      examples: ['2027-03-13'],
    }),
    adults: Type.Integer({
      minimum: 1,
      maximum: 30,
      expected: 'an integer from 1 to 30',
      capReason: 'at most 30 adults: no supplier prices a larger party',
      description: 'Adults, 1 to 30. Default 2.',
      examples: [2],
    }),
    children: Type.Integer({
      minimum: 0,
      maximum: 20,
      expected: 'an integer from 0 to 20',
      capReason: 'at most 20 children: no supplier prices a larger party',
      description: 'Children, 0 to 20. Default 0.',
      examples: [0],
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
      description: 'Minimum per-night price in USD. Default 0.',
      examples: [50],
    }),
    max: Type.Number({
      minimum: 0,
      maximum: 1_000_000,
      expected: 'a per-night USD amount of at least 0',
      capReason: 'a per-night USD amount of at most 1,000,000',
      description: 'Maximum per-night price in USD. Default 1000.',
      examples: [250],
    }),
    currency: Type.String({
      pattern: '^[A-Za-z]{3}$',
      expected: 'an ISO 4217 currency code',
      description: 'ISO 4217 code of the prices. Default USD.',
      examples: ['EUR'],
    }),
    // Values above 5 (stars) and 10 (guest rating) are accepted and not applied, as v1 always did.
    minstarrating: Type.Number({
      minimum: 0,
      maximum: 1_000,
      expected: 'a number of at least 0',
      description: "Minimum stars of the searched supplier's rating; applied only when at most 5.",
      examples: [4],
    }),
    minguestrating: Type.Number({
      minimum: 0,
      maximum: 1_000,
      expected: 'a number of at least 0',
      description: 'Minimum guest rating of the searched supplier; applied only when at most 10.',
      examples: [8],
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      expected: 'an integer from 1 to 100',
      description: 'Maximum results, 1 to 100 (no paging). Default 10.',
      examples: [10],
    }),
    lang: Type.String({
      pattern: '^[A-Za-z]{2}$',
      expected: 'an ISO 639-1 two-letter language code',
      description: 'ISO 639-1 language code; content is served in English. Default en.',
      examples: ['en'],
    }),
    aid: Type.String({
      maxLength: 128,
      pattern: NO_CONTROLS,
      expected: 'an affiliate id of at most 128 characters, without control characters',
      description: "Affiliate id written into links; with an API key, the key's aid wins.",
      examples: ['partner-aid'],
    }),
    campaign: Type.String({
      maxLength: 128,
      pattern: NO_CONTROLS,
      expected: 'a campaign label of at most 128 characters, without control characters',
      description: 'Campaign label written into links.',
      examples: ['summer-newsletter'],
    }),
    key: Type.String({ description: 'API key, for clients that cannot set the `X-API-KEY` header (the header wins).' }),
  }),
);
