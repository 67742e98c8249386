// The operator's mapping of a network's CSV export onto our columns (docs/transactions-import.md):
// a JSON file `{ "columns": { "<ours>": "<their header>" }, "statuses": { "<their word>": "Approved" } }`,
// the same entries `staygate transactions import` takes as --map and --status.
import { BOOKING_STATUSES, type BookingStatus } from '../suppliers/supplier.ts';
import { IMPORT_COLUMNS, type CsvReading, type ImportColumn } from './read-transactions-csv.ts';

/** One of our columns, or null. */
export function importColumn(name: string): ImportColumn | null {
  return (IMPORT_COLUMNS as readonly string[]).includes(name) ? (name as ImportColumn) : null;
}

/** Pending, Approved or Canceled, in any case; null for anything else. */
export function bookingStatusNamed(name: string): BookingStatus | null {
  return BOOKING_STATUSES.find((s) => s.toLowerCase() === name.trim().toLowerCase()) ?? null;
}

/** A mapping file's text as columns and statuses; throws an Error saying what in it is wrong. */
export function readImportMapping(text: string): Pick<CsvReading, 'columns' | 'statuses'> {
  const object = (value: unknown, key: string): Record<string, unknown> => {
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${key} must be a JSON object`);
    return value as Record<string, unknown>;
  };
  const top = object(JSON.parse(text) as unknown, 'the mapping');
  const extra = Object.keys(top).find((key) => key !== 'columns' && key !== 'statuses');
  if (extra !== undefined) throw new Error(`unknown key "${extra}" (only "columns" and "statuses")`);
  const named = (value: unknown, key: string): string => {
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`${key} must be a non-empty string`);
    return value.trim();
  };
  const columns = Object.entries(object(top.columns, '"columns"')).map(([ours, theirs]) => {
    if (importColumn(ours) === null) throw new Error(`columns: "${ours}" is not one of our columns (${IMPORT_COLUMNS.join(', ')})`);
    return [ours, named(theirs, `columns.${ours}`)];
  });
  const statuses = Object.entries(object(top.statuses, '"statuses"')).map(([word, to]) => {
    const status = bookingStatusNamed(named(to, `statuses.${word}`));
    if (status === null) throw new Error(`statuses: "${word}" must map to ${BOOKING_STATUSES.join(', ')}, not "${String(to)}"`);
    return [word, status];
  });
  return { columns: Object.fromEntries(columns), statuses: Object.fromEntries(statuses) };
}
