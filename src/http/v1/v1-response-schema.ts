import { Type, type Static } from 'typebox';
import { ratingSchema } from '../search/rating-schema.ts';

// The v1 200 body: every field required, one supplier per result.
const latLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });

export const v1AccommodationSchema = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  name: Type.String(),
  type: Type.String(),
  location: Type.Object({
    address: Type.String(),
    coordinates: Type.Union([latLng, Type.Null()]),
    distanceInMeters: Type.Number(),
  }),
  rating: ratingSchema,
  price: Type.Object({ total: Type.Number() }),
  capacity: Type.Object({
    guests: Type.Number(),
    bedrooms: Type.Number(),
    bathrooms: Type.Number(),
    beds: Type.Union([Type.Number(), Type.Null()]),
  }),
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  media: Type.Object({ thumbnail: Type.String(), logoSquare: Type.String() }),
  links: Type.Record(Type.String(), Type.String()),
});

export const v1ResponseSchema = Type.Object({
  meta: Type.Object({
    limit: Type.Number(),
    count: Type.Number(),
    currency: Type.String(),
    checkin: Type.Union([Type.String(), Type.Null()]),
    checkout: Type.Union([Type.String(), Type.Null()]),
    nights: Type.Union([Type.Number(), Type.Null()]),
    /** The language of the content: `en`, whatever `lang` asked. */
    lang: Type.String(),
    /** Parameters the request gave that this answer does not apply (unknown ones), and why; absent when none. */
    ignored: Type.Optional(Type.Array(Type.Object({ param: Type.String(), reason: Type.String() }))),
  }),
  _links: Type.Object({ self: Type.Object({ href: Type.String() }) }),
  results: Type.Array(v1AccommodationSchema),
});

export type V1Response = Static<typeof v1ResponseSchema>;
export type V1Accommodation = Static<typeof v1AccommodationSchema>;
