import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaults } from '../../defaults.ts';
import { fromUsd, ratePerUsd, toUsd } from '../../search/currency.ts';
import { simQuote } from '@staygate/sim';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { SUPPLIER_IDS, type SupplierId } from '../../types.ts';

const V3 = '/v3/accommodations';
const PARIS_BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
const DATES = { checkin: '2027-03-05', checkout: '2027-03-08' };
const DATED = `${PARIS_BOX}&checkin=${DATES.checkin}&checkout=${DATES.checkout}`;

let now = 0;
/** The test app's quote deadlines (far beyond any healthy answer): nothing here depends on the machine's speed. */
let t: TestApp;
/**
 * A second gateway whose searches wait only 400 ms for prices, for a hung and a too-slow supplier.
 * A healthy supplier answering within 400 ms would be a wall-clock budget on a shared machine
 * (test files run concurrently), so there the healthy suppliers' prices come from the quote cache.
 */
let short: TestApp;
before(async () => {
  t = await startTestApp({ app: { clock: () => now } });
  short = await startTestApp({ settings: { quoteBudgetMs: 400 }, app: { clock: () => now } });
});
after(async () => {
  await t.close();
  await short.close();
});

/** The supplier id of a supplier entry, read back from its deeplink. */
function idOf(entry: any): string {
  return decodeURIComponent(new URL(entry.link).pathname.split('/').pop()!);
}

interface Party {
  adults?: number;
  children?: number;
  childrenAges?: number[] | null;
  rooms?: number;
}

/** What the gateway must show for one supplier entry: the simulator's own answer, converted. */
function expected(supplier: SupplierId, id: string, currency: string, party: Party = {}): number | 'sold out' {
  const q = simQuote(t.world, supplier, id, {
    ...DATES,
    adults: party.adults ?? 2,
    children: party.children ?? 0,
    childrenAges: party.childrenAges ?? null,
    rooms: party.rooms ?? 1,
    currency,
  });
  if (!q.available) return 'sold out';
  return q.currency === currency ? q.total : fromUsd(toUsd(q.total, q.currency)!, currency);
}

function assertPricesMatch(body: any, currency: string, party: Party = {}): number {
  let priced = 0;
  for (const r of body.results) {
    for (const [supplier, entry] of Object.entries<any>(r.suppliers)) {
      assert.notEqual(entry.price, null, `${supplier} answered`);
      assert.equal(entry.price.total, expected(supplier as SupplierId, idOf(entry), currency, party), `${r.id} ${supplier}`);
      priced++;
    }
  }
  return priced;
}

/** Runs a search with a supplier broken, past the quote cache (so the supplier is really asked). */
async function withFault<T>(supplier: SupplierId, mode: string, run: () => Promise<T>): Promise<T> {
  now += defaults.quoteCacheTtlMs + 1;
  await t.sim.setFault(supplier, mode);
  try {
    return await run();
  } finally {
    await t.sim.setFault(supplier, null);
    now += defaults.breakerOpenMs + 1; // let any breaker the fault opened close again
    await t.get(`${V3}?${DATED}&currency=USD&adults=1`); // one trial call to close it
  }
}

/**
 * Searches `query` on `app` until every supplier but `except` priced it (each search caches what
 * answered, so this ends however slow the machine is); returns the last answer.
 */
async function untilPriced(app: TestApp, query: string, except?: SupplierId): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const res = await app.get(query);
    const missing = res.body.meta.unavailableSuppliers.filter((u: any) => u.supplier !== except);
    if (missing.length === 0) return res.body;
    assert.ok(attempt < 50, `${query}: still unpriced after ${attempt} searches: ${JSON.stringify(missing)}`);
  }
}

/**
 * On the short-budget gateway: `supplier` broken in `mode` for the searches of `run`, while every
 * other supplier's prices for `query` are in the quote cache (asked while `supplier` hung: its
 * calls, ended by the budget, leave nothing cached and are not held against it), so that only
 * `supplier` is asked and only its outcome depends on the 400 ms budget.
 */
async function withFaultOnShort<T>(supplier: SupplierId, mode: string, query: string, run: () => Promise<T>): Promise<T> {
  now += defaults.quoteCacheTtlMs + 1;
  await short.sim.setFault(supplier, 'timeout');
  try {
    await untilPriced(short, query, supplier);
    await short.sim.setFault(supplier, mode);
    return await run();
  } finally {
    await short.sim.setFault(supplier, null);
    now += defaults.breakerOpenMs + 1; // let any breaker the fault opened close again
    await untilPriced(short, `${V3}?${DATED}&currency=USD&adults=1`); // its trial call closes it
  }
}

describe('dated search', () => {
  test('every supplier entry carries the whole-stay total in meta.currency, and meta echoes the dates', async () => {
    const res = await t.get(`${V3}?${DATED}&pageSize=30`);
    assert.equal(res.status, 200);
    const { meta } = res.body;
    assert.equal(meta.checkin, DATES.checkin);
    assert.equal(meta.checkout, DATES.checkout);
    assert.equal(meta.nights, 3);
    assert.equal(meta.currency, 'USD');
    assert.ok(assertPricesMatch(res.body, 'USD') >= 30, "assertPricesMatch(res.body, 'USD') >= 30");
    assert.ok(meta.total <= defaults.pricedCandidates, 'only a bounded number of candidates is priced');
  });

  test('static searches carry no price and ignore min/max', async () => {
    const a = await t.get(`${V3}?${PARIS_BOX}`);
    const b = await t.get(`${V3}?${PARIS_BOX}&min=500&max=600`);
    assert.equal(a.body.meta.total, b.body.meta.total);
    assert.equal(a.body.meta.checkin, undefined);
    for (const r of b.body.results) for (const e of Object.values<any>(r.suppliers)) assert.equal('price' in e, false);
  });

  test('conversion: EUR, JPY (no minor unit), case-insensitive codes, and a code without a rate falls back to USD', async () => {
    const eur = await t.get(`${V3}?${DATED}&currency=eur&pageSize=20`);
    assert.equal(eur.body.meta.currency, 'EUR');
    assertPricesMatch(eur.body, 'EUR');
    const jpy = await t.get(`${V3}?${DATED}&currency=JPY&pageSize=20`);
    assertPricesMatch(jpy.body, 'JPY');
    for (const r of jpy.body.results)
      for (const e of Object.values<any>(r.suppliers)) assert.ok(Number.isInteger(e.price.total), 'Number.isInteger(e.price.total)');
    assert.equal(ratePerUsd('MNT'), undefined);
    assert.ok(Intl.supportedValuesOf('currency').includes('MNT'), "Intl.supportedValuesOf('currency').includes('MNT')");
    const mnt = await t.get(`${V3}?${DATED}&currency=MNT`);
    assert.equal(mnt.status, 200);
    assert.equal(mnt.body.meta.currency, 'USD');
  });

  test('adults, children ages and rooms reach the suppliers and change prices and availability', async () => {
    const parties: [string, Party][] = [
      ['adults=3', { adults: 3 }],
      ['children=2&childrenAges=1,9', { children: 2, childrenAges: [1, 9] }],
      ['children=1', { children: 1 }],
      ['rooms=2&adults=4', { rooms: 2, adults: 4 }],
    ];
    const base = await t.get(`${V3}?${DATED}&pageSize=10`);
    for (const [params, party] of parties) {
      const res = await t.get(`${V3}?${DATED}&pageSize=10&${params}`);
      assert.equal(res.status, 200, params);
      assertPricesMatch(res.body, 'USD', party);
      assert.notDeepEqual(
        res.body.results.map((r: any) => Object.values<any>(r.suppliers).map((e) => e.price.total)),
        base.body.results.map((r: any) => Object.values<any>(r.suppliers).map((e) => e.price.total)),
        params,
      );
    }
    const crowd = await t.get(`${V3}?${DATED}&adults=30`);
    assert.equal(crowd.body.meta.total, 0, 'no stay sleeps 30 in one room');
  });

  test('a stay sold out at every supplier is dropped; a supplier sold out loses its entry', async () => {
    // Find stays whose every listing is sold out, and stays sold out at one supplier only.
    let allSoldOut: string | null = null;
    let partly: { supplier: SupplierId; id: string } | null = null;
    for (const l of t.world.listings.supplier_a) {
      const siblings = SUPPLIER_IDS.flatMap((s) => t.world.listings[s].filter((x) => x.propertyId === l.propertyId));
      const states = siblings.map((x) => expected(x.supplier, x.supplierStayId, 'USD'));
      if (allSoldOut === null && states.every((s) => s === 'sold out')) allSoldOut = `supplier_a:${l.supplierStayId}`;
      if (partly === null && siblings.length > 1 && states[0] === 'sold out' && states.some((s) => s !== 'sold out')) {
        partly = { supplier: 'supplier_a', id: l.supplierStayId };
      }
      if (allSoldOut !== null && partly !== null) break;
    }
    assert.ok(allSoldOut && partly, 'the world has sold-out stays');
    const gone = await t.get(`${V3}?hotelids=${allSoldOut}&checkin=${DATES.checkin}&checkout=${DATES.checkout}`);
    assert.equal(gone.body.meta.total, 0);
    const kept = await t.get(`${V3}?hotelids=${partly.supplier}:${partly.id}&checkin=${DATES.checkin}&checkout=${DATES.checkout}`);
    assert.equal(kept.body.meta.total, 1);
    assert.equal(partly.supplier in kept.body.results[0].suppliers, false);
    assert.ok(Object.keys(kept.body.results[0].suppliers).length >= 1, 'Object.keys(kept.body.results[0].suppliers).length >= 1');
  });

  test('min/max keep stays with a supplier priced within the per-night USD bounds', async () => {
    const res = await t.get(`${V3}?${DATED}&min=100&max=220&pageSize=100`);
    const all = await t.get(`${V3}?${DATED}`);
    assert.ok(
      res.body.meta.total > 0 && res.body.meta.total < all.body.meta.total,
      'res.body.meta.total > 0 && res.body.meta.total < all.body.meta.total',
    );
    for (const r of res.body.results) {
      const perNight = Object.values<any>(r.suppliers).map((e) => e.price.total / 3);
      assert.ok(
        perNight.some((p) => p >= 100 && p <= 220),
        `${r.id}: ${perNight}`,
      );
    }
  });
});

describe('supplier failures', () => {
  for (const mode of ['down', 'timeout', 'error', 'malformed', 'slow:2000']) {
    test(`${mode}: that supplier's entries say price null, the others are priced, stays are kept and counted`, async () => {
      const query = `${V3}?${DATED}&pageSize=100&adults=1`;
      const healthy = await untilPriced(short, query);
      // How fast it answers (within the quote budget) is measured by bench/dated-search.ts.
      const res = await withFaultOnShort('supplier_b', mode, query, () => short.get(query));
      assert.equal(res.status, 200);
      let nulls = 0;
      for (const r of res.body.results) {
        for (const [supplier, e] of Object.entries<any>(r.suppliers)) {
          if (supplier === 'supplier_b') {
            assert.equal(e.price, null);
            nulls++;
          } else assert.equal(typeof e.price.total, 'number');
        }
      }
      assert.ok(nulls > 0, 'supplier_b entries are present with price null');
      assert.ok(res.body.meta.total >= healthy.meta.total, 'stays of the failed supplier are kept and counted');
      const filtered = await withFaultOnShort('supplier_b', mode, query, () => short.get(`${query}&min=1&max=2`));
      assert.ok(filtered.body.results.length > 0, 'price-filtered searches keep stays with unknown prices');
      for (const r of filtered.body.results) assert.equal(r.suppliers.supplier_b.price, null);
    });
  }

  test('slow within the budget is priced, just later', async () => {
    const started = performance.now();
    const res = await withFault('supplier_c', 'slow:150', () => t.get(`${V3}?${DATED}&pageSize=50&rooms=1&adults=2&currency=GBP`));
    assert.ok(performance.now() - started >= 150, 'performance.now() - started >= 150');
    let priced = 0;
    for (const r of res.body.results)
      if (r.suppliers.supplier_c) {
        assert.equal(typeof r.suppliers.supplier_c.price.total, 'number');
        priced++;
      }
    assert.ok(priced > 0, 'priced > 0');
  });

  test('the breaker opens after consecutive failures, stays open 30 s, then lets one trial through', async () => {
    now += defaults.quoteCacheTtlMs + 1;
    await t.sim.setFault('supplier_d', 'error');
    for (let i = 0; i < defaults.breakerFailureThreshold; i++) await t.get(`${V3}?${DATED}&adults=2&children=${i % 3}`);
    await t.sim.setFault('supplier_d', null);
    // Healthy again, but the breaker is open: no call is made, prices stay unknown.
    const open = await t.get(`${V3}?${DATED}&adults=1&rooms=1&children=1&pageSize=100`);
    const entries = open.body.results.flatMap((r: any) => (r.suppliers.supplier_d ? [r.suppliers.supplier_d] : []));
    assert.ok(entries.length > 0, 'entries.length > 0');
    for (const e of entries) assert.equal(e.price, null);
    now += defaults.breakerOpenMs + 1;
    const closed = await t.get(`${V3}?${DATED}&adults=1&rooms=1&children=1&pageSize=100`);
    const after = closed.body.results.flatMap((r: any) => (r.suppliers.supplier_d ? [r.suppliers.supplier_d] : []));
    assert.ok(after.length > 0, 'after.length > 0');
    for (const e of after) assert.equal(typeof e.price.total, 'number');
  });
});

describe('quote cache', () => {
  test('X-Cache is HIT when no supplier was asked, MISS otherwise; entries expire', async () => {
    const q = `${V3}?${DATED}&adults=2&children=1&childrenAges=4&currency=CHF`;
    assert.equal((await t.get(q)).headers['x-cache'], 'MISS');
    const hit = await t.get(q);
    assert.equal(hit.headers['x-cache'], 'HIT');
    assertPricesMatch(hit.body, 'CHF', { children: 1, childrenAges: [4] });
    assert.equal((await t.get(q.replace('currency=CHF', 'currency=CAD'))).headers['x-cache'], 'MISS', 'currency is part of the key');
    assert.equal((await t.get(q.replace('childrenAges=4', 'childrenAges=5'))).headers['x-cache'], 'MISS', 'ages are part of the key');
    now += defaults.quoteCacheTtlMs + 1;
    assert.equal((await t.get(q)).headers['x-cache'], 'MISS', 'expired entries ask again');
    assert.equal((await t.get(`${V3}?${PARIS_BOX}`)).headers['x-cache'], 'HIT', 'a static search asks no supplier');
  });
});
