import { Type } from '@sinclair/typebox';

/** Text without C0/C1 control characters or DEL. */
const NO_CONTROLS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
import { CLUSTER_MODES } from '../search/search-query.ts';

// The v2/v3 (unified) search query as the spec's v3 table gives it. Numbers arrive as strings and are converted;
// rules that need more than a type and a range live in search-params.ts.
const coordinate = (limit: number) =>
  Type.Number({ minimum: -limit, maximum: limit, description: `a number from -${limit} to ${limit}` });

// Every parameter is optional: which ones a request needs is a rule (the location rule), not a type.
export const unifiedQuerySchema = Type.Partial(Type.Object({
  provider: Type.Array(Type.String(), { description: 'supplier identifiers, comma-separated or repeated' }),
  address: Type.String({ maxLength: 300, description: 'a place or address of at most 300 characters' }),
  lat: coordinate(90),
  lng: coordinate(180),
  radius: Type.Integer({ minimum: 1, maximum: 20_000_000, description: 'an integer number of metres above 0', capReason: 'half the Earth\'s circumference: a larger circle covers nothing more' }),
  nelat: coordinate(90),
  nelng: coordinate(180),
  swlat: coordinate(90),
  swlng: coordinate(180),
  hotelids: Type.String({ maxLength: 10_000, description: 'comma-separated ids' }),
  hotelsearch: Type.String({ maxLength: 100, description: 'a hotel name of at most 100 characters' }),
  type: Type.String({ maxLength: 1_000, description: 'comma-separated stay types' }),
  checkin: Type.String(),
  checkout: Type.String(),
  adults: Type.Integer({ minimum: 1, maximum: 30, description: 'an integer from 1 to 30', capReason: 'at most 30 adults: no supplier prices a larger party' }),
  children: Type.Integer({ minimum: 0, maximum: 20, description: 'an integer from 0 to 20', capReason: 'at most 20 children: no supplier prices a larger party' }),
  childrenAges: Type.String({ maxLength: 200 }),
  rooms: Type.Integer({ minimum: 1, maximum: 10, description: 'an integer from 1 to 10', capReason: 'at most 10 rooms: no supplier books more in one reservation' }),
  min: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'a per-night USD amount of at least 0', capReason: 'a per-night USD amount of at most 1,000,000' }),
  max: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'a per-night USD amount of at least 0', capReason: 'a per-night USD amount of at most 1,000,000' }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'an ISO 4217 currency code' }),
  minstarrating: Type.Number({ minimum: 0, maximum: 5, description: 'a number from 0 to 5' }),
  minguestrating: Type.Number({ minimum: 0, maximum: 10, description: 'a number from 0 to 10' }),
  minratingcount: Type.Integer({ minimum: 0, description: 'an integer of at least 0' }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, description: 'an integer from 1 to 100' }),
  // Any whole number: 0 and below read as 1 (the spec clamps), a page past the last is empty.
  page: Type.Integer({ description: 'an integer page number' }),
  lang: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'an ISO 639-1 two-letter language code' }),
  // Stored with every click and shown in reports: no control characters (NUL, CR, LF...).
  aid: Type.String({ maxLength: 128, pattern: NO_CONTROLS, description: 'an affiliate id of at most 128 characters, without control characters' }),
  campaign: Type.String({ maxLength: 128, pattern: NO_CONTROLS, description: 'a campaign label of at most 128 characters, without control characters' }),
  cluster: Type.Union(CLUSTER_MODES.map((m) => Type.Literal(m)), { description: `one of ${CLUSTER_MODES.join(', ')}` }),
  precision: Type.String({ pattern: '^[rR]?([0-9]|1[0-5])$', description: 'an H3 resolution from 0 to 15 (r0 to r15)' }),
  cell: Type.String({ maxLength: 20 }),
  key: Type.String(),
}));
