// A CSV import of a supplier's transactions (`staygate transactions import`, docs/transactions-import.md):
// for a slot whose API has no commission report, the affiliate network's export stands in for
// the report. Its records take the report's path: attributed through the clicks and the keys
// (attributeRecords), applied all or nothing with newest-wins upserts (TransactionStore.applyImport),
// then unowned transactions of an aid given to its new owner. Importing a file twice changes nothing.
import type { KeyStore } from '../auth/key-store.ts';
import type { ClickStore } from '../clicks/click-store.ts';
import { count } from '../text/plural.ts';
import type { CommissionRecord } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';
import { readTransactionsCsv, type CsvReading } from './read-transactions-csv.ts';
import { aidOwners, attributeRecords } from './sync-transactions.ts';
import type { TransactionImport, TransactionStore } from './transaction-store.ts';

export interface ImportTransactionsOptions {
  supplier: SupplierId;
  /** The file's name, for the summary and `transactions status`. */
  file: string;
  records: readonly CommissionRecord[];
  store: TransactionStore;
  clicks: ClickStore;
  keys: KeyStore;
  now?: () => Date;
}

export interface ImportTransactionsResult extends TransactionImport {
  supplier: SupplierId;
  ms: number;
}

export async function importTransactions(options: ImportTransactionsOptions): Promise<ImportTransactionsResult> {
  const started = performance.now();
  const { supplier, file, store } = options;
  const owners = await aidOwners(options.keys);
  const { rows } = await attributeRecords(supplier, options.records, options.clicks, owners);
  const unattributed = rows.filter((row) => row.partnerId === null).length;
  const importedAt = (options.now ?? (() => new Date()))().toISOString();
  const { received, inserted, updated, unchanged } = await store.applyImport(supplier, rows, { file, importedAt, unattributed });
  // As after every sync: transactions of an aid whose key came after them are that key's partner's.
  await store.assignPartners(owners);
  return {
    supplier,
    file,
    importedAt,
    rows: received,
    inserted,
    updated,
    unchanged,
    unattributed,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Reads a CSV export (readTransactionsCsv: every row checked, a TransactionsCsvError naming each
 * problem and nothing imported) and imports it: what `staygate transactions import` and the demo run.
 */
export async function importTransactionsCsv(
  options: Omit<ImportTransactionsOptions, 'records'> & { csv: Uint8Array | string; reading?: CsvReading },
): Promise<ImportTransactionsResult> {
  const { records } = readTransactionsCsv(options.csv, options.reading);
  return importTransactions({ ...options, records });
}

/** "supplier_b: 240 rows of export.csv imported: 200 new, 10 updated, 30 unchanged, 12 unattributed (15 ms)" */
export function describeImport(r: ImportTransactionsResult): string {
  return `${r.supplier}: ${count(r.rows, 'row')} of ${r.file} imported: ${importCounts(r)} (${r.ms} ms)`;
}

/** "last import 2026-11-21T10:00:00.000Z of export.csv: 240 rows, 200 new, ..." (`transactions status`). */
export function describeLastImport(run: TransactionImport | null): string {
  return run === null ? 'never imported' : `last import ${run.importedAt} of ${run.file}: ${count(run.rows, 'row')}, ${importCounts(run)}`;
}

function importCounts(r: TransactionImport): string {
  return `${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.unattributed} unattributed`;
}
