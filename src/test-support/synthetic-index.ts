// Test support: a StayIndex over synthetic points, for the clustering unit tests (no store needed).
import { latLngToCell } from 'h3-js';
import { buildStayIndex, type StayIndex } from '../inventory/stay-index.ts';
import { indexChunksOfRows } from '../store/index-chunk.ts';
import type { IndexRow } from '../store/store.ts';
import { STAY_TYPES, SUPPLIER_IDS } from '../types.ts';

/**
 * Points dense around a few centres (cities) and sparse elsewhere, Fiji's antimeridian included,
 * deterministic. With `cellOrder` the idx follow the res-15 cell as ingestion numbers them;
 * without, they are in generation order (the pyramid must then build its own permutation).
 */
export function syntheticPoints(n: number, seed = 1): { lat: number; lng: number }[] {
  let s = seed;
  const rand = () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  const centres = [
    [48.8566, 2.3522, 0.08],
    [51.5072, -0.1276, 0.1],
    [41.3874, 2.1686, 0.05],
    [-17.75, 179.95, 0.3],
    [52.52, 13.405, 0.6],
    [40.4, -3.7, 2],
  ];
  const out: { lat: number; lng: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (rand() < 0.15) {
      out.push({ lat: -60 + rand() * 130, lng: -180 + rand() * 360 });
      continue;
    }
    const [lat, lng, spread] = centres[Math.floor(rand() * centres.length)];
    // Sum of uniforms: a bell around the centre.
    const dy = (rand() + rand() + rand() - 1.5) * spread;
    const dx = (rand() + rand() + rand() - 1.5) * spread * 1.5;
    let x = lng + dx;
    if (x > 180) x -= 360;
    if (x < -180) x += 360;
    out.push({ lat: Math.round((lat + dy) * 1e6) / 1e6, lng: Math.round(x * 1e6) / 1e6 });
  }
  return out;
}

export async function syntheticIndex(
  points: readonly { lat: number; lng: number }[],
  options: { cellOrder: boolean; seed?: number; varied?: boolean },
): Promise<StayIndex> {
  let s = options.seed ?? 9;
  const rand = () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  let rows = points.map((p) => ({ ...p, h3: latLngToCell(p.lat, p.lng, 15), score: rand() }));
  if (options.cellOrder) rows = rows.sort((a, b) => (a.h3 < b.h3 ? -1 : a.h3 > b.h3 ? 1 : 0));
  const byScore = rows.map((_, i) => i).sort((a, b) => rows[b].score - rows[a].score);
  const rank = new Array<number>(rows.length);
  byScore.forEach((i, r) => {
    rank[i] = r;
  });
  const indexRows: IndexRow[] = rows.map((r, idx) => {
    // Varied: attributes of every kind from a hash of idx (the ranks' stream is left as it is).
    const attributes = options.varied
      ? variedAttributes(idx)
      : { type: 'hotel' as const, suppliers: ['supplier_a' as const], stars: null, rating: 8 };
    return {
      idx,
      rank: rank[idx],
      lat: r.lat,
      lng: r.lng,
      h3: r.h3,
      ...attributes,
      reviewCount: 1,
      // A stay's suppliers are those of its listings, as ingestion makes them (store/index-chunk.ts).
      listingRatings: attributes.suppliers.map((supplier) => ({ supplier, value: 8, hotelStars: null })),
      searchName: `stay ${idx}`,
    };
  });
  return buildStayIndex(indexChunksOfRows([indexRows]));
}

/** A stay's type, suppliers, star class and guest rating (or none) from a hash of its idx. */
function variedAttributes(idx: number): Pick<IndexRow, 'type' | 'suppliers' | 'stars' | 'rating'> {
  const h = Math.imul(idx + 1, 2_654_435_761) >>> 0;
  const suppliers = SUPPLIER_IDS.filter((_, i) => ((h >>> (4 + i)) & 1) === 1);
  return {
    type: STAY_TYPES[(h >>> 12) % 6],
    suppliers: suppliers.length > 0 ? suppliers : ['supplier_c'],
    stars: (h >>> 16) % 7 === 0 ? null : ((h >>> 19) % 11) / 2,
    rating: (h >>> 23) % 9 === 0 ? null : (10 + ((h >>> 8) % 91)) / 10,
  };
}
