import { Type, type Static } from '@sinclair/typebox';
import { clusterSchema, pageLinksSchema, pageMetaSchema } from '../paged-response.ts';

// The v2 200 body: rating, policies and media at the accommodation level; supplier entries carry
// only link, media.logoSquare and price. Fastify serialises with it.
const nullableNumber = Type.Union([Type.Number(), Type.Null()]);
const latLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });

export const v2SupplierEntrySchema = Type.Object({
  link: Type.String(),
  media: Type.Object({ logoSquare: Type.String() }),
  price: Type.Optional(Type.Union([Type.Object({ total: Type.Number() }), Type.Null()])),
});

export const v2AccommodationSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  suppliers: Type.Record(Type.String(), v2SupplierEntrySchema),
  name: Type.String(),
  type: Type.String(),
  location: Type.Object({ address: Type.String(), coordinates: latLng, distanceInMeters: nullableNumber }),
  rating: Type.Object({ value: Type.Number(), hotelStars: nullableNumber, count: Type.Number() }),
  policies: Type.Object({ instantBook: Type.Boolean(), freeCancellation: Type.Boolean() }),
  media: Type.Object({ thumbnail: Type.String(), logoSquare: Type.String() }),
  capacity: Type.Object({ guests: Type.Number(), bedrooms: nullableNumber, beds: nullableNumber, bathrooms: Type.Number() }),
  cellId: Type.Optional(Type.String()),
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
