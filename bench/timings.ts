// The timings the unit tests used to assert as wall-clock budgets (issue 13: a test asserts
// behaviour, a figure of speed belongs here, where the machine's load is part of the reading):
// 1. generating the default world (160,000 stays, the one-off city gazetteer load included), target < 5 s;
// 2. 1,000 warm gazetteer geocodes of a full street address, target < 1 s;
// 3. the quote service against a hung supplier: a call's own deadline (50 ms) and the caller's
//    budget (150 ms) with batches queued behind the hung one, each target < 1 s.
// Each is run a few times; the median and the worst are printed.
import { performance } from 'node:perf_hooks';
import { createGazetteerGeocoder } from '../src/geo/gazetteer-geocoder.ts';
import { generateWorld, startSimSuppliers } from '@staygate/sim';
import { createCircuitBreaker } from '../src/suppliers/circuit-breaker.ts';
import { createQuoteService } from '../src/suppliers/quote-service.ts';
import { createSuppliers } from '../src/suppliers/create-suppliers.ts';
import { simulatedSlot } from '../src/compose/supplier-slots.ts';
import { defaults } from '../src/defaults.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeRuns(runs: number, run: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

function report(what: string, times: number[], targetMs: number): void {
  console.log(
    `${what}: median ${median(times).toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms over ${times.length} runs (target < ${targetMs} ms)`,
  );
}

report('default world (160,000 stays) generated', await timeRuns(3, () => generateWorld({ seed: 42, stays: 160_000 })), 5_000);

const geocoder = createGazetteerGeocoder();
await geocoder.geocode('Paris'); // warm: the gazetteer loads on first use
report(
  '1,000 warm gazetteer geocodes',
  await timeRuns(5, async () => {
    for (let i = 0; i < 1_000; i++) await geocoder.geocode('12 Rue de Rivoli, Paris, France');
  }),
  1_000,
);

const sim = await startSimSuppliers({ world: generateWorld({ seed: 7, stays: 500 }), latencyMs: 0, faults: 'supplier_b=timeout' });
try {
  const [supplier] = createSuppliers([simulatedSlot('supplier_b', sim.slots.supplier_b)], defaults);
  const request = {
    checkin: '2027-03-01',
    checkout: '2027-03-04',
    adults: 2,
    children: 0,
    childrenAges: null,
    rooms: 1,
    currency: 'USD',
  } as const;
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `HB${i + 1}`);
  // A breaker that never opens: every run meets the hung supplier, not a refusal.
  const breaker = () => createCircuitBreaker({ failureThreshold: 1_000, openMs: defaults.breakerOpenMs });
  const withCallDeadline = createQuoteService({ supplier, settings: { ...defaults, quoteCallTimeoutMs: 50 }, breaker: breaker() });
  report(
    "hung supplier, a call's own 50 ms deadline (caller allows 10 s)",
    await timeRuns(5, () => withCallDeadline.quote({ ...request, supplierStayIds: ids(1) }, AbortSignal.timeout(10_000))),
    1_000,
  );
  const queued = createQuoteService({
    supplier,
    settings: { ...defaults, quoteConcurrency: 1, quoteCallTimeoutMs: 60_000 },
    breaker: breaker(),
  });
  report(
    "hung supplier, 250 ids in queued batches, caller's 150 ms budget",
    await timeRuns(5, () => queued.quote({ ...request, supplierStayIds: ids(250) }, AbortSignal.timeout(150))),
    1_000,
  );
} finally {
  await sim.close();
}
