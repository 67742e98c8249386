import { Type, type Static } from '@sinclair/typebox';
import { bySupplier, jsonSafeString, nullableNumber, nullableObject } from '../json-schema.ts';
import { clusterSchema, pageLinksSchema, pageMetaSchema } from '../paged-response.ts';

// The v3 200 body. Fastify compiles it into a serializer (fast-json-stringify), which is both
// faster than JSON.stringify and a guard: a field the schema does not name never leaks out.
export const ratingSchema = Type.Object({ value: Type.Number(), hotelStars: nullableNumber, count: Type.Number() });

export const v3SupplierEntrySchema = Type.Object({
  link: jsonSafeString,
  media: Type.Object({ thumbnail: jsonSafeString, logoSquare: jsonSafeString }),
  rating: ratingSchema,
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  price: Type.Optional(nullableObject(Type.Object({ total: Type.Number() }))),
});

export const v3AccommodationSchema = Type.Object({
  id: jsonSafeString,
  url: jsonSafeString,
  suppliers: bySupplier(v3SupplierEntrySchema),
  name: Type.String(),
  type: Type.String(),
  location: Type.Object({
    address: Type.String(),
    coordinates: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
    distanceInMeters: nullableNumber,
  }),
  averageRatings: ratingSchema,
  capacity: Type.Object({
    guests: Type.Number(),
    bedrooms: nullableNumber,
    beds: nullableNumber,
    bathrooms: Type.Number(),
  }),
  /** `cluster=top` only: the H3 cell the stay represents. */
  cellId: Type.Optional(jsonSafeString),
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
