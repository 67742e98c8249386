// `staygate transactions sync|status`, the installed command against a running test gateway's data
// folder and its simulated suppliers; and what a hard kill right after a reported sync leaves.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { main } from '../cli/main.ts';
import type { SimBooking } from '@staygate/sim';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';
import { REPORTED_SLOTS } from '../test-support/supplier-config.ts';
import { createSqliteTransactionStore } from './sqlite-transaction-store.ts';
import { defaults } from '../defaults.ts';

const BIN = fileURLToPath(new URL('../../bin/staygate.js', import.meta.url));
const DAY = 86_400_000;
/** The summary's tail for the slots without a commission report (Hotelbeds): their CSV is imported instead. */
const unreported = SUPPLIER_IDS.length - REPORTED_SLOTS.length;
const IMPORT_NOTE = unreported === 0 ? '' : `; ${unreported} without a commission report API (staygate transactions import)`;
const N = REPORTED_SLOTS.length;
/** "1 supplier", "2 suppliers", as the summary writes them. */
const SUPPLIERS = `${N} supplier${N === 1 ? '' : 's'}`;
let t: TestApp;
let env: NodeJS.ProcessEnv;

before(async () => {
  t = await startTestApp({ stays: 1_500, app: { geocoder: { geocode: async () => null } } });
  // The command runs on the real clock: the clicks are made a few days back, and the suppliers'
  // clock stops just before now.
  t.clock.set(new Date(Date.now() - 4 * DAY));
  const key = await t.createKey({ aid: 'aff-cli', thirdParties: ['shop'] });
  const links: string[] = [];
  for (const [lat, lng] of [
    [48.8566, 2.3522],
    [51.5074, -0.1278],
    [41.9028, 12.4964],
  ]) {
    const res = await t.get(`/v3/accommodations?lat=${lat}&lng=${lng}&pageSize=60`, { 'x-api-key': key });
    for (const stay of res.body.results as any[]) {
      // Only the slots whose report the sync reads: the others' bookings come by CSV import.
      for (const [supplier, entry] of Object.entries(stay.suppliers as Record<string, { link: string }>))
        if ((REPORTED_SLOTS as readonly string[]).includes(supplier)) links.push(entry.link);
    }
  }
  // Each /go is a new click id, and about one landing in eight books: one pass over the links
  // gave a reported supplier 2 to 5 bookings, now and then none. Click until each has a few.
  const booked = () => Math.min(...REPORTED_SLOTS.map((s) => t.sim.ledger.bookings(s).length));
  for (let round = 0; round < 20 && booked() < 5; round++) {
    for (const link of links) {
      const url = new URL(link);
      const go = await t.app.http.inject({
        url: url.pathname + url.search,
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
      });
      await (await fetch(String(go.headers.location))).arrayBuffer();
    }
  }
  assert.ok(booked() >= 5, `every reported supplier booked a few: ${booked()}`);
  t.clock.set(new Date(Date.now() - 60_000));
  env = { ...process.env, STAYGATE_DATA_DIR: t.dataDir };
  // Each slot configured as an operator would a real one: its API, URL and credentials.
  for (const id of SUPPLIER_IDS) {
    const { api, url, key, secret, affiliateId } = t.sim.slots[id];
    const prefix = `STAYGATE_${id.toUpperCase()}_`;
    Object.assign(env, {
      [`${prefix}API`]: api,
      [`${prefix}URL`]: url,
      [`${prefix}KEY`]: key,
      [`${prefix}SECRET`]: secret,
      [`${prefix}AFFILIATE_ID`]: affiliateId,
    });
  }
});
after(async () => {
  await t.close();
});

const LINE = /^(supplier_[a-d]): (\d+) records? of the changes (\S+) \.\. (\S+): (\d+) new, (\d+) updated, (\d+) unchanged/;

describe('staygate transactions', () => {
  it('loses nothing it reported when killed (SIGKILL) right after a report was applied', async () => {
    const child = spawn(process.execPath, [BIN, 'transactions', 'sync'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // The first supplier line: its report is in the database. Killed at once, the others in flight.
    const reported = await new Promise<RegExpExecArray>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        // Pulls run concurrently: a supplier with no bookings in the window may report first, and
        // proves nothing about durability. Kill on the first report that wrote rows.
        const match = out
          .split('\n')
          .map((line) => LINE.exec(line))
          .find((m) => m !== null && Number(m[2]) > 0);
        if (match) {
          child.kill('SIGKILL');
          resolve(match);
        }
      });
      child.on('exit', () => reject(new Error(`exited before reporting: ${out} ${stderr}`)));
    });
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(child.signalCode, 'SIGKILL');

    const [, supplier, received, from, to, inserted] = reported;
    assert.equal(received, inserted, 'a first sync: every record new');
    const expected = t.sim.ledger.report(supplier as SupplierId, Date.parse(from), Date.parse(to));
    assert.equal(expected.length, Number(received));
    assert.ok(expected.length > 0, `${supplier} reported bookings`);

    const db = new Database(path.join(t.dataDir, 'staygate.sqlite'), { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
    const store = createSqliteTransactionStore({
      path: path.join(t.dataDir, 'staygate.sqlite'),
      settings: { ...defaults, reportingReadConnections: 0 },
    });
    try {
      for (const { booking, state } of expected) {
        const row = await store.get(booking.supplier, booking.bookingId);
        assert.equal(row?.lastUpdated, new Date(state.at).toISOString(), booking.bookingId);
        assert.equal(row?.aid, 'aff-cli');
      }
      const stats = await store.stats();
      assert.equal(stats.bySupplier[supplier as SupplierId].syncedThrough, to);
      // The reports of the others: all of them, or nothing (the kill came in between).
      for (const other of SUPPLIER_IDS.filter((s) => s !== supplier)) {
        const held = stats.bySupplier[other].transactions;
        const all = t.sim.ledger.report(other, Date.parse(from), Date.parse(to)).length;
        assert.ok(held === 0 || held === all, `${other}: ${held} of ${all}`);
      }
    } finally {
      await store.close();
    }
  });

  it('sync brings every supplier up to date, and says so; status tells what is held', async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
        );
      });
    const sync = await run('transactions', 'sync');
    assert.equal(sync.code, 0, `${sync.stdout}${sync.stderr}`);
    const lines = sync.stdout.trim().split('\n');
    assert.equal(lines.filter((l) => LINE.test(l)).length, N);
    assert.equal(lines.at(-1), `synced ${N} of ${SUPPLIERS}${IMPORT_NOTE}`);
    const status = await run('transactions', 'status');
    assert.equal(status.code, 0, status.stderr);
    const total = REPORTED_SLOTS.reduce((a, s) => a + t.sim.ledger.report(s, 0, Date.now()).length, 0);
    assert.match(status.stdout, new RegExp(`^${total} transactions?, 0 owned by no partner`));
  });

  it('reconcile finds and names what the incremental sync missed: a booking published later than the overlap', async () => {
    const run = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [BIN, ...args], { env: { ...env, ...extra } }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
        );
      });
    // A landing three days back (the simulator's booking pages take a past time), until one books.
    const simNow = t.clock.now().getTime();
    const listings = t.world.listings.supplier_a;
    let late: SimBooking | undefined;
    for (let i = 0; i < 400 && late === undefined; i++) {
      const before = t.sim.ledger.bookings('supplier_a').length;
      const at = new Date(simNow - 3 * DAY).toISOString();
      // supplier_a is Booking.com: the stay's own page, the click in `label`.
      const country = listings[i].address.slice(-2).toLowerCase();
      await (
        await fetch(
          `${t.sim.urls.supplier_a}/hotel/${country}/${listings[i].supplierStayId}.html?aid=aff-cli&label=late-${i}&simClickTime=${at}`,
        )
      ).arrayBuffer();
      if (t.sim.ledger.bookings('supplier_a').length > before) late = t.sim.ledger.bookings('supplier_a').at(-1);
    }
    assert.ok(late, 'a landing booked');
    // supplier_a's back office publishes it only now, a day or more after it was booked.
    t.sim.ledger.delayReports('supplier_a', late.bookingId, simNow - late.bookedAt);
    const overlap = { STAYGATE_REPORT_SYNC_OVERLAP_MS: String(3_600_000) };

    const sync = await run(['transactions', 'sync'], overlap);
    assert.equal(sync.code, 0, `${sync.stdout}${sync.stderr}`);
    const store = createSqliteTransactionStore({
      path: path.join(t.dataDir, 'staygate.sqlite'),
      settings: { ...defaults, reportingReadConnections: 0 },
    });
    try {
      assert.equal(await store.get('supplier_a', late.bookingId), null, 'the incremental sync never reads that far back');
      const reconcile = await run(['transactions', 'reconcile'], overlap);
      assert.equal(reconcile.code, 0, `${reconcile.stdout}${reconcile.stderr}`);
      const line = reconcile.stdout.split('\n').find((l) => l.startsWith('supplier_a: '));
      assert.match(
        line ?? '',
        new RegExp(
          `reconciliation: found 1 the incremental sync missed .*: ${late.bookingId} \\(new, changed ${new Date(late.bookedAt).toISOString()}\\)`,
        ),
        reconcile.stdout,
      );
      assert.ok(
        reconcile.stdout.endsWith(`\nreconciled ${N} of ${SUPPLIERS} over 30 days: 1 the incremental sync missed${IMPORT_NOTE}\n`),
        reconcile.stdout,
      );
      assert.equal((await store.get('supplier_a', late.bookingId))?.lastUpdated, new Date(late.bookedAt).toISOString());
      const again = await run(['transactions', 'sync', '--full'], overlap);
      assert.ok(
        again.stdout.endsWith(`\nreconciled ${N} of ${SUPPLIERS} over 30 days: 0 the incremental sync missed${IMPORT_NOTE}\n`),
        again.stdout,
      );
    } finally {
      await store.close();
    }
  });

  it('exits quietly when its reader goes away (staygate transactions status | head -1): no EPIPE crash', async () => {
    const child = spawn(process.execPath, [BIN, 'transactions', 'status'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader is gone before the first line is written, as `head -1` is after reading its line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  it('refuses wrong usage (exit 2), and fails (exit 1) when a supplier cannot be reached', async () => {
    const run = async (args: string[], runEnv: NodeJS.ProcessEnv = env) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, runEnv);
      return { code, stdout: out.join('\n'), stderr: err.join('\n') };
    };
    assert.equal((await run(['transactions'])).code, 2);
    assert.equal((await run(['transactions', 'frobnicate'])).code, 2);
    assert.equal((await run(['transactions', 'sync', 'extra'])).code, 2);
    assert.equal((await run(['transactions', 'reconcile', '--full'])).code, 2);
    const none = await run(['transactions', 'sync'], { STAYGATE_DATA_DIR: t.dataDir });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no suppliers to ask/);
    const failing = REPORTED_SLOTS.at(-1)!;
    await t.sim.setFault(failing, 'error');
    try {
      const failed = await run(['transactions', 'sync']);
      assert.equal(failed.code, 1);
      assert.match(failed.stdout, new RegExp(`${failing}: FAILED, nothing applied`));
      assert.ok(failed.stdout.endsWith(`synced ${N - 1} of ${SUPPLIERS}${IMPORT_NOTE}`), failed.stdout);
    } finally {
      await t.sim.setFault(failing, null);
    }
  });
});
