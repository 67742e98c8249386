// The content rows as both engines keep them (migrations/*/0002, and each version's tables:
// sqlite-content-tables.ts, pg-content-tables.ts): one reading and writing of each.
import { SUPPLIER_IDS, type Stay } from '../types.ts';
import type { RankedStay } from './store.ts';

/** A supplier in a row: its index in SUPPLIER_IDS (a small integer column). */
export const SUPPLIER_INDEX = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

/**
 * A stay's `doc` column: the whole Stay as JSON with every listing as ingested, so a field a listing
 * gains is kept with no schema change. Without its rank: that is the index chunk's.
 */
export function stayDoc(ranked: RankedStay): string {
  const { rank: _rank, ...stay } = ranked;
  return JSON.stringify(stay);
}

export function stayFromDoc(doc: string): Stay {
  return JSON.parse(doc) as Stay;
}

/** A `stay_ids` row. */
export interface StayIdRow {
  supplier: number;
  supplier_stay_id: string;
  stay_id: string;
}

/** The key of Store.stayIds(): `${supplier}:${supplierStayId}`. */
export function stayIdKey(row: StayIdRow): string {
  return `${SUPPLIER_IDS[row.supplier]}:${row.supplier_stay_id}`;
}
