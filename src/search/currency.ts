// Currency conversion from USD, the base of every price (docs/decisions.md 12), with an embedded,
// dated table of reference rates. A valid ISO 4217 code we hold no rate for falls back to USD.

/** Date of the reference rates below. */
export const RATES_DATE = '2026-11-02';

/** Units of each currency per 1 USD, reference rates of RATES_DATE. */
const PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.862,
  GBP: 0.761,
  JPY: 153.2,
  CHF: 0.804,
  CAD: 1.401,
  AUD: 1.527,
  NZD: 1.748,
  CNY: 7.121,
  HKD: 7.773,
  SGD: 1.302,
  KRW: 1_428.5,
  INR: 88.71,
  IDR: 16_642,
  THB: 32.41,
  MYR: 4.193,
  PHP: 58.62,
  VND: 26_310,
  TWD: 30.72,
  AED: 3.6725,
  SAR: 3.75,
  QAR: 3.64,
  ILS: 3.262,
  TRY: 42.09,
  ZAR: 17.31,
  EGP: 47.38,
  MAD: 9.262,
  KES: 129.2,
  NGN: 1_452.1,
  BRL: 5.382,
  MXN: 18.43,
  ARS: 1_450.5,
  CLP: 943.6,
  COP: 3_862.4,
  PEN: 3.377,
  SEK: 9.482,
  NOK: 10.08,
  DKK: 6.434,
  PLN: 3.671,
  CZK: 20.94,
  HUF: 335.8,
  RON: 4.385,
  ISK: 125.3,
  BGN: 1.686,
  RUB: 80.95,
  UAH: 41.86,
};

/** The currency prices are shown in: the requested one when we hold its rate, else USD. */
export function effectiveCurrency(requested: string): string {
  return PER_USD[requested] === undefined ? 'USD' : requested;
}

/** Units of `currency` per USD, or undefined when the table has no rate for it. */
export function ratePerUsd(currency: string): number | undefined {
  return PER_USD[currency];
}

const minorUnits = new Map<string, number>();

/** Rounds to the currency's minor unit (2 for EUR, 0 for JPY), as Intl knows them. */
export function roundMoney(amount: number, currency: string): number {
  let digits = minorUnits.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorUnits.set(currency, digits);
  }
  const factor = 10 ** digits;
  return Math.round(amount * factor) / factor;
}

/** An amount in `from` expressed in USD, or null when `from` has no rate. */
export function toUsd(amount: number, from: string): number | null {
  const rate = PER_USD[from];
  return rate === undefined ? null : amount / rate;
}

/** A USD amount in `to` (which must have a rate: see effectiveCurrency), rounded to its minor unit. */
export function fromUsd(usd: number, to: string): number {
  return roundMoney(usd * PER_USD[to], to);
}
