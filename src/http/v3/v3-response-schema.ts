import { Type, type Static } from '@sinclair/typebox';
import { clusterSchema, pageLinksSchema, pageMetaSchema } from '../paged-response.ts';

// The v3 200 body. Fastify compiles it into a serializer (fast-json-stringify), which is both
// faster than JSON.stringify and a guard: a field the schema does not name never leaks out.
const nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const ratingSchema = Type.Object({ value: Type.Number(), hotelStars: nullable(Type.Number()), count: Type.Number() });

export const v3SupplierEntrySchema = Type.Object({
  link: Type.String(),
  media: Type.Object({ thumbnail: Type.String(), logoSquare: Type.String() }),
  rating: ratingSchema,
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  price: Type.Optional(Type.Union([Type.Object({ total: Type.Number() }), Type.Null()])),
});

export const v3AccommodationSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  suppliers: Type.Record(Type.String(), v3SupplierEntrySchema),
  name: Type.String(),
  type: Type.String(),
  location: Type.Object({
    address: Type.String(),
    coordinates: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
    distanceInMeters: nullable(Type.Number()),
  }),
  averageRatings: ratingSchema,
  capacity: Type.Object({
    guests: Type.Number(),
    bedrooms: nullable(Type.Number()),
    beds: nullable(Type.Number()),
    bathrooms: Type.Number(),
  }),
  /** `cluster=top` only: the H3 cell the stay represents. */
  cellId: Type.Optional(Type.String()),
});


/** A dense H3 cell of `cluster=auto`/`true`; `_links.expand` lists exactly its stays. */

export const v3ResponseSchema = Type.Object({
  meta: pageMetaSchema,
  _links: pageLinksSchema,
  results: Type.Array(v3AccommodationSchema),
  /** `cluster=auto`/`true` only (when clustering applied), disjoint from `results`. */
  clusters: Type.Optional(Type.Array(clusterSchema)),
});

export type V3Response = Static<typeof v3ResponseSchema>;
export type V3Accommodation = Static<typeof v3AccommodationSchema>;
export type V3SupplierEntry = Static<typeof v3SupplierEntrySchema>;
