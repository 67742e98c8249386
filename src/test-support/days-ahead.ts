// Stay dates for tests that run on the real clock (the simulator's own or the gateway's without
// `startTestApp`'s fixed one): a fixed date such as 2027-03-01 turns into a past date one day, and
// the test fails on every run from then on (a dated search refuses a past check-in).

/** The UTC date `days` after `now` (default: the real clock), as YYYY-MM-DD. */
export function daysAhead(days: number, now: number = Date.now()): string {
  return new Date(now + days * 86_400_000).toISOString().slice(0, 10);
}
