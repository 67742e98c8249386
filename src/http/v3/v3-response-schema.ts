import { Type } from 'typebox';
import { bySupplier, jsonSafeString, nullableNumber, nullableObject } from '../json-schema.ts';
import { NULL_PRICE_MEANING } from '../search/null-price.ts';
import { ratingSchema } from '../search/rating-schema.ts';
import { clusterSchema, pageLinksSchema, pageMetaSchema } from '../search/paged-response.ts';

// The v3 200 body. render-v3.ts writes it as text (stays' own parts written once and kept);
// render-v3.test.ts holds every body to this schema, closed to other fields, in its key order.

const v3SupplierEntrySchema = Type.Object({
  link: jsonSafeString,
  media: Type.Object({ thumbnail: jsonSafeString, logoSquare: jsonSafeString }),
  rating: ratingSchema,
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  price: Type.Optional(
    nullableObject(
      Type.Object(
        { total: Type.Number({ description: 'The whole stay, in `meta.currency`.' }) },
        { description: `Dated searches only: this supplier's price for the stay. ${NULL_PRICE_MEANING}` },
      ),
    ),
  ),
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
    distanceInMeters: Type.Number(),
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
