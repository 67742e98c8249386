// The commission sync against the simulated suppliers over HTTP: what the incremental pull can
// miss (a change the supplier publishes later than the overlap), and the reconciliation that
// finds it and says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSqliteKeyStore } from '../auth/sqlite-key-store.ts';
import type { KeyStore } from '../auth/key-store.ts';
import type { ClickStore } from '../clicks/click-store.ts';
import { createSqliteClickStore } from '../clicks/sqlite-click-store.ts';
import { generateWorld, type SimBooking, type SimSuppliers, startSimSuppliers, stateAt, type World } from '@staygate/sim';
import { createBookingDemandDriver } from '../suppliers/booking-demand.ts';
import { createHotelbedsDriver } from '../suppliers/hotelbeds.ts';
import { createLiteapiDriver } from '../suppliers/liteapi.ts';
import { createExpediaRapidDriver } from '../suppliers/expedia-rapid.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { createSqliteTransactionStore } from './sqlite-transaction-store.ts';
import { createTransactionSync, type SupplierSyncResult } from './sync-transactions.ts';
import type { TransactionStore } from './transaction-store.ts';
import { REPORTED_SLOTS, testSupplierConfig } from '../test-support/supplier-config.ts';
import { defaults } from '../defaults.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 21, 10);

let now = T0;
let world: World;
let sim: SimSuppliers;
let suppliers: Supplier[];
let clicks: ClickStore;
let keys: KeyStore;

before(async () => {
  world = generateWorld({ seed: 5, stays: 600 });
  sim = await startSimSuppliers({ world, latencyMs: 0, now: () => now });
  suppliers = [
    createBookingDemandDriver(testSupplierConfig('supplier_a', sim.urls.supplier_a), defaults),
    createHotelbedsDriver(testSupplierConfig('supplier_b', sim.urls.supplier_b), defaults),
    createLiteapiDriver(testSupplierConfig('supplier_c', sim.urls.supplier_c), defaults),
    createExpediaRapidDriver(testSupplierConfig('supplier_d', sim.urls.supplier_d), defaults),
  ];
  clicks = createSqliteClickStore({ path: ':memory:' });
  keys = createSqliteKeyStore({ path: ':memory:' });
});
after(async () => {
  await Promise.all([sim.close(), clicks.close(), keys.close()]);
});

/**
 * The slot whose late back office the test plays: one whose API has a commission report (Hotelbeds'
 * and LiteAPI's slots have none the gateway reads; their transactions are imported).
 */
const LATE = REPORTED_SLOTS[0]!;

/** Lands clicks on Booking.com's page of a stay (the click in `label`) until one books (which does is a function of the click id). */
async function book(prefix: string): Promise<SimBooking> {
  assert.equal(LATE, 'supplier_a', 'the late records are played on Booking.com, the slot with a report');
  const listings = world.listings.supplier_a;
  for (let i = 0; i < 500; i++) {
    const before = sim.ledger.bookings(LATE).length;
    const listing = listings[i % listings.length];
    const country = listing.address.slice(-2).toLowerCase();
    await (
      await fetch(`${sim.urls[LATE]}/hotel/${country}/${listing.supplierStayId}.html?aid=aff-late&label=${prefix}-${i}`)
    ).arrayBuffer();
    const booked = sim.ledger.bookings(LATE);
    if (booked.length > before) return booked[booked.length - 1];
  }
  throw new Error('no landing booked');
}

describe('commission sync: late records', () => {
  let store: TransactionStore;
  before(() => {
    store = createSqliteTransactionStore({ path: ':memory:', settings: defaults });
  });
  after(async () => {
    await store.close();
  });

  it('the incremental pull misses a booking published later than the overlap; the reconciliation finds it and reports it', async () => {
    const overlapMs = DAY;
    const sync = createTransactionSync({
      suppliers,
      store,
      clicks,
      keys,
      now: () => new Date(now),
      settings: { ...defaults, reportSyncOverlapMs: overlapMs, reportReconcileDays: 30 },
    });
    assert.ok(
      (await sync.syncAll()).every((r) => r.ok),
      'the first pull',
    );

    const booking = await book('late');
    const onTime = await book('on-time');
    // The slot's back office enters the booking two days after each of its changes.
    const lagMs = overlapMs + DAY;
    sim.ledger.delayReports(LATE, booking.bookingId, lagMs);

    // The gateway pulls every 6 hours for a week: each pull re-reads a day before the previous end.
    for (let pulls = 0; pulls < 28; pulls++) {
      now += 6 * HOUR;
      assert.ok(
        (await sync.syncAll()).every((r) => r.ok),
        `pull ${pulls}`,
      );
    }
    assert.ok(await store.get(LATE, onTime.bookingId), 'a booking published on time is pulled');
    assert.equal(await store.get(LATE, booking.bookingId), null, 'the late booking was never in a pulled period');

    const seen: SupplierSyncResult[] = [];
    const results = await sync.reconcileAll({ onResult: (r) => seen.push(r) });
    assert.equal(seen.length, 4, 'each supplier heard of as it ends');
    assert.ok(
      results.every((r) => r.ok && r.kind === 'reconciliation'),
      JSON.stringify(results),
    );
    const c = results.find((r) => r.supplier === LATE)!;
    assert.equal(c.from, new Date(now - 30 * DAY).toISOString(), 'the last 30 days');
    const published = stateAt(booking, now - lagMs + 1)!;
    assert.deepEqual(c.missed, [{ bookingId: booking.bookingId, lastUpdated: new Date(published.at).toISOString(), kind: 'new' }]);
    assert.equal(c.inserted, 1);
    for (const r of results.filter((x) => x.supplier !== LATE)) assert.deepEqual(r.missed, [], r.supplier);
    assert.equal((await store.get(LATE, booking.bookingId))?.lastUpdated, new Date(published.at).toISOString());

    // Nothing more to find the next time.
    const again = await sync.reconcileAll();
    assert.ok(
      again.every((r) => r.ok && r.missed.length === 0),
      JSON.stringify(again),
    );
  });

  it('the schedule reconciles on its first pull and then whenever the last reconciliation is a day old', async () => {
    const sync = createTransactionSync({ suppliers, store, clicks, keys, now: () => new Date(now), settings: defaults });
    const kinds: string[] = [];
    let heard: () => void = () => undefined;
    const pulls = (n: number) =>
      new Promise<void>((resolve) => {
        heard = () => {
          if (kinds.length >= n) resolve();
        };
      });
    let ran = pulls(3);
    sync.start(
      { intervalMs: 1, reconcileIntervalMs: DAY },
      {
        onRun: (results) => {
          kinds.push(results[0].kind);
          heard();
        },
        onError: (error) => assert.fail(String(error)),
      },
    );
    try {
      await ran;
      assert.deepEqual(kinds.slice(0, 3), ['reconciliation', 'incremental', 'incremental']);
      const moved = kinds.length;
      ran = pulls(moved + 2);
      now += DAY;
      await ran;
      // The pull in flight when the clock moved may be an incremental one; the one after it is due.
      assert.ok(kinds.slice(moved, moved + 2).includes('reconciliation'), kinds.join(', '));
    } finally {
      await sync.stop();
    }
  });
});
