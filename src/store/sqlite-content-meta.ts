import type Database from 'better-sqlite3';
import { SUPPLIER_INDEX } from './content-rows.ts';
import type { StayIdEntry } from './store.ts';

const INVENTORY_VERSION_KEY = 'inventory_version';
const INVENTORY_NO_KEY = 'inventory_no';

/**
 * The served version's pointer in the SQLite file: meta's `inventory_no` and its label
 * `inventory_version` (PostgreSQL's content_current), and the stay id map's upsert, prepared once.
 */
export function sqliteContentMeta(db: Database.Database) {
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const upsertId = db.prepare(
    'INSERT INTO stay_ids (supplier, supplier_stay_id, stay_id) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET stay_id = excluded.stay_id',
  );
  return {
    currentNo(): number | null {
      const value = getMeta.get(INVENTORY_NO_KEY)?.value;
      return value === undefined ? null : Number(value);
    },
    /** Moves the pointer and the label together (inside the caller's transaction). */
    setCurrent(no: number, label: string): void {
      setMeta.run(INVENTORY_NO_KEY, String(no));
      setMeta.run(INVENTORY_VERSION_KEY, label);
    },
    /** Records the listings' stay ids (inside the caller's transaction); the last entry of a listing wins. */
    recordIds(entries: readonly StayIdEntry[]): void {
      for (const e of entries) upsertId.run(SUPPLIER_INDEX.get(e.supplier), e.supplierStayId, e.stayId);
    },
  };
}
