// What both pages share: HTML escaping, the gateway's JSON error body, and number formats.

/** Text safe to put in HTML, attributes included. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The gateway's error body (README, "API"). */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  requestId: string;
  details?: Record<string, unknown>;
}

/** A failed call: the error body when the gateway sent one, and `Retry-After` in seconds. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  readonly retryAfter: number | null;

  constructor(status: number, body: ErrorBody | null, retryAfter: number | null) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/** GETs JSON from the gateway; a non-2xx answer throws an ApiFailure. */
export async function getJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { Accept: 'application/json', ...init.headers } });
  if (!response.ok) {
    let body: ErrorBody | null = null;
    try {
      body = (await response.json()) as ErrorBody;
    } catch {
      // not the JSON error body
    }
    const retry = Number(response.headers.get('Retry-After'));
    throw new ApiFailure(response.status, body, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return (await response.json()) as T;
}

const integer = new Intl.NumberFormat('en');
export const formatCount = (n: number): string => integer.format(n);

/** 12_400 -> "12k", 1_250_000 -> "1.3M": counts on a small bubble. */
export function formatShort(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 10_000) return `${(n / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1_000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export function formatMoney(amount: number, currency: string, fractionDigits = 0): string {
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      maximumFractionDigits: fractionDigits,
      minimumFractionDigits: fractionDigits,
    }).format(amount);
  } catch {
    return `${amount.toFixed(fractionDigits)} ${currency}`;
  }
}
