// An affiliate network's CSV export of a supplier's transactions, read into `CommissionRecord`s:
// the records a commission report would have given (docs/transactions-import.md). Every row is
// checked before anything is returned; one bad cell and the whole file is refused with the line
// and column of each problem, so that a bad export neither loses nor half-imports anything.
import { parse } from 'csv-parse/sync';
import { BOOKING_STATUSES, type BookingStatus, type CommissionRecord } from '../suppliers/supplier.ts';
import { isCalendarDay } from './calendar-day.ts';

/** Our columns, in the order of the documented export (docs/transactions-import.md). */
export const IMPORT_COLUMNS = [
  'booking_id',
  'click_id',
  'property_id',
  'property_name',
  'city',
  'country',
  'booked_at',
  'checkin',
  'checkout',
  'rooms',
  'guest_country',
  'status',
  'commission',
  'currency',
  'usd_rate',
  'updated_at',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Columns a file may lack (`currency` only with a default currency given). */
const OPTIONAL_COLUMNS: ReadonlySet<ImportColumn> = new Set(['click_id', 'guest_country', 'usd_rate']);

/**
 * The status words understood without a mapping (case, spaces and hyphens ignored: "No-Show" is
 * no_show), as the API reports map theirs: a no-show earns nothing, so it is Canceled.
 */
export const STATUS_WORDS: Readonly<Record<string, BookingStatus>> = {
  pending: 'Pending',
  booked: 'Pending',
  open: 'Pending',
  new: 'Pending',
  approved: 'Approved',
  completed: 'Approved',
  stayed: 'Approved',
  paid: 'Approved',
  validated: 'Approved',
  canceled: 'Canceled',
  cancelled: 'Canceled',
  no_show: 'Canceled',
  noshow: 'Canceled',
  declined: 'Canceled',
  rejected: 'Canceled',
  reversed: 'Canceled',
  void: 'Canceled',
};

/** How to read one operator's export. */
export interface CsvReading {
  /** Our column -> the header of the file's column holding it (default: our name). */
  columns?: Partial<Record<ImportColumn, string>>;
  /** More status words (theirs -> ours), read before the built-in ones. */
  statuses?: Record<string, BookingStatus>;
  /** The cell separator; absent: the one of `,` `;` tab `|` the header line uses most. */
  delimiter?: string;
  /** Amounts written with a decimal comma ("12,34"). */
  decimalComma?: boolean;
  /** The currency of every row, for a file without a `currency` column. */
  currency?: string;
  /** US dollars per unit of a currency ("EUR" -> "1.0842"), for rows without a `usd_rate`. */
  usdRates?: Record<string, string>;
}

/** A refused cell, row or header: the file's line (1-based) and, where one is at fault, the column. */
export interface CsvProblem {
  line: number;
  column?: ImportColumn;
  /** The file's header for that column, when it is not our name. */
  header?: string;
  message: string;
}

/** Problems named in an error's message at most; `problems` holds them all. */
const MAX_NAMED = 10;

export class TransactionsCsvError extends Error {
  constructor(readonly problems: CsvProblem[]) {
    const named = problems.slice(0, MAX_NAMED).map(describeProblem);
    if (problems.length > MAX_NAMED) named.push(`and ${problems.length - MAX_NAMED} more`);
    super(named.join('\n'));
  }
}

/** "line 14, column commission ("Commission"): ..." */
export function describeProblem(p: CsvProblem): string {
  const column = p.column === undefined ? '' : `, column ${p.column}${p.header === undefined ? '' : ` ("${p.header}")`}`;
  return `line ${p.line}${column}: ${p.message}`;
}

/** Our name of a status word: lower case, runs of spaces, hyphens and underscores as one `_`. */
export function statusKey(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
}

/** The file's text: UTF-8 (a BOM allowed), or UTF-16 with its BOM (Excel's "Unicode text"). */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TransactionsCsvError([{ line: 1, message: 'the file is not UTF-8 text: export it as CSV UTF-8 (or UTF-16 with a BOM)' }]);
  }
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The separator the header line uses most (outside quotes); a comma when it uses none. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  const start = text.search(/[^\r\n\uFEFF]/);
  let quoted = false;
  for (let i = Math.max(0, start); i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 time as UTC `toISOString()`: `T` or a space between date and time, seconds and
 * their fraction optional (kept to the millisecond), a zone `Z`, `±HH:MM`, `±HHMM` or `±HH`;
 * without a zone the time is UTC, and a bare date is its midnight UTC. Years 1970-9999. Null when not one.
 */
export function readTime(text: string): string | null {
  const m = TIME.exec(text);
  if (m === null || !isCalendarDay(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[1]) < 1970) return null;
  const [hours, minutes, seconds] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [zh, zm] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4) || 0)];
    if (zh > 18 || zm > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  }
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), hours, minutes, seconds, ms) - offsetMinutes * 60_000;
  const iso = new Date(utc).toISOString();
  // An offset can carry a time past 9999-12-31 (a six-digit year), which sorts wrong as text.
  return /^\d{4}-/.test(iso) ? iso : null;
}

/** A non-negative decimal as its digits and scale, exactly (no float): "12.34" is { units: 1234n, scale: 2 }. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const ONE: Decimal = { units: 1n, scale: 0 };

/** A non-negative decimal with at most 15 digits before the mark and `maxScale` after it; null when not one. */
export function readDecimal(text: string, decimalComma = false, maxScale = 12): Decimal | null {
  const m = (decimalComma ? /^(\d{1,15})(?:,(\d+))?$/ : /^(\d{1,15})(?:\.(\d+))?$/).exec(text);
  if (m === null || (m[2] ?? '').length > maxScale) return null;
  const fraction = m[2] ?? '';
  return { units: BigInt(m[1] + fraction), scale: fraction.length };
}

/** `amount` x `rate` in cents, rounded half up, exactly: integer arithmetic on the decimal digits. */
export function usdCents(amount: Decimal, rate: Decimal): number {
  const denominator = 10n ** BigInt(amount.scale + rate.scale);
  const numerator = amount.units * rate.units * 100n;
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** The status of a word, the operator's own words first; null when unknown. */
function readStatus(word: string, statuses: ReadonlyMap<string, BookingStatus>): BookingStatus | null {
  const key = statusKey(word);
  return statuses.get(key) ?? STATUS_WORDS[key] ?? null;
}

export interface ReadTransactionsResult {
  records: CommissionRecord[];
  /** Data rows read (rows of empty cells aside). */
  rows: number;
}

/**
 * Reads one row's cells into a record, or pushes each of its problems and returns null. The
 * operator's status words and rates are read before the built-in ones. One function on purpose
 * (about 100 lines): it reads the record's fields in order, each through the same `cell` and
 * `fail` of this row, and every problem of the row is reported at once; split, each part would
 * take the row, its index and its problems again.
 */
function rowReader(
  index: ReadonlyMap<ImportColumn, number>,
  reading: CsvReading,
): (cells: string[], line: number, problems: CsvProblem[]) => CommissionRecord | null {
  const statuses = new Map(Object.entries(reading.statuses ?? {}).map(([word, status]) => [statusKey(word), status]));
  const rates = new Map(Object.entries(reading.usdRates ?? {}).map(([currency, rate]) => [currency.toUpperCase(), rate]));
  return (cells, line, problems) => {
    const before = problems.length;
    const fail = (column: ImportColumn, message: string): null => {
      const name = reading.columns?.[column];
      problems.push({ line, column, header: name === undefined || name === column ? undefined : name, message });
      return null;
    };
    const cell = (column: ImportColumn): string => (index.has(column) ? cells[index.get(column)!] : '');
    const required = (column: ImportColumn): string | null => (cell(column) === '' ? fail(column, 'empty') : cell(column));
    const time = (column: ImportColumn): string | null => {
      const raw = required(column);
      return raw === null ? null : (readTime(raw) ?? fail(column, `"${raw}" is not an ISO 8601 time (2026-03-01T10:12:00Z)`));
    };
    const date = (column: ImportColumn): string | null => {
      const raw = required(column);
      return raw === null ? null : isCalendarDay(raw) ? raw : fail(column, `"${raw}" is not a date YYYY-MM-DD`);
    };
    const country = (column: ImportColumn, optional: boolean): string | null => {
      const raw = optional ? cell(column) : required(column);
      if (raw === null || raw === '') return null;
      return /^[A-Za-z]{2}$/.test(raw) ? raw.toUpperCase() : fail(column, `"${raw}" is not an ISO 3166 alpha-2 country code`);
    };

    const bookingId = required('booking_id');
    const supplierStayId = required('property_id');
    const propertyName = required('property_name');
    const city = required('city');
    const countryCode = country('country', false);
    const bookedAt = time('booked_at');
    const checkin = date('checkin');
    const checkout = date('checkout');
    if (checkin !== null && checkout !== null && checkout <= checkin) fail('checkout', `${checkout} is not after the check-in ${checkin}`);
    const roomsText = required('rooms');
    const rooms =
      roomsText === null
        ? null
        : /^\d{1,3}$/.test(roomsText) && Number(roomsText) >= 1
          ? Number(roomsText)
          : fail('rooms', `"${roomsText}" is not a whole number of rooms from 1 to 999`);
    const guestCountry = country('guest_country', true);
    const statusText = required('status');
    const status =
      statusText === null
        ? null
        : (readStatus(statusText, statuses) ??
          fail(
            'status',
            `"${statusText}" is not a status word we know (${Object.keys(STATUS_WORDS).join(', ')}); ` +
              `map it: --status "${statusText}=${BOOKING_STATUSES.join('|')}"`,
          ));
    const updatedAt = time('updated_at');

    const amountText = required('commission');
    const amount =
      amountText === null
        ? null
        : (readDecimal(amountText, reading.decimalComma) ??
          fail(
            'commission',
            `"${amountText}" is not an amount of 0 or more with ${reading.decimalComma ? 'a decimal comma' : 'a decimal point'} and no thousands separators` +
              (!reading.decimalComma && /^\d+,\d+$/.test(amountText) ? ' (a decimal comma: --decimal-comma)' : ''),
          ));
    const currencyText = index.has('currency') ? required('currency') : reading.currency!;
    const currency =
      currencyText === null
        ? null
        : /^[A-Za-z]{3}$/.test(currencyText)
          ? currencyText.toUpperCase()
          : fail('currency', `"${currencyText}" is not an ISO 4217 currency code`);
    let rate: Decimal | null = ONE;
    if (currency !== null && currency !== 'USD') {
      const own = cell('usd_rate');
      const given = rates.get(currency);
      const per = `US dollars per ${currency}`;
      if (own !== '') rate = readDecimal(own, reading.decimalComma) ?? fail('usd_rate', `"${own}" is not a rate (${per})`);
      else if (given !== undefined) rate = readDecimal(given) ?? fail('usd_rate', `--usd-rate ${currency}=${given} is not a rate (${per})`);
      else
        rate = fail(
          'usd_rate',
          `a commission in ${currency} needs its rate: a usd_rate column (${per}) or --usd-rate ${currency}=<${per}>`,
        );
      if (rate !== null && rate.units === 0n) rate = fail('usd_rate', `a rate of 0 ${per}`);
    }
    if (problems.length > before) return null;
    return {
      bookingId: bookingId!,
      clickId: cell('click_id') === '' ? null : cell('click_id'),
      supplierStayId: supplierStayId!,
      bookedAt: bookedAt!,
      checkin: checkin!,
      checkout: checkout!,
      rooms: rooms!,
      status: status!,
      commissionUsdCents: usdCents(amount!, rate!),
      propertyName: propertyName!,
      destination: `${city}, ${countryCode}`,
      guestCountry,
      updatedAt: updatedAt!,
    };
  };
}

/**
 * Reads an export into records, in the file's order, or throws TransactionsCsvError naming every
 * problem (nothing is returned then). Cells are trimmed; unknown columns are ignored; a row of
 * empty cells (a spreadsheet's trailing rows) is skipped.
 */
export function readTransactionsCsv(input: Uint8Array | string, reading: CsvReading = {}): ReadTransactionsResult {
  const text = typeof input === 'string' ? input : decode(input);
  const delimiter = reading.delimiter ?? detectDelimiter(text);
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's types do not follow `info: true`, which makes each record { record, info }.
    parsed = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    throw new TransactionsCsvError([{ line: lines ?? 1, message: `not readable as CSV: ${message}` }]);
  }
  // A record's first line: where it ends, less the line breaks inside its quoted cells.
  const lineOf = (entry: (typeof parsed)[number]) =>
    entry.info.lines - entry.record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
  if (parsed.length === 0) throw new TransactionsCsvError([{ line: 1, message: 'the file is empty: a header row is needed' }]);

  const [head, ...body] = parsed;
  const headerLine = lineOf(head);
  const header = head.record.map((cell) => cell.trim());
  const problems: CsvProblem[] = [];
  const index = new Map<ImportColumn, number>();
  for (const column of IMPORT_COLUMNS) {
    const wanted = reading.columns?.[column] ?? column;
    const shown = wanted === column ? undefined : wanted;
    const at = header.flatMap((name, i) => (name.toLowerCase() === wanted.trim().toLowerCase() ? [i] : []));
    if (at.length > 1)
      problems.push({ line: headerLine, column, header: shown, message: `the header names "${wanted}" ${at.length} times` });
    else if (at.length === 1) index.set(column, at[0]);
    else if (!OPTIONAL_COLUMNS.has(column) && !(column === 'currency' && reading.currency !== undefined))
      problems.push({
        line: headerLine,
        column,
        header: shown,
        message:
          `the header has no column "${wanted}"` +
          (column === 'currency' ? " (or give every row's currency: --currency <ISO 4217>)" : ` (map it: --map ${column}=<their column>)`),
      });
  }
  if (problems.length > 0) throw new TransactionsCsvError(problems);

  const readRow = rowReader(index, reading);
  const records: CommissionRecord[] = [];
  let rows = 0;
  for (const entry of body) {
    const cells = entry.record.map((cell) => cell.trim());
    if (cells.every((cell) => cell === '')) continue;
    rows++;
    const line = lineOf(entry);
    if (cells.length !== header.length) problems.push({ line, message: `${cells.length} cells where the header has ${header.length}` });
    else {
      const record = readRow(cells, line, problems);
      if (record !== null) records.push(record);
    }
  }
  if (problems.length > 0) throw new TransactionsCsvError(problems);
  return { records, rows };
}
