import { createSqliteStore } from '/work/main/src/store/sqlite-store.ts';
import { latLngToCell } from 'h3-js';
import { SUPPLIER_IDS } from '/work/main/src/types.ts';
const n = 160000;
const stays: any[] = [];
for (let i = 0; i < n; i++) {
  const lat = 40 + (i % 1000) / 1000, lng = -75 + Math.floor(i / 1000) / 1000;
  const listings = [];
  for (let s = 0; s < 1 + (i % 3); s++) listings.push({ supplier: SUPPLIER_IDS[(i + s) % 4], supplierStayId: String(100000 + i), name: `Hotel Number ${i}`, typeLabel: 'Hotel', type: 'hotel', address: `${i} Main Street, Springfield, US`, lat, lng, rating: { value: 7, hotelStars: 3, count: 5 }, capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 }, policies: { instantBook: true, freeCancellation: false }, media: { thumbnail: `https://img/${i}.jpg`, logoSquare: 'https://img/logo.png' } });
  stays.push({ idx: i, rank: i, id: `st${i.toString(32).padStart(12, '0')}`, name: `Hotel Number ${i}`, type: 'hotel', typeLabel: 'Hotel', address: 'x', lat, lng, h3: latLngToCell(lat, lng, 15), capacity: listings[0].capacity, averageRating: listings[0].rating, listings });
}
let t = performance.now();
for (const s of stays) JSON.stringify(s);
console.log('stringify', performance.now() - t);
const store = createSqliteStore({ path: '/tmp/prof.sqlite' });
t = performance.now();
await store.replaceInventory(stays, 'a');
console.log('replace1', performance.now() - t);
t = performance.now();
await store.replaceInventory(stays, 'b');
console.log('replace2', performance.now() - t);
await store.close();
