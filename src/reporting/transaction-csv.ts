// The CSV form of transaction records: RFC 4180 (comma, CRLF, double quotes where needed), a header
// row of the spec's field names, and cells escaped against formula injection.
import { stringify } from 'csv-stringify/sync';
import { TRANSACTION_FIELDS, type TransactionRecord } from './transaction.ts';

/**
 * Cells a spreadsheet would run as a formula (OWASP, "CSV Injection"): starting with = + - @, tab,
 * carriage return or line feed (a cell's lines may be read as rows of their own), or the fullwidth
 * ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20), which spreadsheets in East Asian locales convert to
 * the ASCII ones as they are typed or imported. Such a cell gets a leading apostrophe; a reader
 * strips one leading ' that is followed by one of these characters to get the value back.
 */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

export function escapeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The inverse of escapeFormula, for readers (and tests). */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

const OPTIONS = {
  record_delimiter: 'windows',
  // csv-stringify quotes cells holding the delimiter, a quote or the record delimiter; a lone
  // CR or LF must be quoted as well.
  quoted_match: /[\r\n]/,
} as const;

/**
 * The rendering of the CSV lines the stores keep: a change to this file bumps it, and lines of an
 * older rendering are rendered again when a store opens (both engines).
 */
export const CSV_FORMAT = 2; // 2: line feeds and fullwidth ＝ ＋ － ＠ are escaped too (issue 13)

export const CSV_HEADER = stringify([[...TRANSACTION_FIELDS]], OPTIONS);

/** One record as one CSV line (CRLF included). `campaignIds` is written as its JSON array text. */
export function csvLine(record: TransactionRecord): string {
  const cells = TRANSACTION_FIELDS.map((field) => {
    const value = record[field];
    if (Array.isArray(value)) return JSON.stringify(value);
    return typeof value === 'string' ? escapeFormula(value) : String(value);
  });
  return stringify([cells], OPTIONS);
}
