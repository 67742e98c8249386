// Counts in the lines an operator reads: "1 record", "2 records", "0 records" (issue 25: the CLI
// printed "1 records"). English plural categories from Intl.PluralRules rather than a hand-made
// `n === 1` test, so 1.0 or -1 come out right as well.
const english = new Intl.PluralRules('en');

/** `n` and its noun, singular or plural (`plural` for a noun that does not take an -s). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${english.select(n) === 'one' ? singular : plural}`;
}
