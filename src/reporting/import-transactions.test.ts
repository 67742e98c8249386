// The CSV import through a booted gateway: every slot whose API has no commission report
// (Hotelbeds, LiteAPI), and one whose report is turned off here, so that its imported rows can be held to
// what its report gives. The sync skips them and says so; the simulator's export of their
// bookings, made from real clicks through /go, is imported and attributed exactly as a report
// would have been; a second import changes nothing, an older export never overwrites a
// newer state, and a bad row imports nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectedCommissionUsdCents, type SimBooking } from '@staygate/sim';
import { createSuppliers } from '../app.ts';
import type { Click } from '../clicks/click-store.ts';
import { simulatedSlots } from '../compose/supplier-slots.ts';
import { startTestApp, TEST_NOW, type TestApp } from '../test-support/start-test-app.ts';
import { REPORTED_SLOTS } from '../test-support/supplier-config.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { describeSync } from './describe-sync.ts';
import { importTransactionsCsv } from './import-transactions.ts';
import { TransactionsCsvError } from './read-transactions-csv.ts';
import { createSqliteTransactionStore } from './sqlite-transaction-store.ts';
import { createTransactionSync } from './sync-transactions.ts';
import { defaults } from '../defaults.ts';

const DAY = 86_400_000;
/** A slot with a report, imported here: its imported rows are held to its report's. */
const REFERENCE = REPORTED_SLOTS[0]!;
const IMPORTED: SupplierId[] = SUPPLIER_IDS.filter((id) => id === REFERENCE || !REPORTED_SLOTS.includes(id));
const MOBILE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
let t: TestApp;
let stores: Awaited<ReturnType<TestApp['openStores']>>;
let early: Record<string, Uint8Array>;
let late: Record<string, Uint8Array>;

/** The simulator's export of a slot's changes from the first click to `to`, as the operator downloads it. */
async function exportOf(supplier: SupplierId, to: Date): Promise<Uint8Array> {
  const from = new Date(TEST_NOW.getTime() - DAY).toISOString();
  const res = await fetch(`${t.sim.controlUrl}/exports/transactions.csv?supplier=${supplier}&from=${from}&to=${to.toISOString()}`);
  assert.equal(res.status, 200);
  return new Uint8Array(await res.arrayBuffer());
}

/** Every booking of the slot: every click of this test is the partner's. */
const bookings = (supplier: SupplierId): readonly SimBooking[] => t.sim.ledger.bookings(supplier);
const importOf = (supplier: SupplierId, csv: Uint8Array | string, file = `${supplier}.csv`) =>
  importTransactionsCsv({ supplier, file, csv, store: stores.transactions, clicks: stores.clicks, keys: stores.keys, now: t.clock.now });

before(async () => {
  t = await startTestApp({ stays: 2_000, withoutReport: IMPORTED, app: { geocoder: { geocode: async () => null } } });
  const key = await t.createKey({ aid: 'aff-imp', partnerId: 'partner-imp', thirdParties: ['shop'] });
  // Real clicks through /go to the imported slots' booking pages, city after city, until
  // each has bookings (which clicks book is a function of their random ids: about one in eight).
  const cities: [number, number][] = [
    [48.8566, 2.3522],
    [51.5074, -0.1278],
    [41.9028, 12.4964],
    [40.7128, -74.006],
    [41.3874, 2.1686],
    [52.3676, 4.9041],
    [35.6762, 139.6503],
    [38.7223, -9.1393],
  ];
  // Every click is a new click id, so the cities are walked again (a few times at most) while a slot lacks bookings.
  const short = () => IMPORTED.filter((s) => bookings(s).length < 8);
  for (let i = 0; i < cities.length * 5 && short().length > 0; i++) {
    const [lat, lng] = cities[i % cities.length]!;
    const wanted = short();
    const res = await t.get(`/v3/accommodations?lat=${lat}&lng=${lng}&pageSize=100`, { 'x-api-key': key });
    for (const stay of res.body.results as any[]) {
      for (const [supplier, entry] of Object.entries(stay.suppliers as Record<string, { link: string }>)) {
        if (!wanted.includes(supplier as SupplierId)) continue;
        const url = new URL(entry.link);
        url.searchParams.set('campaign', 'summer-mail');
        const go = await t.app.http.inject({ url: url.pathname + url.search, headers: { 'user-agent': MOBILE } });
        assert.equal(go.statusCode, 302);
        await (await fetch(String(go.headers.location))).arrayBuffer();
      }
    }
  }
  for (const supplier of IMPORTED) assert.ok(bookings(supplier).length >= 8, `${supplier}: bookings to import`);
  // Exports three days on (every booking made, most still pending), and 120 days on (many stayed and approved, some canceled).
  t.clock.advance(3 * DAY);
  early = Object.fromEntries(await Promise.all(IMPORTED.map(async (s) => [s, await exportOf(s, t.clock.now())])));
  t.clock.advance(117 * DAY);
  late = Object.fromEntries(await Promise.all(IMPORTED.map(async (s) => [s, await exportOf(s, t.clock.now())])));
  stores = await t.openStores();
});
after(async () => {
  await stores?.close();
  await t?.close();
});

describe('transactions of slots without a commission report', () => {
  it('are skipped by the sync and the reconciliation, which say so per supplier and fail nothing', async () => {
    for (const results of [await t.app.transactions.syncAll(), await t.app.transactions.reconcileAll()]) {
      assert.deepEqual(
        results.map((r) => [r.supplier, r.ok, r.noReport ?? false]),
        SUPPLIER_IDS.map((s) => [s, true, IMPORTED.includes(s)]),
      );
      assert.equal(
        describeSync(results[1]),
        'supplier_b: no commission report API: import its CSV with `staygate transactions import --supplier supplier_b FILE.csv`',
      );
    }
    const stats = await stores.transactions.stats();
    for (const supplier of IMPORTED) {
      assert.deepEqual([stats.bySupplier[supplier].transactions, stats.bySupplier[supplier].syncedThrough], [0, null], supplier);
    }
  });

  it('come from the CSV export, attributed to the click, its partner, campaign and device, the commission converted exactly', async () => {
    for (const supplier of IMPORTED) {
      const first = await importOf(supplier, early[supplier], 'early.csv');
      const all = t.sim.ledger.report(supplier, 0, t.clock.now().getTime());
      assert.deepEqual([first.rows, first.inserted, first.updated, first.unattributed], [first.rows, first.rows, 0, 0]);
      const result = await importOf(supplier, late[supplier], 'late.csv');
      assert.equal(result.rows, all.length);
      assert.equal(result.inserted, all.length - first.rows);
      assert.ok(result.updated > 0, `${supplier}: bookings changed since the early export`);
      assert.equal(result.unattributed, 0);
      const clicks = new Map<string, Click>((await stores.clicks.get(all.map((e) => e.booking.clickId))).map((c) => [c.id, c]));
      for (const { booking, state } of all) {
        const row = await stores.transactions.get(supplier, booking.bookingId);
        const click = clicks.get(booking.clickId)!;
        assert.deepEqual(
          [row?.clickId, row?.aid, row?.partnerId, row?.campaign, row?.device],
          [click.id, 'aff-imp', 'partner-imp', 'summer-mail', 'mobile'],
          booking.bookingId,
        );
        assert.equal(row?.lastUpdated, new Date(state.at).toISOString());
        assert.equal(row?.status, { pending: 'Pending', approved: 'Approved', canceled: 'Canceled', no_show: 'Canceled' }[state.status]);
        assert.equal(row?.commissionCents, expectedCommissionUsdCents(booking, state.status), `${booking.bookingId} (${supplier})`);
      }
      const { lastImport } = (await stores.transactions.stats()).bySupplier[supplier];
      assert.deepEqual(lastImport, {
        file: 'late.csv',
        importedAt: t.clock.now().toISOString(),
        rows: result.rows,
        inserted: result.inserted,
        updated: result.updated,
        unchanged: result.unchanged,
        unattributed: 0,
      });
    }
  });

  it('are the very rows a commission report of the same bookings gives', async () => {
    // The same drivers with their reports (the simulator still serves them), synced into a store of their own.
    const reference = createSqliteTransactionStore({ path: ':memory:', settings: defaults });
    try {
      const sync = createTransactionSync({
        suppliers: createSuppliers(simulatedSlots(t.sim.slots), defaults).filter((s) => s.id === REFERENCE),
        store: reference,
        clicks: stores.clicks,
        keys: stores.keys,
        now: t.clock.now,
        settings: defaults,
      });
      assert.ok(
        (await sync.syncAll()).every((r) => r.ok && r.received > 0),
        'the reports read',
      );
      for (const { booking } of t.sim.ledger.report(REFERENCE, 0, t.clock.now().getTime())) {
        const reported = await reference.get(REFERENCE, booking.bookingId);
        assert.ok(reported !== null, booking.bookingId);
        assert.deepEqual(await stores.transactions.get(REFERENCE, booking.bookingId), reported, booking.bookingId);
      }
    } finally {
      await reference.close();
    }
  });

  it('change nothing when the same file is imported again, nor when an older export comes after a newer one', async () => {
    for (const supplier of IMPORTED) {
      const ids = t.sim.ledger.report(supplier, 0, t.clock.now().getTime()).map((e) => e.booking.bookingId);
      const held = await Promise.all(ids.map((id) => stores.transactions.get(supplier, id)));
      const again = await importOf(supplier, late[supplier], 'late.csv');
      assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, ids.length], supplier);
      const older = await importOf(supplier, early[supplier], 'early.csv');
      assert.deepEqual([older.inserted, older.updated, older.unchanged], [0, 0, older.rows], supplier);
      assert.deepEqual(
        await Promise.all(ids.map((id) => stores.transactions.get(supplier, id))),
        held,
        `${supplier}: the rows as they were`,
      );
    }
  });

  it('import nothing from a file with a bad row, and name its line and column', async () => {
    const before = await stores.transactions.stats();
    const text = new TextDecoder().decode(late.supplier_b).split('\r\n');
    // The commission of the fourth line (before its currency, rate and update time).
    text[3] = text[3].replace(/,\d+\.\d{2},([A-Z]{3}),([^,]*),([^,]+)$/, ',12.3.4,$1,$2,$3');
    assert.match(text[3], /,12\.3\.4,[A-Z]{3},/);
    // A booking not held yet on an earlier line: it must not be imported either.
    text.splice(1, 0, text[1].replace(/^[^,]+/, 'new-booking'));
    await assert.rejects(importOf('supplier_b', text.join('\r\n')), (error: unknown) => {
      assert.ok(error instanceof TransactionsCsvError, 'a TransactionsCsvError');
      assert.deepEqual(
        error.problems.map((p) => [p.line, p.column]),
        [[5, 'commission']],
      );
      return true;
    });
    assert.equal(await stores.transactions.get('supplier_b', 'new-booking'), null);
    assert.deepEqual(await stores.transactions.stats(), before, 'nothing imported, the last import as it was');
  });
});
