import type { SupplierId } from '../types.ts';
import type { FeedRecord } from './feed-record.ts';
import type { Quote, QuoteRequest } from './supplier.ts';

/**
 * What the four adapters share around one quote call: the distinct ids that go on the wire, and
 * the answer gathered per id so that every asked id gets one (left out = not available).
 */
export interface QuoteBatch {
  /** The distinct asked ids the supplier's id format can express, in asked order: what is sent. */
  readonly ids: readonly string[];
  /**
   * Records the supplier's answer for `id` (read from `record.key`). Ids nobody asked for are
   * ignored; an id answered twice is a malformed answer (which of the two would be the price?).
   */
  answer(record: FeedRecord, key: string, id: string, quote: Quote): void;
  /** Every asked id with its answer, or `{ available: false }` when the supplier left it out. */
  quotes(): Map<string, Quote>;
}

export interface QuoteBatchOptions {
  supplier: SupplierId;
  /** The supplier's cap on ids per call. */
  maxIds: number;
  /**
   * Whether the supplier's id format can express `id` (numeric ids, no comma in a list). An id it
   * cannot is one the supplier cannot sell: answered not available without being sent.
   */
  validId: (id: string) => boolean;
}

export function createQuoteBatch(request: QuoteRequest, options: QuoteBatchOptions): QuoteBatch {
  const asked = [...new Set(request.supplierStayIds)];
  if (asked.length > options.maxIds) {
    // Batching is the quote service's job; more ids than the cap here is a caller bug, and the
    // supplier would only answer 400.
    throw new RangeError(`${options.supplier}: ${asked.length} ids in one quote call, at most ${options.maxIds}`);
  }
  const ids = asked.filter(options.validId);
  const answered = new Map<string, Quote>();
  const wanted = new Set(ids);
  return {
    ids,
    answer(record, key, id, quote) {
      if (!wanted.has(id)) return;
      if (answered.has(id)) record.fail(key, 'an id answered once');
      answered.set(id, quote);
    },
    quotes() {
      return new Map(asked.map((id) => [id, answered.get(id) ?? { available: false }]));
    },
  };
}

/** A canonical decimal integer id ("1048576", not "01048576" or "1e6"), safe as a JSON number. */
export function isNumericId(id: string): boolean {
  return /^(0|[1-9]\d*)$/.test(id) && Number.isSafeInteger(Number(id));
}

/** An id that can stand in a comma-separated query list. */
export function isListableId(id: string): boolean {
  return /^[^,\s]+$/.test(id);
}

/** Nights of the stay, or null when the dates are not two ordered YYYY-MM-DD days. */
export function nightsOf(request: QuoteRequest): number | null {
  const nights = (Date.parse(`${request.checkout}T00:00:00Z`) - Date.parse(`${request.checkin}T00:00:00Z`)) / 86_400_000;
  return Number.isInteger(nights) && nights > 0 ? nights : null;
}
