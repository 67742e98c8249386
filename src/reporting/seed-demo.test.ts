// The demo partner of the first embedded start: made through clicks, bookings, reports and a sync.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../app.ts';
import { createSqliteClickStore } from '../clicks/sqlite-click-store.ts';
import { defaults } from '../defaults.ts';
import { SIM_CLICK_TIME_PARAM as SIM_PARAM } from '../sim/bookings.ts';
import { startTestApp, TEST_NOW, type TestApp } from '../test-support/start-test-app.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { SIM_CLICK_TIME_PARAM } from './seed-demo.ts';
import type { TransactionRecord } from './transaction.ts';

const CLICKS = 400;
let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp({ stays: 2_000, app: { geocoder: { geocode: async () => null }, demo: true, demoClicks: CLICKS } });
  key = readFileSync(path.join(t.dataDir, 'demo-key.txt'), 'utf8').trim();
});
after(async () => {
  await t.close();
});

async function all(): Promise<TransactionRecord[]> {
  const res = await t.get(`/v1/reporting/transactions?thirdParty=${defaults.demoThirdParty}&format=json&dateFilter=bookedDate`, { 'x-api-key': key });
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
    assert.ok(records.every((r) => Date.parse(r.bookedDate) > TEST_NOW.getTime() - 366 * 86_400_000), 'records.every((r) => Date.parse(r.bookedDate) > TEST_NOW.getTime() - 366 * 86_400_000)');
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
      dataDir: t.dataDir, supplierUrls: t.sim.urls, now: t.clock.now, geocoder: { geocode: async () => null }, demo: true,
      demoClicks: CLICKS, reportSyncIntervalMs: null,
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
