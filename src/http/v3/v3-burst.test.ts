// A burst of dated searches with every supplier healthy (issue 13, defect 1): searches whose
// budget runs out while their calls queue get null prices with the reason `busy`, but no breaker
// opens, and the next search is priced by every supplier.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { SUPPLIER_IDS } from '../../types.ts';

let t: TestApp;
before(async () => {
  // Calls take 20-40 ms and a search may wait 150 ms for its prices: sixty searches at once
  // queue far past that. The calls' own deadline is long, so nothing here is the suppliers' fault.
  t = await startTestApp({
    sim: { latencyMs: Object.fromEntries(SUPPLIER_IDS.map((s) => [s, [20, 40]])) },
    settings: { quoteBudgetMs: 150, quoteCallTimeoutMs: 60_000 },
  });
});
after(async () => {
  await t.close();
});

const PARIS_BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
const day = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

describe('a burst of dated searches', () => {
  test('opens no breaker on healthy suppliers; what did not fit the budget is named busy', async () => {
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.get(`/v3/accommodations?${PARIS_BOX}&checkin=${day(i)}&checkout=${day(i + 2)}&pageSize=20`)),
    );
    const reasons = new Set<string>();
    for (const res of burst) {
      assert.equal(res.status, 200);
      for (const u of res.body.meta.unavailableSuppliers) reasons.add(u.reason);
    }
    assert.ok(reasons.has('busy'), `the burst outran the budget: ${[...reasons].join()}`);
    assert.ok(!reasons.has('circuit_open'), 'no breaker opened during the burst');

    // The burst's last calls drain for a moment (a search then meets them in the queue: busy or
    // timeout); an open breaker would instead refuse every search for 30 s (circuit_open).
    let next;
    for (let i = 0; ; i++) {
      next = await t.get(`/v3/accommodations?${PARIS_BOX}&checkin=${day(100 + i)}&checkout=${day(102 + i)}&pageSize=20`);
      const unavailable = next.body.meta.unavailableSuppliers.map((u: any) => u.reason);
      assert.ok(!unavailable.includes('circuit_open'), `search ${i} after the burst: ${unavailable.join()}`);
      if (unavailable.length === 0 || i === 50) break;
    }
    assert.deepEqual(next.body.meta.unavailableSuppliers, []);
    const shown = new Set<string>();
    for (const r of next.body.results) {
      for (const [supplier, entry] of Object.entries<any>(r.suppliers)) {
        shown.add(supplier);
        assert.notEqual(entry.price, null, `${r.id} ${supplier}`);
      }
    }
    assert.deepEqual(
      [...shown].sort(),
      [...SUPPLIER_IDS].filter((s) => shown.has(s)),
    );
  });
});
