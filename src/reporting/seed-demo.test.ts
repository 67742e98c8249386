// The demo partner of the first embedded start: made through clicks, bookings, reports and a sync.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../app.ts';
import { createSqliteKeyStore } from '../auth/sqlite-key-store.ts';
import { createSqliteClickStore } from '../clicks/sqlite-click-store.ts';
import { defaults } from '../defaults.ts';
import { SIM_CLICK_TIME_PARAM as SIM_PARAM } from '@staygate/sim';
import { startTestApp, TEST_NOW, type TestApp } from '../test-support/start-test-app.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { seedDemoPartner, SIM_CLICK_TIME_PARAM, type DemoClicks } from './seed-demo.ts';
import type { TransactionRecord } from './transaction.ts';
import { simulatedSlots } from '../compose/supplier-slots.ts';

// Each click has a new random id, so what it books is chance: at 400 clicks (~41 transactions) one
// run in ~200 lacked a Canceled record, a third device class or a supplier; at 1,000, ~1 in 10^6.
const CLICKS = 1_000;
let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp({ stays: 2_000, settings: { demoClicks: CLICKS }, app: { geocoder: { geocode: async () => null }, demo: true } });
  key = readFileSync(path.join(t.dataDir, 'demo-key.txt'), 'utf8').trim();
});
after(async () => {
  await t.close();
});

async function all(): Promise<TransactionRecord[]> {
  const res = await t.get(`/v1/reporting/transactions?thirdParty=${defaults.demoThirdParty}&format=json&dateFilter=bookedDate`, {
    'x-api-key': key,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.partnerId, defaults.demoAid);
  return res.body.data;
}

describe('the demo partner', () => {
  it('has a key in <data dir>/demo-key.txt, readable by its owner only, for its platform', async () => {
    assert.match(key, /^sg_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(path.join(t.dataDir, 'demo-key.txt')).mode & 0o777, 0o600);
    assert.equal((await t.get(`/v1/reporting/transactions?thirdParty=elsewhere`, { 'x-api-key': key })).status, 400);
  });

  it('has about a year of transactions, made from its backdated clicks', async () => {
    const records = await all();
    assert.ok(records.length >= 15, `${records.length} transactions`);
    const days = (Date.parse(records.at(-1)!.bookedDate) - Date.parse(records[0].bookedDate)) / 86_400_000;
    assert.ok(days > 250, `bookings over ${days} days`);
    assert.ok(
      records.every((r) => Date.parse(r.bookedDate) > TEST_NOW.getTime() - 366 * 86_400_000),
      'records.every((r) => Date.parse(r.bookedDate) > TEST_NOW.getTime() - 366 * 86_400_000)',
    );
    assert.deepEqual(new Set(records.map((r) => r.bookingStatus)), new Set(['Pending', 'Approved', 'Canceled']));
    assert.ok(new Set(records.map((r) => r.device)).size >= 3, 'new Set(records.map((r) => r.device)).size >= 3');
    assert.ok(new Set(records.map((r) => r.campaignId)).size >= 3, 'new Set(records.map((r) => r.campaignId)).size >= 3');

    // Every one of them goes back to a click of the demo aid, recorded at its (backdated) time.
    const clicks = createSqliteClickStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
    try {
      const demo = (await clicks.recent(100_000)).filter((c) => c.aid === defaults.demoAid);
      assert.equal(demo.length, CLICKS);
      const span = (Date.parse(demo[0].at) - Date.parse(demo.at(-1)!.at)) / 86_400_000;
      assert.ok(span > 330 && span <= 365, `clicks over ${span} days`);
      const bookings = SUPPLIER_IDS.flatMap((s) => [...t.sim.ledger.bookings(s)]);
      const clickIds = new Set(demo.map((c) => c.id));
      for (const record of records) {
        const booking = bookings.find((b) => b.supplier === record.provider && b.bookingId === record.bookingId);
        assert.ok(booking && clickIds.has(booking.clickId), record.bookingId);
        assert.equal(record.device, demo.find((c) => c.id === booking.clickId)!.device);
      }
    } finally {
      await clicks.close();
    }
  });

  it('is seeded once: a later start keeps the key and the history', async () => {
    const before = await all();
    const again = createApp({
      settings: { ...defaults, dataDir: t.dataDir, demoClicks: CLICKS, reportSyncIntervalMs: 0 },
      suppliers: simulatedSlots(t.sim.slots),
      now: t.clock.now,
      geocoder: { geocode: async () => null },
      demo: true,
    });
    try {
      await again.ready;
    } finally {
      await again.close();
    }
    assert.equal(readFileSync(path.join(t.dataDir, 'demo-key.txt'), 'utf8').trim(), key);
    assert.deepEqual(await all(), before);
  });

  it('backdates through the parameter the simulated booking pages know', () => {
    assert.equal(SIM_CLICK_TIME_PARAM, SIM_PARAM);
  });
});

describe('an interrupted demo seeding', () => {
  it('is logged on the next start and finished there: the same clicks at the same times, none made twice but in the batch it stopped in', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-seed-'));
    const keys = createSqliteKeyStore({ path: path.join(dataDir, 'staygate.sqlite') });
    // The booking pages the clicks lead to: a landing is an answer.
    const pages = http.createServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/book`;
    const made: string[] = [];
    /** The gateway's side of the clicks; `stopAt`: the click at which the process "dies". */
    const clicks = (stopAt: number | null): DemoClicks => ({
      links: async (query) => Array.from({ length: 5 }, (_, i) => `http://gw.test/go/stay-${query.length}-${i}`),
      click: async (link, at, userAgent) => {
        if (made.length === stopAt) throw new Error('the gateway stopped');
        made.push(`${at.toISOString()} ${link} ${userAgent}`);
        return `${pageUrl}?n=${made.length}`;
      },
    });
    const logs: string[] = [];
    const base = {
      dataDir,
      keys,
      sync: async () => [],
      settings: { ...defaults, demoClicks: 100, demoDays: 30 },
      log: (m: string) => logs.push(`log: ${m}`),
      warn: (m: string) => logs.push(`warn: ${m}`),
    };
    try {
      await assert.rejects(seedDemoPartner({ ...base, clicks: clicks(45), now: () => TEST_NOW }), /the gateway stopped/);
      const key = readFileSync(path.join(dataDir, 'demo-key.txt'), 'utf8');
      assert.deepEqual(logs, []);

      // The next start, a day later: the seeding's own clock is kept, so the clicks are the same.
      const result = await seedDemoPartner({ ...base, clicks: clicks(null), now: () => new Date(TEST_NOW.getTime() + 86_400_000) });
      assert.deepEqual(logs.slice(0, 1), ["warn: the demo partner's seeding was interrupted after 40 of 100 clicks; finishing it"]);
      assert.match(
        logs[1],
        /^log: demo partner "demo" seeded: 100 clicks over 30 days, .*\(finishing an interrupted seeding after its first 40 clicks\)/,
      );
      assert.equal(result?.resumedAfter, 40);
      assert.equal(new Set(made).size, 100, 'every click of the seeding made');
      assert.equal(made.length, 105, 'the 5 clicks of the batch it stopped in made again, no other');
      assert.equal(readFileSync(path.join(dataDir, 'demo-key.txt'), 'utf8'), key, 'the key made once');
      assert.equal((await keys.list()).filter((k) => k.aid === defaults.demoAid).length, 1);

      // Done: a later start does nothing and says nothing.
      assert.equal(await seedDemoPartner({ ...base, clicks: clicks(null), now: () => TEST_NOW }), null);
      assert.equal(logs.length, 2);
    } finally {
      await keys.close();
      await new Promise((resolve) => pages.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Polls a condition (no fixed sleep stands in for it); fails after `ms`. */
async function until(what: string, condition: () => boolean, ms: number): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a supplier down at the first start (issue 25)', () => {
  let down: TestApp;
  before(async () => {
    down = await startTestApp({
      stays: 2_000,
      sim: { faults: 'supplier_b=down' },
      settings: { demoClicks: CLICKS, contentRefreshMs: 0, contentRetryMs: 50 },
      app: { geocoder: { geocode: async () => null }, demo: true },
    });
  });
  after(async () => {
    await down.close();
  });

  it('the gateway is ready with the demo key; the demo partner is completed, every supplier in it, once the supplier answers, without a restart', async () => {
    const health = await down.get('/health');
    assert.equal(health.status, 200, 'ready: the others are served');
    assert.equal(health.body.suppliers.supplier_b.content, 'unavailable');
    const demoKey = readFileSync(path.join(down.dataDir, 'demo-key.txt'), 'utf8').trim();
    const progress = path.join(down.dataDir, 'demo-seeding.json');
    assert.ok(existsSync(progress), 'the seeding is not over while supplier_b has no content');

    await down.sim.setFault('supplier_b', null);
    // supplier_b's content is retried 50 ms doubling; the seeding's clicks follow it, then its sync.
    await until('the demo partner seeded', () => !existsSync(progress), 120_000);
    const res = await down.get(`/v1/reporting/transactions?thirdParty=${defaults.demoThirdParty}&format=json&dateFilter=bookedDate`, {
      'x-api-key': demoKey,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      new Set((res.body.data as TransactionRecord[]).map((r) => r.provider)),
      new Set(SUPPLIER_IDS),
      'transactions of every supplier, supplier_b included',
    );
    const clicks = createSqliteClickStore({ path: path.join(down.dataDir, 'staygate.sqlite') });
    try {
      const demo = (await clicks.recent(100_000)).filter((c) => c.aid === defaults.demoAid);
      assert.equal(demo.length, CLICKS, 'every click made once');
    } finally {
      await clicks.close();
    }
  });
});

describe('the demo partner of slots without a commission report API (Hotelbeds, Expedia Rapid)', () => {
  let imported: TestApp;
  before(async () => {
    imported = await startTestApp({
      stays: 2_000,
      withoutReport: ['supplier_b', 'supplier_d'],
      settings: { demoClicks: CLICKS },
      app: { geocoder: { geocode: async () => null }, demo: true },
    });
  });
  after(async () => {
    await imported.close();
  });

  it("has their transactions from the simulator's CSV export, imported as an operator would: the hub shows all four suppliers", async () => {
    const demoKey = readFileSync(path.join(imported.dataDir, 'demo-key.txt'), 'utf8').trim();
    const res = await imported.get(`/v1/reporting/transactions?thirdParty=${defaults.demoThirdParty}&format=json&dateFilter=bookedDate`, {
      'x-api-key': demoKey,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const records = res.body.data as TransactionRecord[];
    assert.deepEqual(new Set(records.map((r) => r.provider)), new Set(SUPPLIER_IDS), 'transactions of every supplier');
    const stores = await imported.openStores();
    try {
      const stats = await stores.transactions.stats();
      for (const supplier of ['supplier_b', 'supplier_d'] as const) {
        const { lastImport, syncedThrough, transactions } = stats.bySupplier[supplier];
        assert.equal(syncedThrough, null, `${supplier}: no report was read`);
        assert.equal(lastImport?.file, `transactions-${supplier}.csv`);
        // Everything the supplier booked in the year, as its export lists it, and nothing else.
        const booked = imported.sim.ledger.report(supplier, 0, imported.clock.now().getTime()).length;
        assert.deepEqual([lastImport?.rows, lastImport?.inserted, transactions], [booked, booked, booked], supplier);
      }
      assert.equal(stats.bySupplier.supplier_a.lastImport, null);
      assert.notEqual(stats.bySupplier.supplier_a.syncedThrough, null, 'supplier_a from its report');
    } finally {
      await stores.close();
    }
  });
});
