import { Type } from '@sinclair/typebox';

/** Text without C0/C1 control characters or DEL. */
const NO_CONTROLS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

// The v1 query (deprecated, single supplier). Coordinates carry no range here: out of range is
// v1's own INVALID_COORDINATES, checked in v1-params.ts; so is an unknown provider.
export const v1QuerySchema = Type.Partial(Type.Object({
  provider: Type.String({ maxLength: 50 }),
  address: Type.String({ maxLength: 300, description: 'a place or address of at most 300 characters' }),
  lat: Type.Number({ description: 'a number' }),
  lng: Type.Number({ description: 'a number' }),
  radius: Type.Integer({ minimum: 1, maximum: 20_000_000, description: 'an integer number of metres above 0', capReason: 'half the Earth\'s circumference: a larger circle covers nothing more' }),
  nelat: Type.Number({ description: 'a number' }),
  nelng: Type.Number({ description: 'a number' }),
  swlat: Type.Number({ description: 'a number' }),
  swlng: Type.Number({ description: 'a number' }),
  hotelids: Type.String({ maxLength: 10_000, description: 'comma-separated ids' }),
  type: Type.String({ maxLength: 20 }),
  checkin: Type.String(),
  checkout: Type.String(),
  adults: Type.Integer({ minimum: 1, maximum: 30, description: 'an integer from 1 to 30', capReason: 'at most 30 adults: no supplier prices a larger party' }),
  children: Type.Integer({ minimum: 0, maximum: 20, description: 'an integer from 0 to 20', capReason: 'at most 20 children: no supplier prices a larger party' }),
  rooms: Type.Integer({ minimum: 1, maximum: 10, description: 'an integer from 1 to 10', capReason: 'at most 10 rooms: no supplier books more in one reservation' }),
  min: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'a per-night USD amount of at least 0', capReason: 'a per-night USD amount of at most 1,000,000' }),
  max: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'a per-night USD amount of at least 0', capReason: 'a per-night USD amount of at most 1,000,000' }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'an ISO 4217 currency code' }),
  // Values above 5 (stars) and 10 (guest rating) are accepted and not applied, as v1 always did.
  minstarrating: Type.Number({ minimum: 0, maximum: 1_000, description: 'a number of at least 0' }),
  minguestrating: Type.Number({ minimum: 0, maximum: 1_000, description: 'a number of at least 0' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, description: 'an integer from 1 to 100' }),
  lang: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'an ISO 639-1 two-letter language code' }),
  // Stored with every click and shown in reports: no control characters (NUL, CR, LF...).
  aid: Type.String({ maxLength: 128, pattern: NO_CONTROLS, description: 'an affiliate id of at most 128 characters, without control characters' }),
  campaign: Type.String({ maxLength: 128, pattern: NO_CONTROLS, description: 'a campaign label of at most 128 characters, without control characters' }),
  key: Type.String(),
}));
