// The offline gazetteer: memory of its lookup tables (heap after warm() minus before, with the
// package data loaded by the same call) and the median time of one address lookup over a mix of
// scripts and shapes. Run with --expose-gc (bench/run.ts does).
import { createGazetteerGeocoder } from '../src/geo/gazetteer-geocoder.ts';

const ADDRESSES = [
  '東京',
  'Москва',
  'القاهرة',
  'München',
  'Zürich',
  'Paris',
  'London, Ontario',
  '12 Rue de Rivoli, Paris, France',
  'Brooklyn, New York',
  'Αθήνα',
  '서울',
  'Springfield',
  'Times Square, New York',
  'Nowhere Special, Atlantis',
];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

gc();
const before = process.memoryUsage();
const started = performance.now();
const geocoder = createGazetteerGeocoder();
geocoder.warm();
const buildMs = performance.now() - started;
gc();
const after = process.memoryUsage();
console.log(
  `build: ${Math.round(buildMs)} ms; heap +${Math.round((after.heapUsed - before.heapUsed) / 1e6)} MB, RSS +${Math.round((after.rss - before.rss) / 1e6)} MB (package data and lookup tables)`,
);

for (let i = 0; i < 2_000; i++) await geocoder.geocode(ADDRESSES[i % ADDRESSES.length]); // warm-up
const rounds: number[] = [];
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  const n = 20_000;
  for (let i = 0; i < n; i++) await geocoder.geocode(ADDRESSES[i % ADDRESSES.length]);
  rounds.push(((performance.now() - t0) / n) * 1_000);
}
rounds.sort((a, b) => a - b);
console.log(`lookup: median of 5 rounds ${rounds[2].toFixed(1)} us per address (${ADDRESSES.length} addresses in turn)`);
