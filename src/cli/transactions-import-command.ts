// `staygate transactions import --supplier <id> FILE.csv`: an affiliate network's CSV export of a
// supplier's transactions, for a slot whose API has no commission report (docs/transactions-import.md).
// The command line is read before any database is opened (a mistake is exit 2 whatever the
// folder); the files are read whole and checked before anything is written (a bad row is exit 1
// with its line and column, and nothing imported).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RecordStores } from '../compose/open-stores.ts';
import { count } from '../text/plural.ts';
import { bookingStatusNamed, importColumn, readImportMapping } from '../reporting/import-mapping.ts';
import { describeImport, importTransactionsCsv } from '../reporting/import-transactions.ts';
import {
  IMPORT_COLUMNS,
  readDecimal,
  TransactionsCsvError,
  type CsvReading,
  type ImportColumn,
} from '../reporting/read-transactions-csv.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

export const IMPORT_HELP = `Usage: staygate transactions import --supplier <id> [options] FILE.csv

Imports an affiliate network's CSV export of a supplier's transactions, for a slot whose API has no
commission report (Hotelbeds, Expedia Rapid): the transactions the report would have given,
attributed to our clicks the same way. Importing a file again changes nothing; an older row never
replaces a newer state. Every row is checked first: one bad row and nothing is imported (exit 1,
with the line and column of each problem). Columns (docs/transactions-import.md): booking_id,
click_id, property_id, property_name, city, country, booked_at, checkin, checkout, rooms,
guest_country, status, commission, currency, usd_rate, updated_at.
  --supplier <id>            the slot: supplier_a .. supplier_d (required)
  --map <ours>=<theirs>,...  the export's header for one of our columns; repeatable
  --mapping <FILE.json>      {"columns": {"booking_id": "Order ID", ...}, "statuses": {"confirmed": "Approved"}};
                             --map and --status win over it
  --status <word>=<Pending|Approved|Canceled>,...
                             a status word of the export beside the built-in ones; repeatable
  --delimiter <c>            , ; | or tab (default: the one the header line uses)
  --decimal-comma            amounts written 12,34
  --currency <ISO 4217>      the currency of every row, for an export without a currency column
  --usd-rate <CUR>=<rate>    US dollars per unit of CUR, for rows without a usd_rate; repeatable
Prints one line: rows read, new, updated, unchanged, unattributed. Exit 0 done, 1 refused, 2 wrong usage.`;

export interface ImportInvocation {
  supplier: SupplierId;
  file: string;
  mappingFile: string | null;
  /** What the command line says; the mapping file's entries fill in what it leaves out. */
  reading: CsvReading;
}

/** Splits "a=b,c=d" (repeated options joined) into pairs, the first `=` of each splitting it. */
function pairs(option: string, values: string[] | undefined): [string, string][] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const at = item.indexOf('=');
      if (at <= 0 || at === item.length - 1) throw new UsageError(`--${option} takes <name>=<value> items, not "${item}"`);
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    });
}

function column(name: string): ImportColumn {
  const found = importColumn(name);
  if (found === null) throw new UsageError(`--map: "${name}" is not one of our columns (${IMPORT_COLUMNS.join(', ')})`);
  return found;
}

function status(word: string, value: string) {
  const found = bookingStatusNamed(value);
  if (found === null) throw new UsageError(`--status: "${word}" must map to Pending, Approved or Canceled, not "${value}"`);
  return found;
}

/** The command line of `transactions import` (after those two words); throws UsageError. */
export function parseImportArgs(args: string[]): ImportInvocation {
  const { values, positionals } = parseArgs({
    args,
    options: {
      supplier: { type: 'string' },
      map: { type: 'string', multiple: true },
      mapping: { type: 'string' },
      status: { type: 'string', multiple: true },
      delimiter: { type: 'string' },
      'decimal-comma': { type: 'boolean' },
      currency: { type: 'string' },
      'usd-rate': { type: 'string', multiple: true },
    },
    allowPositionals: true,
  });
  if (values.supplier === undefined) throw new UsageError('transactions import needs --supplier <id>');
  if (!(SUPPLIER_IDS as readonly string[]).includes(values.supplier))
    throw new UsageError(`--supplier must be one of ${SUPPLIER_IDS.join(', ')}, not "${values.supplier}"`);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'transactions import needs the CSV file' : 'transactions import takes one CSV file');
  const reading: CsvReading = {};
  const columns = pairs('map', values.map);
  if (columns.length > 0) reading.columns = Object.fromEntries(columns.map(([ours, theirs]) => [column(ours), theirs]));
  const statuses = pairs('status', values.status);
  if (statuses.length > 0) reading.statuses = Object.fromEntries(statuses.map(([word, to]) => [word, status(word, to)]));
  if (values.delimiter !== undefined) {
    const delimiter = values.delimiter === 'tab' || values.delimiter === '\\t' ? '\t' : values.delimiter;
    if (![',', ';', '|', '\t'].includes(delimiter)) throw new UsageError(`--delimiter must be , ; | or tab, not "${values.delimiter}"`);
    reading.delimiter = delimiter;
  }
  if (values['decimal-comma']) reading.decimalComma = true;
  if (values.currency !== undefined) {
    if (!/^[A-Za-z]{3}$/.test(values.currency)) throw new UsageError(`--currency must be an ISO 4217 code (EUR), not "${values.currency}"`);
    reading.currency = values.currency.toUpperCase();
  }
  const rates = pairs('usd-rate', values['usd-rate']);
  for (const [currency, rate] of rates) {
    if (!/^[A-Za-z]{3}$/.test(currency)) throw new UsageError(`--usd-rate: "${currency}" is not an ISO 4217 code`);
    const value = readDecimal(rate);
    if (value === null || value.units === 0n)
      throw new UsageError(`--usd-rate: "${rate}" is not a rate above 0 (US dollars per ${currency})`);
  }
  if (rates.length > 0) reading.usdRates = Object.fromEntries(rates.map(([currency, rate]) => [currency.toUpperCase(), rate]));
  return { supplier: values.supplier as SupplierId, file: positionals[0], mappingFile: values.mapping ?? null, reading };
}

/** Reads, checks and imports the file; resolves with the exit code (0 imported, 1 refused). */
export async function runTransactionsImport(invocation: ImportInvocation, stores: RecordStores, io: CliIo): Promise<number> {
  const { supplier, file } = invocation;
  let reading = invocation.reading;
  if (invocation.mappingFile !== null) {
    try {
      const mapping = readImportMapping(readFileSync(invocation.mappingFile, 'utf8'));
      reading = {
        ...reading,
        columns: { ...mapping.columns, ...reading.columns },
        statuses: { ...mapping.statuses, ...reading.statuses },
      };
    } catch (error) {
      io.err(`staygate: the mapping ${invocation.mappingFile} is not usable: ${(error as Error).message}; nothing imported`);
      return 1;
    }
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    io.err(`staygate: cannot read ${file}: ${(error as Error).message}; nothing imported`);
    return 1;
  }
  try {
    const result = await importTransactionsCsv({
      supplier,
      file: path.basename(file),
      csv: bytes,
      reading,
      store: stores.transactions,
      clicks: stores.clicks,
      keys: stores.keys,
    });
    io.out(describeImport(result));
    return 0;
  } catch (error) {
    if (!(error instanceof TransactionsCsvError)) throw error;
    io.err(`staygate: ${file}: nothing imported, ${count(error.problems.length, 'problem')}:`);
    for (const line of error.message.split('\n')) io.err(`  ${line}`);
    return 1;
  }
}
