// Entity resolution measured on a stored version against the simulator's truth (world-scale.ts):
// the version's listing ids say which listings the gateway made one stay, the simulator's
// GET /world/truth which are one property. Pairwise, as src/inventory/merge-listings.test.ts
// measures the default world in memory: precision, the share of listing pairs put in one stay that
// are one property; recall, the share of pairs of one property put in one stay.
import Database from 'better-sqlite3';
import { SUPPLIER_IDS } from '../src/types.ts';

export interface MergeQuality {
  precision: number;
  recall: number;
  /** Pairs of listings in one stay, and those of one property. */
  mergedPairs: number;
  truePairs: number;
  /** Listings of the version the truth does not name (0 unless the store and the world disagree). */
  unknown: number;
  s: number;
}

/** Keys idx * 2^24 + property: both below 2^24 (16.7M) at any size the benchmark runs. */
const SPAN = 2 ** 24;

export async function mergeQuality(controlUrl: string, sqlitePath: string): Promise<MergeQuality> {
  const started = performance.now();
  // One map per supplier (a Map holds at most 2^24 entries): supplier's stay id -> property.
  const truth: Map<string, number>[] = [];
  const perProperty = new Uint32Array(SPAN);
  for (const supplier of SUPPLIER_IDS) {
    const properties = new Map<string, number>();
    const res = await fetch(`${controlUrl}/world/truth?supplier=${supplier}`);
    if (!res.ok || res.body === null) throw new Error(`GET /world/truth?supplier=${supplier}: ${res.status}`);
    let rest = '';
    for await (const text of res.body.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const tab = line.indexOf('\t');
        const property = Number(line.slice(tab + 1));
        properties.set(line.slice(0, tab), property);
        perProperty[property]++;
      }
    }
    truth.push(properties);
  }
  let truePairs = 0;
  for (const n of perProperty) truePairs += (n * (n - 1)) / 2;

  const db = new Database(sqlitePath, { readonly: true });
  let keys: Float64Array;
  let unknown = 0;
  try {
    const no = Number(db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'inventory_no'").get()!.value);
    const count = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM listing_ids_${no}`).get()!.n;
    keys = new Float64Array(count);
    let k = 0;
    const rows = db.prepare<[], { id: string; supplier: number; idx: number }>(
      `SELECT supplier_stay_id AS id, supplier, idx FROM listing_ids_${no}`,
    );
    for (const row of rows.iterate()) {
      const property = truth[row.supplier]?.get(row.id);
      if (property === undefined) unknown++;
      else keys[k++] = row.idx * SPAN + property;
    }
    keys = keys.subarray(0, k);
  } finally {
    db.close();
  }
  truth.length = 0;
  keys.sort();
  // Runs of one idx are a stay's listings; runs of one key, those of one property within it.
  let mergedPairs = 0;
  let correct = 0;
  for (let i = 0; i < keys.length;) {
    const idx = Math.floor(keys[i] / SPAN);
    let j = i;
    while (j < keys.length && Math.floor(keys[j] / SPAN) === idx) {
      let m = j;
      while (m < keys.length && keys[m] === keys[j]) m++;
      correct += ((m - j) * (m - j - 1)) / 2;
      j = m;
    }
    mergedPairs += ((j - i) * (j - i - 1)) / 2;
    i = j;
  }
  return {
    precision: mergedPairs === 0 ? 1 : correct / mergedPairs,
    recall: truePairs === 0 ? 1 : correct / truePairs,
    mergedPairs,
    truePairs,
    unknown,
    s: (performance.now() - started) / 1000,
  };
}
