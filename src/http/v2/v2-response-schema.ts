import { Type, type Static } from 'typebox';
import { bySupplier, jsonSafeString, nullableNumber, nullableObject } from '../json-schema.ts';
import { NULL_PRICE_MEANING } from '../search/null-price.ts';
import { ratingSchema } from '../search/rating-schema.ts';
import { clusterSchema, pageLinksSchema, pageMetaSchema } from '../search/paged-response.ts';

// The v2 200 body: rating, policies and media at the accommodation level; supplier entries carry
// only link, media.logoSquare and price. Fastify serialises with it.
const latLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });

export const v2SupplierEntrySchema = Type.Object({
  link: jsonSafeString,
  media: Type.Object({ logoSquare: jsonSafeString }),
  price: Type.Optional(
    nullableObject(
      Type.Object(
        { total: Type.Number({ description: 'The whole stay, in `meta.currency`.' }) },
        { description: `Dated searches only: this supplier's price for the stay. ${NULL_PRICE_MEANING}` },
      ),
    ),
  ),
});

export const v2AccommodationSchema = Type.Object({
  id: jsonSafeString,
  url: jsonSafeString,
  suppliers: bySupplier(v2SupplierEntrySchema),
  name: Type.String(),
  type: Type.String(),
  location: Type.Object({ address: Type.String(), coordinates: latLng, distanceInMeters: nullableNumber }),
  /** The stay's review-weighted rating over its suppliers (v3's `averageRatings`). */
  rating: ratingSchema,
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  media: Type.Object({ thumbnail: jsonSafeString, logoSquare: jsonSafeString }),
  capacity: Type.Object({ guests: Type.Number(), bedrooms: nullableNumber, beds: nullableNumber, bathrooms: Type.Number() }),
  cellId: Type.Optional(jsonSafeString),
});

export const v2ResponseSchema = Type.Object({
  meta: pageMetaSchema,
  _links: pageLinksSchema,
  results: Type.Array(v2AccommodationSchema),
  clusters: Type.Optional(Type.Array(clusterSchema)),
});

export type V2Response = Static<typeof v2ResponseSchema>;
export type V2Accommodation = Static<typeof v2AccommodationSchema>;
export type V2SupplierEntry = Static<typeof v2SupplierEntrySchema>;
