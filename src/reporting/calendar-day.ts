// Calendar days of the reporting range, kept as their YYYY-MM-DD text from end to end. The text
// of a four-digit year sorts as the days do, so the store compares it as it is: no conversion to
// milliseconds and back, which breaks at both ends of the range (Date.UTC reads years 0-99 as
// 1900-1999, and the day after 9999-12-31 is written "+010000-01-01", which sorts below every
// stored date).

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Whether `text` is a real day of the proleptic Gregorian calendar written YYYY-MM-DD, any year
 * from 0000 to 9999 (ISO 8601's four-digit years, as Date.parse reads them): "2026-02-30" is not.
 */
export function isCalendarDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The UTC day of `ms` as YYYY-MM-DD (for the days the gateway makes itself: today, a year ago). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
