// What the four adapters share when they read a commission report: times in whatever notation a
// supplier writes them, exact decimal amounts, and the conversions, all failing as `malformed`
// SupplierErrors that name the field.
import { FeedRecord } from './feed-record.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** A real YYYY-MM-DD calendar date. */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (m === null) return false;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return date.toISOString().slice(0, 10) === text;
}

export function readDate(record: FeedRecord, key: string, normalise: (raw: string) => string = (raw) => raw): string {
  const raw = record.string(key);
  const date = normalise(raw);
  return isCalendarDate(date) ? date : record.fail(key, 'a calendar date');
}

/** An ISO 8601 time with a zone (Z or an offset), as UTC `toISOString()`. */
export function readIsoTime(record: FeedRecord, key: string): string {
  const raw = record.string(key);
  const ms = ISO_TIME.test(raw) ? Date.parse(raw) : NaN;
  return Number.isNaN(ms) ? record.fail(key, 'an ISO 8601 time with a zone') : new Date(ms).toISOString();
}

/** Whole seconds since the epoch, as UTC `toISOString()`. */
export function readUnixTime(record: FeedRecord, key: string): string {
  const seconds = record.integer(key);
  return seconds >= 0 ? new Date(seconds * 1_000).toISOString() : record.fail(key, 'seconds since 1970');
}

/** A non-negative decimal written as a string ("12.34") in units of 10^-scale, exactly: no float. */
export function readDecimalString(record: FeedRecord, key: string, scale: number): number {
  const raw = record.string(key);
  const m = DECIMAL.exec(raw);
  if (m === null || (m[2] ?? '').length > scale) return record.fail(key, `a decimal with at most ${scale} decimals`);
  return Number(m[1]) * 10 ** scale + Number((m[2] ?? '').padEnd(scale, '0'));
}

/** A non-negative amount written as a JSON number with at most 2 decimals, in cents. */
export function readCents(record: FeedRecord, key: string): number {
  const value = record.amount(key);
  const cents = Math.round(value * 100);
  return Math.abs(cents - value * 100) < 1e-6 ? cents : record.fail(key, 'an amount with at most 2 decimals');
}

/** Round half up of a / b, for non-negative integers. */
export function roundDiv(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/** An ISO 3166 alpha-2 country in upper case; null when absent or empty. */
export function readCountry(record: FeedRecord, key: string): string | null {
  const raw = record.nullableString(key);
  if (raw === null || raw === '') return null;
  return /^[A-Za-z]{2}$/.test(raw) ? raw.toUpperCase() : record.fail(key, 'an ISO 3166 alpha-2 country code');
}

/** The page size asked of a report: the caller's wish within the supplier's bounds. */
export function reportPageSize(wanted: number | undefined, max: number, fallback: number): number {
  return Math.max(1, Math.min(max, wanted ?? fallback));
}
