// A commission transaction as both engines keep it (tables `transactions`, `report_sync` and
// `transaction_imports`: store/migrations/*/0001 and 0005): the one row type, the one mapping each
// way, and the SQL both engines read it with.
import type { DeviceClass, TallyDimension } from '../clicks/click-store.ts';
import type { BookingStatus } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { csvLine } from './transaction-csv.ts';
import { toRecord, versionKey, type DateFilter, type TransactionRow } from './transaction.ts';
import type { SupplierSyncState, TransactionImport, TransactionStats } from './transaction-store.ts';

/**
 * A transaction as a database row (snake_case columns), as both stores read it back: PostgreSQL
 * returns a bigint's `commission_cents` as a string, SQLite as a number.
 */
export interface TransactionColumns {
  supplier: SupplierId;
  booking_id: string;
  click_id: string | null;
  aid: string | null;
  partner_id: string | null;
  campaign: string | null;
  device: DeviceClass;
  booked_at: string;
  start_date: string;
  end_date: string;
  status: BookingStatus;
  commission_cents: number | string;
  quantity: number;
  information: string;
  destination: string;
  user_country: string;
  last_updated: string;
}

/** A row read from either store as a TransactionRow. */
export function fromColumns(row: TransactionColumns): TransactionRow {
  return {
    supplier: row.supplier,
    bookingId: row.booking_id,
    clickId: row.click_id,
    aid: row.aid,
    partnerId: row.partner_id,
    campaign: row.campaign,
    device: row.device,
    bookedAt: row.booked_at,
    startDate: row.start_date,
    endDate: row.end_date,
    status: row.status,
    commissionCents: Number(row.commission_cents),
    quantity: row.quantity,
    information: row.information,
    destination: row.destination,
    userCountry: row.user_country,
    lastUpdated: row.last_updated,
  };
}

/** The columns a TransactionRow is, in the order both stores read them. */
export const ROW_COLUMNS = `supplier, booking_id, click_id, aid, partner_id, campaign, device, booked_at, start_date, end_date, status,
  commission_cents, quantity, information, destination, user_country, last_updated`;

/** A row as written: its columns and the two derived once at write (exports only stream csv_line). */
export interface WrittenColumns extends TransactionColumns {
  version_key: string;
  csv_line: string;
}

/** The columns of a write, in the order both stores bind them. */
export const WRITE_COLUMNS = [
  'supplier',
  'booking_id',
  'click_id',
  'aid',
  'partner_id',
  'campaign',
  'device',
  'booked_at',
  'start_date',
  'end_date',
  'status',
  'commission_cents',
  'quantity',
  'information',
  'destination',
  'user_country',
  'last_updated',
  'version_key',
  'csv_line',
] as const satisfies readonly (keyof WrittenColumns)[];

/** A TransactionRow as written, its version key and CSV line rendered. */
export function toColumns(row: TransactionRow): WrittenColumns {
  return {
    supplier: row.supplier,
    booking_id: row.bookingId,
    click_id: row.clickId,
    aid: row.aid,
    partner_id: row.partnerId,
    campaign: row.campaign,
    device: row.device,
    booked_at: row.bookedAt,
    start_date: row.startDate,
    end_date: row.endDate,
    status: row.status,
    commission_cents: row.commissionCents,
    quantity: row.quantity,
    information: row.information,
    destination: row.destination,
    user_country: row.userCountry,
    last_updated: row.lastUpdated,
    version_key: versionKey(row),
    csv_line: csvLine(toRecord(row)),
  };
}

/**
 * The upsert's conflict clause, the same SQL on both engines: a booking keeps its newest
 * `last_updated` (ties: the greater version_key), so reports replayed in any order end in the same
 * rows; the partner, once known, is kept.
 */
export const KEEP_NEWEST = `ON CONFLICT (supplier, booking_id) DO UPDATE SET
    click_id = excluded.click_id, aid = excluded.aid, partner_id = coalesce(excluded.partner_id, transactions.partner_id),
    campaign = excluded.campaign, device = excluded.device, booked_at = excluded.booked_at, start_date = excluded.start_date,
    end_date = excluded.end_date, status = excluded.status, commission_cents = excluded.commission_cents,
    quantity = excluded.quantity, information = excluded.information, destination = excluded.destination,
    user_country = excluded.user_country, last_updated = excluded.last_updated, version_key = excluded.version_key,
    csv_line = excluded.csv_line
  WHERE excluded.last_updated > transactions.last_updated
     OR (excluded.last_updated = transactions.last_updated AND excluded.version_key > transactions.version_key)`;

/** The column of each dateFilter. */
export const DATE_COLUMN: Record<DateFilter, string> = {
  bookedDate: 'booked_at',
  startDate: 'start_date',
  endDate: 'end_date',
  lastUpdatedDate: 'last_updated',
};

/** The SQL of each tally dimension; `booked_at` is fixed-width ISO 8601, so its first 7 characters are the month. */
export const TALLY_KEY: Record<TallyDimension, string> = {
  month: 'substr(booked_at, 1, 7)',
  campaign: 'campaign',
  device: 'device',
  supplier: 'supplier',
};

/**
 * The [lo, hi) bounds of a date column for UTC days [startDate, endDate], as text: a day's dates
 * ('YYYY-MM-DD') and times ('YYYY-MM-DDTHH:MM:SS.sssZ') all sort at or above the day itself and
 * below the day followed by 'T24' (ISO 8601's end of a day). No "next day" is computed: the day
 * after 9999-12-31 has no four-digit form, and "+010000-01-01" sorts below every stored date.
 */
export function dayBounds(startDate: string, endDate: string): [string, string] {
  return [startDate, `${endDate}T24`];
}

/** A `report_sync` row. */
export interface SyncRow {
  supplier: string;
  synced_through: string;
  synced_at: string;
}

export function syncStateFromRow(row: SyncRow | undefined): SupplierSyncState {
  return { syncedThrough: row?.synced_through ?? null, syncedAt: row?.synced_at ?? null };
}

/** Every supplier's last import, the same SQL on both engines. */
export const SELECT_IMPORTS = `SELECT supplier, file, imported_at AS "importedAt", rows, inserted, updated, unchanged, unattributed
  FROM transaction_imports`;

/** Transactions of one supplier, and of them those no partner owns. */
export interface SupplierCount {
  supplier: string;
  n: number;
  unattributed: number;
}

/** TransactionStats from what both engines read: counts per supplier, sync state rows, imports. */
export function transactionStats(
  counts: readonly SupplierCount[],
  syncs: readonly SyncRow[],
  imports: readonly ({ supplier: string } & TransactionImport)[],
): TransactionStats {
  const bySupplier = {} as TransactionStats['bySupplier'];
  for (const supplier of SUPPLIER_IDS) {
    const run = imports.find((i) => i.supplier === supplier);
    bySupplier[supplier] = {
      ...syncStateFromRow(syncs.find((s) => s.supplier === supplier)),
      transactions: counts.find((c) => c.supplier === supplier)?.n ?? 0,
      lastImport:
        run === undefined
          ? null
          : {
              file: run.file,
              importedAt: run.importedAt,
              rows: run.rows,
              inserted: run.inserted,
              updated: run.updated,
              unchanged: run.unchanged,
              unattributed: run.unattributed,
            },
    };
  }
  return {
    total: counts.reduce((sum, c) => sum + c.n, 0),
    unattributed: counts.reduce((sum, c) => sum + c.unattributed, 0),
    bySupplier,
  };
}
