import { Type, type Static } from '@sinclair/typebox';

// The v2 200 body: rating, policies and media at the accommodation level; supplier entries carry
// only link, media.logoSquare and price. Fastify serialises with it.
const nullableNumber = Type.Union([Type.Number(), Type.Null()]);
const href = Type.Object({ href: Type.String() });
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

export const v2ClusterSchema = Type.Object({
  id: Type.String(),
  type: Type.Literal('Cluster'),
  location: Type.Object({ coordinates: latLng, bounds: Type.Object({ ne: latLng, sw: latLng }) }),
  count: Type.Number(),
  _links: Type.Object({ expand: href }),
});

export const v2ResponseSchema = Type.Object({
  meta: Type.Object({
    pageSize: Type.Number(),
    count: Type.Number(),
    page: Type.Number(),
    hasMore: Type.Boolean(),
    total: Type.Number(),
    unresolved: Type.Array(Type.String()),
    clustering: Type.Optional(Type.Object({ strategy: Type.String(), precision: Type.Number(), mode: Type.String() })),
    currency: Type.String(),
    checkin: Type.Optional(Type.String()),
    checkout: Type.Optional(Type.String()),
    nights: Type.Optional(Type.Number()),
  }),
  _links: Type.Object({ self: href, first: href, prev: Type.Optional(href), next: Type.Optional(href) }),
  results: Type.Array(v2AccommodationSchema),
  clusters: Type.Optional(Type.Array(v2ClusterSchema)),
});

export type V2Response = Static<typeof v2ResponseSchema>;
export type V2Accommodation = Static<typeof v2AccommodationSchema>;
export type V2SupplierEntry = Static<typeof v2SupplierEntrySchema>;
export type V2Cluster = Static<typeof v2ClusterSchema>;
