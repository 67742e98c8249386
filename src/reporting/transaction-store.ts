import type { TallyDimension } from '../clicks/click-store.ts';
import type { BookingStatus } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';
import type { DateFilter, TransactionRecord, TransactionRow } from './transaction.ts';

/** One page of a partner's transactions. */
export interface TransactionQuery {
  partnerId: string;
  dateFilter: DateFilter;
  /** YYYY-MM-DD, inclusive: the UTC days of the `dateFilter` field. */
  startDate: string;
  endDate: string;
  /** 1..500 */
  limit: number;
  /** Zero-indexed. */
  page: number;
}

/** A page of records, and whether a next page has rows. */
export interface TransactionRecordPage {
  records: TransactionRecord[];
  hasMore: boolean;
}

/** A partner's bookings of a period, by the day they were booked (the summary's basis). */
export interface TallyQuery {
  partnerId: string;
  /** YYYY-MM-DD, UTC, inclusive: days of `bookedDate`. */
  startDate: string;
  endDate: string;
  by: TallyDimension;
}

/** One group of a tally: bookings and commission (USD cents) per status. */
export interface TransactionTally {
  /** The month (`YYYY-MM`), campaign (null: none), device or supplier. */
  key: string | null;
  status: BookingStatus;
  bookings: number;
  commissionCents: number;
}

export interface ApplyReportResult {
  received: number;
  /** Bookings seen for the first time. */
  inserted: number;
  /** Bookings replaced by a newer version. */
  updated: number;
  /** Versions already held, or older than the one held. */
  unchanged: number;
  /** The bookings inserted or replaced, in the report's order: what this report brought that was not held. */
  changes: TransactionChange[];
}

export interface TransactionChange {
  bookingId: string;
  /** The version applied. */
  lastUpdated: string;
  /** `new`: a booking seen for the first time; `newer`: a newer version of one held. */
  kind: 'new' | 'newer';
}

export interface SupplierSyncState {
  /** The end of the last report period read in full (ISO 8601), null before the first. */
  syncedThrough: string | null;
  /** When that report was applied. */
  syncedAt: string | null;
}

/** One CSV import of a supplier's transactions (`staygate transactions import`). */
export interface TransactionImport {
  /** The file's name as given (no directory). */
  file: string;
  /** When it was applied, ISO 8601. */
  importedAt: string;
  /** Data rows read. */
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows no partner owns (no click id, a click the gateway does not know, no aid, an aid no key carries). */
  unattributed: number;
}

export interface TransactionStats {
  total: number;
  /** Transactions no partner owns: an unknown click, a click without aid, an aid no key carries. */
  unattributed: number;
  bySupplier: Record<SupplierId, SupplierSyncState & { transactions: number; lastImport: TransactionImport | null }>;
}

/**
 * Where commission transactions live: SQLite in the gateway's data file by default; PostgreSQL can
 * join for scale-out. Every implementation runs the contract suite in transaction-store-contract.ts.
 */
export interface TransactionStore {
  /**
   * Applies one supplier's report of the period ending `syncedThrough`, all or nothing (one
   * database transaction, durable when it resolves): each row is upserted by (supplier, booking
   * id), keeping the newest `lastUpdated` (ties: the greater versionKey), so replaying reports in
   * any order ends in the same rows; the supplier's `syncedThrough` only moves forward.
   */
  applyReport(
    supplier: SupplierId,
    rows: readonly TransactionRow[],
    sync: { syncedThrough: string; syncedAt: string },
  ): Promise<ApplyReportResult>;
  /**
   * Applies one CSV import of a supplier's transactions exactly as `applyReport` applies a report
   * (the same upsert, newest wins, all or nothing, serialised with the supplier's reports), but
   * moves no synced period: it records the import instead (`stats().bySupplier[s].lastImport`).
   */
  applyImport(
    supplier: SupplierId,
    rows: readonly TransactionRow[],
    run: Pick<TransactionImport, 'file' | 'importedAt' | 'unattributed'>,
  ): Promise<ApplyReportResult>;
  syncState(supplier: SupplierId): Promise<SupplierSyncState>;
  /** Gives every unowned transaction of an aid in `owners` (aid -> partner) to that partner; returns how many. */
  assignPartners(owners: ReadonlyMap<string, string>): Promise<number>;
  /**
   * A page of a partner's transactions whose `dateFilter` day lies in [startDate, endDate],
   * ordered by that field, then supplier and booking id; `hasMore` when a next page has rows.
   */
  query(query: TransactionQuery): Promise<TransactionRecordPage>;
  /**
   * The same page as CSV lines (no header), in one or more chunks (the route joins them and sends
   * the page with its length). Breaking off the iteration releases what it holds.
   */
  csvPage(query: TransactionQuery): AsyncIterable<string>;
  /**
   * A partner's bookings booked in [startDate, endDate] counted by one dimension and status, in
   * the database (groups without bookings are absent; order unspecified).
   */
  tally(query: TallyQuery): Promise<TransactionTally[]>;
  /** The partner's `limit` most recently booked transactions in [startDate, endDate] (booked days), newest first. */
  latest(query: Omit<TallyQuery, 'by'> & { limit: number }): Promise<TransactionRecord[]>;
  get(supplier: SupplierId, bookingId: string): Promise<TransactionRow | null>;
  stats(): Promise<TransactionStats>;
  close(): Promise<void>;
}
