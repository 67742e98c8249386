// Stays of a synthetic inventory, for store tests of size: a grid near Philadelphia, one to three
// listings each (suppliers in turn), every listing's id 100000 + idx, rank the reverse of idx.
import { latLngToCell } from 'h3-js';
import type { RankedStay } from '../store/store.ts';
import { SUPPLIER_IDS, type Listing } from '../types.ts';

export function syntheticStays(n: number): RankedStay[] {
  const stays: RankedStay[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const lat = 40 + (i % 1000) / 1000;
    const lng = -75 + Math.floor(i / 1000) / 1000;
    const listings: Listing[] = [];
    for (let s = 0; s < 1 + (i % 3); s++) {
      listings.push({
        supplier: SUPPLIER_IDS[(i + s) % 4],
        supplierStayId: String(100_000 + i),
        name: `Hotel Number ${i}`,
        typeLabel: 'Hotel',
        type: 'hotel',
        address: `${i} Main Street, Springfield, US`,
        lat,
        lng,
        rating: { value: 7 + (i % 30) / 10, hotelStars: i % 6, count: i % 500 },
        capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
        policies: { instantBook: true, freeCancellation: false },
        media: { thumbnail: `https://img/${i}.jpg`, logoSquare: 'https://img/logo.png' },
      });
    }
    stays[i] = {
      idx: i,
      rank: n - 1 - i,
      id: `st${i.toString(32).padStart(12, '0')}`,
      name: `Hotel Number ${i}`,
      type: 'hotel',
      typeLabel: 'Hotel',
      address: listings[0].address,
      lat,
      lng,
      h3: latLngToCell(lat, lng, 15),
      capacity: listings[0].capacity,
      averageRating: listings[0].rating,
      listings,
    };
  }
  return stays;
}
