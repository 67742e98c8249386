// The soak's invariants as pure functions over what it recorded (bench/soak.ts), apart from the
// processes and the traffic so that each rule reads on its own.

/** One fault set through the simulator's control server: from when it was asked until it was cleared. */
export interface FaultSpan {
  supplier: string;
  mode: string;
  from: number;
  /** Infinity while still set. */
  to: number;
}

/**
 * Whether `supplier` was broken at some time in [at - lookbackMs, at]: a breaker opening then (or a
 * v1 5xx) has a cause. The lookback covers the breaker's 30 s pause, a half-open trial that meets
 * the fault's last second, and a call's own 1 s deadline.
 */
export function faultNear(faults: readonly FaultSpan[], supplier: string, at: number, lookbackMs: number): FaultSpan | null {
  return faults.find((f) => f.supplier === supplier && f.from <= at && f.to >= at - lookbackMs) ?? null;
}

/** An accepted request: when it was sent and when its answer was read (the limiter counted it in between). */
export interface Accepted {
  sent: number;
  answered: number;
}

/**
 * The most accepted requests that certainly fell in one window of `windowMs` of the limiter's
 * clock. The limiter counted each request at some instant between its sending and its answer, so
 * a set of requests fits in one window for sure when the last answer came less than `windowMs`
 * after the first sending: counting only such sets never blames the limiter for our own latency.
 * `counts` chooses the windows looked at (by default every one).
 */
export function maxInWindow(
  accepted: readonly Accepted[],
  windowMs: number,
  counts: (start: number, end: number) => boolean = () => true,
): number {
  const sorted = [...accepted].sort((a, b) => a.sent - b.sent);
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    const end = sorted[i].sent + windowMs;
    if (!counts(sorted[i].sent, end)) continue;
    let n = 0;
    for (let j = i; j < sorted.length && sorted[j].sent < end; j++) if (sorted[j].answered < end) n++;
    best = Math.max(best, n);
  }
  return best;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** A rule broken during the soak: counted, with the first few examples kept for the summary. */
export class Violations {
  readonly #byRule = new Map<string, { count: number; examples: string[] }>();

  add(rule: string, example: string): void {
    const entry = this.#byRule.get(rule) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 5) entry.examples.push(example);
    this.#byRule.set(rule, entry);
  }

  get total(): number {
    let n = 0;
    for (const { count } of this.#byRule.values()) n += count;
    return n;
  }

  lines(): string[] {
    const out: string[] = [];
    for (const [rule, { count, examples }] of this.#byRule) {
      out.push(`VIOLATION ${rule}: ${count}`);
      for (const example of examples) out.push(`    e.g. ${example}`);
    }
    return out;
  }
}
