// The period a commission-report request asks for, in each supplier's own notation. Every report
// lists the changes in [from, to); `to` defaults to now. A bad or reversed period is a 400 naming
// the supplier's parameter.
import { SupplierHttpError } from './create-supplier-server.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;
const SQL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const UNIX = /^\d{1,12}$/;

export type TimeNotation = 'iso' | 'unix-seconds' | 'sql-utc';

function parseTime(text: string, notation: TimeNotation): number {
  switch (notation) {
    case 'iso':
      return ISO_TIME.test(text) ? Date.parse(text) : NaN;
    case 'unix-seconds':
      return UNIX.test(text) ? Number(text) * 1_000 : NaN;
    case 'sql-utc': {
      const m = SQL_TIME.exec(text);
      if (m === null) return NaN;
      const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
      return new Date(ms).toISOString().slice(0, 19).replace('T', ' ') === text ? ms : NaN;
    }
  }
}

const EXAMPLES: Record<TimeNotation, string> = {
  iso: 'an ISO 8601 time such as 2026-11-01T00:00:00Z',
  'unix-seconds': 'whole seconds since 1970-01-01 UTC',
  'sql-utc': 'a UTC time written YYYY-MM-DD HH:MM:SS',
};

export function readReportWindow(
  query: URLSearchParams,
  names: { from: string; to: string },
  notation: TimeNotation,
  now: number,
): { from: number; to: number } {
  const read = (name: string, required: boolean): number | null => {
    const text = query.get(name);
    if (text === null || text === '') {
      if (required) throw new SupplierHttpError(400, `${name} is required`, { param: name });
      return null;
    }
    const ms = parseTime(text, notation);
    if (Number.isNaN(ms)) throw new SupplierHttpError(400, `${name} must be ${EXAMPLES[notation]}`, { param: name, value: text });
    return ms;
  };
  const from = read(names.from, true)!;
  const to = read(names.to, false) ?? now;
  if (to < from)
    throw new SupplierHttpError(400, `${names.to} must not be before ${names.from}`, { param: names.to, value: query.get(names.to) ?? '' });
  return { from, to };
}

/** "2026-11-21T10:00:00.000Z" -> "2026-11-21T11:00:00+01:00": a fixed offset, no milliseconds. */
export function isoWithOffset(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Cents as a decimal string: 1234 -> "12.34". */
export function centsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
