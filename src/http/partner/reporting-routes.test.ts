// Partner reporting end to end: real /go clicks -> the simulated suppliers' booking pages ->
// their bookings and commission reports (each API's own) -> sync -> GET /v1/reporting/transactions.
// A slot whose API has no commission report (Hotelbeds) gets its transactions from a CSV import,
// tested apart (reporting/import-transactions.test.ts): here, the bookings of the reported slots.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createSuppliers } from '../../app.ts';
import { createSqliteKeyStore } from '../../auth/sqlite-key-store.ts';
import type { Click } from '../../clicks/click-store.ts';
import { createSqliteClickStore } from '../../clicks/sqlite-click-store.ts';
import { createSqliteTransactionStore } from '../../reporting/sqlite-transaction-store.ts';
import { attribute, createTransactionSync } from '../../reporting/sync-transactions.ts';
import { unescapeFormula } from '../../reporting/transaction-csv.ts';
import type { TransactionStore } from '../../reporting/transaction-store.ts';
import { TRANSACTION_FIELDS, type TransactionRecord } from '../../reporting/transaction.ts';
import { expectedCommissionUsdCents, type SimBooking, stateAt } from '@staygate/sim';
import type { CommissionRecord } from '../../suppliers/supplier.ts';
import { startTestApp, TEST_NOW, type TestApp } from '../../test-support/start-test-app.ts';
import { REPORTED_SLOTS } from '../../test-support/supplier-config.ts';
import { simulatedSlots } from '../../compose/supplier-slots.ts';
import { defaults } from '../../defaults.ts';

const UA = {
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mobile:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  tablet: 'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  unknown: 'curl/8.5.0',
} as const;
const DAY = 86_400_000;
const EVIL_CAMPAIGN = '=HYPERLINK("http://evil.example","x"),-2+3';
const URL_BASE = '/v1/reporting/transactions';

let t: TestApp;
let keyA: string;
let keyA2: string;
let keyB: string;
let keyNoPlatform: string;
let transactions: TransactionStore;
const clicksById = new Map<string, Click>();

/** Clicks each deeplink (path and query) as a traveller, landing on the booking page. */
async function clickThrough(links: string[], campaign: string | null, devices: (keyof typeof UA)[]): Promise<void> {
  for (const [i, link] of links.entries()) {
    const url = new URL(link);
    if (campaign !== null) url.searchParams.set('campaign', campaign);
    const res = await t.app.http.inject({ url: url.pathname + url.search, headers: { 'user-agent': UA[devices[i % devices.length]] } });
    assert.equal(res.statusCode, 302, res.body);
    const landing = await fetch(String(res.headers.location));
    assert.equal(landing.status, 200);
  }
}

async function linksFor(key: string, lat: number, lng: number, pageSize = 40): Promise<string[]> {
  const res = await t.get(`/v3/accommodations?lat=${lat}&lng=${lng}&pageSize=${pageSize}`, { 'x-api-key': key });
  assert.equal(res.status, 200);
  return (res.body.results as any[]).flatMap((r) => Object.values(r.suppliers as Record<string, { link: string }>).map((e) => e.link));
}

/** The slots whose API has a commission report, which the sync reads. */
const reported = REPORTED_SLOTS;

function allBookings(): SimBooking[] {
  return reported.flatMap((s) => [...t.sim.ledger.bookings(s)]);
}

async function report(key: string | null, query: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return t.get(`${URL_BASE}?${query}`, key === null ? {} : { 'x-api-key': key });
}

/** All of a key's transactions in JSON (its own platform unless `query` names one). */
async function json(key: string, query = ''): Promise<TransactionRecord[]> {
  const platform = query.includes('thirdParty=') ? '' : `thirdParty=${key === keyB ? 'shop-b' : 'shop-a'}&`;
  const res = await report(key, `${platform}format=json&startDate=2020-01-01&endDate=2030-01-01&${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

before(async () => {
  t = await startTestApp({ stays: 2_000, app: { geocoder: { geocode: async () => null } } });
  assert.ok(reported.length >= 1, 'a slot with a commission report');
  keyA = await t.createKey({ aid: 'aff-a', partnerId: 'partner-a', thirdParties: ['shop-a', 'blog-a'] });
  keyA2 = await t.createKey({ aid: 'aff-a2', partnerId: 'partner-a', thirdParties: ['shop-a'] });
  keyB = await t.createKey({ aid: 'aff-b', partnerId: 'partner-b', thirdParties: ['shop-b'] });
  keyNoPlatform = await t.createKey({ aid: 'aff-c', partnerId: 'partner-c' });

  await clickThrough(await linksFor(keyA, 48.8566, 2.3522), 'spring-mail', ['mobile', 'desktop', 'tablet', 'unknown']);
  // Which clicks book is a function of their random ids (about one landing in eight books), so each
  // case below clicks its links ten at a time, round after round (each click a new id), until its
  // bookings exist. A booking is the partner's by its click's aid (Booking.com's ledger records the
  // operator's affiliate id, the partner travels in `label`).
  const aidOf = (b: SimBooking) => clicksById.get(b.clickId)?.aid;
  const clickUntil = async (links: string[], campaign: string | null, devices: (keyof typeof UA)[], done: () => boolean) => {
    const reportedLinks = links.filter((l) => reported.some((s) => l.includes(`/go/${s}/`)));
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < reportedLinks.length; i += 10) {
        await loadClicks();
        if (done()) return;
        await clickThrough(reportedLinks.slice(i, i + 10), campaign, devices);
      }
    }
    await loadClicks();
  };
  // The partner's second key: a booking to attribute.
  await clickUntil(await linksFor(keyA2, 41.9028, 12.4964, 100), 'rome', ['desktop'], () =>
    allBookings().some((b) => aidOf(b) === 'aff-a2'),
  );
  await clickThrough(await linksFor(keyB, 51.5074, -0.1278), null, ['desktop', 'mobile']);
  // Every reported supplier with bookings of both partners: enough for the cases below (ten or more
  // in all, six or more of partner-a's shop).
  const booked = (aid: string, n: number) => reported.every((s) => t.sim.ledger.bookings(s).filter((b) => aidOf(b) === aid).length >= n);
  await clickUntil(await linksFor(keyA, 41.3874, 2.1686, 60), 'spring-mail', ['mobile', 'desktop'], () => booked('aff-a', 8));
  await clickUntil(await linksFor(keyB, 52.3676, 4.9041, 60), null, ['tablet'], () => booked('aff-b', 4));
  // Tablets and unknown browsers too: the partner's bookings come from three device classes or more.
  const devicesBooked = () => new Set(allBookings().flatMap((b) => (aidOf(b) === 'aff-a' ? [clicksById.get(b.clickId)?.device] : [])));
  await clickUntil(await linksFor(keyA, 48.8566, 2.3522, 100), 'spring-mail', ['tablet', 'unknown'], () => devicesBooked().size >= 3);
  // A campaign a spreadsheet would run as a formula: clicked until one of its clicks books.
  await clickUntil(await linksFor(keyB, 40.7128, -74.006, 100), EVIL_CAMPAIGN, ['desktop'], () =>
    allBookings().some((b) => aidOf(b) === 'aff-b' && b.checkin && evilClick(b)),
  );
  // A landing with a click id the gateway never issued, until one of them books.
  for (let i = 0; i < 300 && !allBookings().some((b) => b.clickId.startsWith('forged-')); i++) {
    const listing = t.world.listings.supplier_a[i];
    // supplier_a is Booking.com: the stay's own page, the click in `label`.
    await fetch(
      `${t.sim.urls.supplier_a}/hotel/${listing.address.slice(-2).toLowerCase()}/${listing.supplierStayId}.html?aid=aff-b&label=forged-${i}`,
    );
  }
  await loadClicks();
  t.clock.advance(3 * DAY); // every booking made; none approved yet
  const results = await t.app.transactions.syncAll();
  assert.ok(
    results.every((r) => r.ok),
    JSON.stringify(results),
  );
  transactions = createSqliteTransactionStore({ path: path.join(t.dataDir, 'staygate.sqlite'), settings: defaults });
});
after(async () => {
  await transactions?.close();
  await t.close();
});

async function loadClicks(): Promise<void> {
  const store = createSqliteClickStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
  try {
    for (const click of await store.recent(100_000)) clicksById.set(click.id, click);
  } finally {
    await store.close();
  }
}

function evilClick(booking: SimBooking): boolean {
  return clicksById.get(booking.clickId)?.campaign === EVIL_CAMPAIGN;
}

const PARTNER_OF: Record<string, string> = { 'aff-a': 'partner-a', 'aff-a2': 'partner-a', 'aff-b': 'partner-b' };

/** What the gateway must report for a booking of the simulator, as it stands at the test clock. */
function expectedRecord(booking: SimBooking): TransactionRecord {
  const state = stateAt(booking, t.clock.now().getTime())!;
  const click = clicksById.get(booking.clickId)!;
  const cents = expectedCommissionUsdCents(booking, state.status);
  return {
    provider: booking.supplier,
    bookingId: booking.bookingId,
    bookedDate: new Date(booking.bookedAt).toISOString(),
    startDate: booking.checkin,
    endDate: booking.checkout,
    bookingStatus: state.status === 'pending' ? 'Pending' : state.status === 'approved' ? 'Approved' : 'Canceled',
    campaignId: click.campaign ?? '',
    campaignIds: click.campaign ? click.campaign.split('-') : [],
    commission: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    currency: 'USD',
    category: 'Accommodation',
    quantity: booking.nights * booking.rooms,
    information: `${booking.propertyName}, ${booking.nights} night${booking.nights === 1 ? '' : 's'}, ${booking.rooms} room${booking.rooms === 1 ? '' : 's'}`,
    destination: `${booking.city}, ${booking.countryCode}`,
    userCountry: booking.guestCountry,
    device: click.device,
    lastUpdatedDate: new Date(state.at).toISOString(),
  };
}

function byId(records: TransactionRecord[]): Map<string, TransactionRecord> {
  return new Map(records.map((r) => [`${r.provider}/${r.bookingId}`, r]));
}

describe('attribution: from the click to the record', () => {
  it("every booking of a known click is its partner's, with the campaign, device and figures of the supplier's report", async () => {
    const tracked = allBookings().filter((b) => clicksById.has(b.clickId));
    assert.ok(tracked.length >= 10, `only ${tracked.length} bookings`);
    assert.ok(
      reported.every((s) => tracked.some((b) => b.supplier === s)),
      'bookings at every reported supplier, in every report format',
    );
    const seen = { 'partner-a': byId(await json(keyA)), 'partner-b': byId(await json(keyB)) };
    for (const booking of tracked) {
      const partner = PARTNER_OF[clicksById.get(booking.clickId)!.aid!] as keyof typeof seen;
      assert.deepEqual(seen[partner].get(`${booking.supplier}/${booking.bookingId}`), expectedRecord(booking), booking.bookingId);
    }
    assert.equal(seen['partner-a'].size + seen['partner-b'].size, tracked.length);
    assert.ok(
      [...seen['partner-a'].values()].some((r) => r.campaignId === 'rome'),
      "the partner's second key's aid is the partner's too",
    );
    assert.ok(new Set([...seen['partner-a'].values()].map((r) => r.device)).size >= 3, 'bookings from three device classes or more');
  });

  it('keeps a booking of an unknown click, attributed to nobody and shown to no partner', async () => {
    const forged = allBookings().find((b) => b.clickId.startsWith('forged-'));
    assert.ok(forged, 'a forged click booked');
    const stored = await transactions.get(forged.supplier, forged.bookingId);
    assert.equal(stored?.partnerId, null);
    assert.equal(stored?.aid, null);
    assert.equal(stored?.device, 'unknown');
    for (const key of [keyA, keyB])
      assert.ok(
        !(await json(key)).some((r) => r.bookingId === forged.bookingId),
        '!(await json(key)).some((r) => r.bookingId === forged.bookingId)',
      );
    assert.ok((await transactions.stats()).unattributed >= 1, '(await transactions.stats()).unattributed >= 1');
  });
});

describe('sync', () => {
  it('is idempotent: pulling again, and re-reading everything, changes nothing', async () => {
    const before = await json(keyA);
    const again = await t.app.transactions.syncAll();
    assert.ok(
      again.every((r) => r.ok && r.inserted === 0 && r.updated === 0),
      JSON.stringify(again),
    );
    // A pull whose overlap reaches back over every booking: all of them read again.
    const clicks = createSqliteClickStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
    const keys = createSqliteKeyStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
    try {
      const sync = createTransactionSync({
        suppliers: createSuppliers(simulatedSlots(t.sim.slots), defaults),
        store: transactions,
        clicks,
        keys,
        now: t.clock.now,
        settings: { ...defaults, reportSyncOverlapMs: 30 * DAY },
      });
      const results = await sync.syncAll();
      assert.ok(
        results.every((r) => r.ok && r.inserted === 0 && r.updated === 0),
        JSON.stringify(results),
      );
      assert.equal(
        results.reduce((a, r) => a + r.unchanged, 0),
        allBookings().length,
      );
    } finally {
      await Promise.all([clicks.close(), keys.close()]);
    }
    assert.deepEqual(await json(keyA), before);
  });

  it('ends in the same rows whatever order the report pages are applied in', async () => {
    const owners = new Map([
      ['aff-a', 'partner-a'],
      ['aff-a2', 'partner-a'],
      ['aff-b', 'partner-b'],
      ['aff-c', 'partner-c'],
    ]);
    const from = new Date(TEST_NOW.getTime() - 30 * DAY);
    const to = t.clock.now();
    const reports = await Promise.all(
      createSuppliers(simulatedSlots(t.sim.slots), defaults).map(async (supplier) => {
        const pages: CommissionRecord[][] = [];
        // A slot whose API has no report gets its transactions from a CSV import: none here.
        for await (const page of supplier.commissionReport?.({ from, to, pageSize: 2 }) ?? []) pages.push(page);
        return { supplier: supplier.id, pages };
      }),
    );
    const fresh = createSqliteTransactionStore({ path: ':memory:', settings: defaults });
    try {
      // Pages backwards, each twice, suppliers backwards.
      for (const { supplier, pages } of [...reports].reverse()) {
        for (const page of [...pages].reverse().flatMap((p) => [p, p])) {
          await fresh.applyReport(supplier, attribute(supplier, page, clicksById, owners), {
            syncedThrough: to.toISOString(),
            syncedAt: to.toISOString(),
          });
        }
      }
      let compared = 0;
      for (const booking of allBookings()) {
        assert.deepEqual(await fresh.get(booking.supplier, booking.bookingId), await transactions.get(booking.supplier, booking.bookingId));
        compared++;
      }
      assert.ok(compared >= 10, 'compared >= 10');
    } finally {
      await fresh.close();
    }
  });

  it('follows bookings as they evolve: approved after the stay or canceled, each a newer version', async () => {
    const before = byId(await json(keyA));
    t.clock.advance(400 * DAY);
    const results = await t.app.transactions.syncAll();
    assert.ok(
      results.every((r) => r.ok),
      'results.every((r) => r.ok)',
    );
    assert.ok(results.reduce((a, r) => a + r.updated, 0) > 0, 'results.reduce((a, r) => a + r.updated, 0) > 0');
    const now = byId(await json(keyA));
    assert.equal(now.size, before.size);
    for (const [id, record] of now) {
      assert.notEqual(record.bookingStatus, 'Pending', id);
      const was = before.get(id)!;
      // A booking canceled in its first days was already final.
      if (was.bookingStatus === 'Pending') assert.ok(record.lastUpdatedDate > was.lastUpdatedDate, id);
      else assert.deepEqual(record, was);
      if (record.bookingStatus === 'Canceled') assert.equal(record.commission, '0.00');
    }
    for (const booking of allBookings().filter((b) => clicksById.get(b.clickId)?.aid === 'aff-a')) {
      assert.deepEqual(now.get(`${booking.supplier}/${booking.bookingId}`), expectedRecord(booking));
    }
  });

  it('applies nothing of a report that fails, and catches up once the supplier is back', async () => {
    // A reported slot fails, once with an error, once with a malformed report, each while new
    // bookings land at the other slots.
    const failing = reported[0]!;
    for (const [fault, message] of [
      ['error', /HTTP 500/],
      ['malformed', /malformed|JSON|expected/i],
    ] as const) {
      const landingLinks = await linksFor(keyB, 48.8566, 2.3522, 60);
      await t.sim.setFault(failing, fault);
      try {
        await clickThrough(
          landingLinks.filter((l) => !l.includes(`/${failing}/`)),
          null,
          ['desktop'],
        );
        await loadClicks();
        t.clock.advance(3 * DAY);
        const results = await t.app.transactions.syncAll();
        assert.deepEqual(
          results.filter((r) => !r.ok).map((r) => r.supplier),
          [failing],
          fault,
        );
        assert.match(results.find((r) => r.supplier === failing)!.error!, message);
      } finally {
        await t.sim.setFault(failing, null);
      }
      const results = await t.app.transactions.syncAll();
      assert.ok(
        results.every((r) => r.ok),
        JSON.stringify(results),
      );
      for (const booking of allBookings()) assert.ok(await transactions.get(booking.supplier, booking.bookingId), booking.bookingId);
    }
  });
});

describe('GET /v1/reporting/transactions', () => {
  it('answers CSV by default, with the header row, RFC 4180 quoting and formula escaping', async () => {
    const res = await report(keyB, 'thirdParty=shop-b&startDate=2020-01-01&endDate=2030-01-01');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'private, no-store');
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="transactions-2020-01-01-2030-01-01-page-0\.csv"$/);
    assert.ok(res.body.startsWith(`${TRANSACTION_FIELDS.join(',')}\r\n`), "res.body.startsWith(`${TRANSACTION_FIELDS.join(',')}\\r\\n`)");
    assert.ok(res.body.endsWith('\r\n'), "res.body.endsWith('\\r\\n')");
    const evilLine = res.body.split('\r\n').find((line: string) => line.includes('evil.example'));
    assert.ok(evilLine, 'the formula campaign booked');
    // Apostrophe first, then quoted because of its commas and quotes.
    assert.ok(evilLine.includes(`"'=HYPERLINK(""http://evil.example"",""x""),-2+3"`), evilLine);
    assert.ok(evilLine.includes(`"[""=HYPERLINK(\\""http://evil.example\\"",\\""x\\""),"",""2+3""]"`), evilLine);
  });

  it('sends a CSV page whole, with its length', async () => {
    // Issue 25: a page is read whole and written at once; it was a chunked stream of several writes.
    const res = await report(keyA, 'thirdParty=shop-a&startDate=2020-01-01&endDate=2030-01-01');
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], undefined);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)));
    assert.ok(res.body.split('\r\n').length > 3, 'the page holds transactions');
  });

  it('carries the same rows and values in CSV and JSON', async () => {
    for (const q of [
      'thirdParty=shop-a',
      'thirdParty=shop-b&dateFilter=bookedDate',
      'thirdParty=blog-a&dateFilter=startDate&limit=3&page=1',
    ]) {
      const range = '&startDate=2020-01-01&endDate=2030-01-01';
      const csv = parse((await report(q.includes('shop-b') ? keyB : keyA, q + range)).body, { columns: true }) as Record<string, string>[];
      const data = (await report(q.includes('shop-b') ? keyB : keyA, `${q + range}&format=json`)).body.data as TransactionRecord[];
      assert.ok(data.length > 0, q);
      assert.equal(csv.length, data.length, q);
      for (const [i, record] of data.entries()) {
        for (const field of TRANSACTION_FIELDS) {
          const value = record[field];
          assert.equal(
            unescapeFormula(csv[i][field]),
            Array.isArray(value) ? JSON.stringify(value) : String(value),
            `${q} ${record.bookingId}.${field}`,
          );
        }
      }
    }
  });

  it('answers the JSON envelope with every field of the Transaction record', async () => {
    const res = await report(keyA, 'thirdParty=shop-a&format=json&limit=2');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.body.statusCode, 200);
    assert.equal(res.body.partnerId, 'partner-a');
    const [record] = res.body.data as TransactionRecord[];
    assert.deepEqual(Object.keys(record), [...TRANSACTION_FIELDS]);
    assert.match(record.commission, /^\d+\.\d{2}$/);
    assert.ok(
      ['Pending', 'Approved', 'Canceled'].includes(record.bookingStatus),
      "['Pending', 'Approved', 'Canceled'].includes(record.bookingStatus)",
    );
    assert.ok(
      ['desktop', 'mobile', 'tablet', 'unknown'].includes(record.device),
      "['desktop', 'mobile', 'tablet', 'unknown'].includes(record.device)",
    );
    assert.equal(record.category, 'Accommodation');
    assert.equal(record.currency, 'USD');
  });

  it('shows a partner only its own transactions', async () => {
    const a = await json(keyA, 'thirdParty=shop-a');
    const a2 = await json(keyA2, 'thirdParty=shop-a');
    const b = await json(keyB, 'thirdParty=shop-b');
    assert.deepEqual(a2, a, "both of the partner's keys see the partner's transactions");
    const ids = new Set(a.map((r) => r.bookingId));
    assert.ok(b.length > 0 && b.every((r) => !ids.has(r.bookingId)), 'b.length > 0 && b.every((r) => !ids.has(r.bookingId))');
    assert.equal(
      (await report(keyNoPlatform, 'thirdParty=shop-a&format=json')).status,
      400,
      "another partner's platform name opens nothing",
    );
    const ownClicks = new Set([...clicksById.values()].filter((c) => c.aid === 'aff-b').map((c) => c.id));
    for (const record of b) {
      const booking = allBookings().find((x) => x.bookingId === record.bookingId)!;
      assert.ok(ownClicks.has(booking.clickId), 'ownClicks.has(booking.clickId)');
    }
  });

  it('defaults to the last year of lastUpdatedDate, 500 a page, page 0', async () => {
    t.clock.set(new Date('2027-02-10T08:00:00Z'));
    const res = await report(keyA, 'thirdParty=shop-a&format=json');
    assert.deepEqual(res.body.meta, {
      page: 0,
      limit: 500,
      count: res.body.data.length,
      hasMore: false,
      dateFilter: 'lastUpdatedDate',
      startDate: '2026-02-10',
      endDate: '2027-02-10',
    });
  });

  it('applies the range to the chosen date, by whole days, and pages from zero', async () => {
    const all = await json(keyA, 'thirdParty=shop-a');
    assert.ok(all.length >= 6, 'all.length >= 6');
    const day = (iso: string) => iso.slice(0, 10);
    const fields = { bookedDate: 'bookedDate', startDate: 'startDate', endDate: 'endDate', lastUpdatedDate: 'lastUpdatedDate' } as const;
    for (const filter of Object.keys(fields) as (keyof typeof fields)[]) {
      const days = all.map((r) => day(r[fields[filter]])).sort();
      const [lo, hi] = [days[1], days[days.length - 2]];
      const res = await report(keyA, `thirdParty=shop-a&format=json&dateFilter=${filter}&startDate=${lo}&endDate=${hi}`);
      const expected = all.filter((r) => day(r[fields[filter]]) >= lo && day(r[fields[filter]]) <= hi);
      assert.deepEqual(
        new Set(res.body.data.map((r: TransactionRecord) => r.bookingId)),
        new Set(expected.map((r) => r.bookingId)),
        filter,
      );
      const values = res.body.data.map((r: TransactionRecord) => r[fields[filter]]);
      assert.deepEqual(values, [...values].sort(), `${filter} orders the page`);
    }
    const pages: TransactionRecord[] = [];
    for (let page = 0; ; page++) {
      const res = await report(keyA, `thirdParty=shop-a&format=json&startDate=2020-01-01&endDate=2030-01-01&limit=4&page=${page}`);
      pages.push(...res.body.data);
      if (!res.body.meta.hasMore) break;
    }
    assert.deepEqual(pages, all);
  });

  it('takes the days at the ends of the calendar like any other day (9999-12-31, 0001-01-01, years 0000-0099)', async () => {
    const all = await json(keyA, 'thirdParty=shop-a');
    assert.ok(all.length > 0, 'all.length > 0');
    for (const [startDate, endDate] of [
      ['2020-01-01', '9999-12-31'],
      ['0001-01-01', '2030-01-01'],
      ['0000-01-01', '9999-12-31'],
      ['0050-02-28', '9999-12-30'],
    ]) {
      for (const dateFilter of ['lastUpdatedDate', 'endDate']) {
        const range = `thirdParty=shop-a&dateFilter=${dateFilter}&startDate=${startDate}&endDate=${endDate}`;
        const res = await report(keyA, `${range}&format=json`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(new Set(res.body.data.map((r: TransactionRecord) => r.bookingId)), new Set(all.map((r) => r.bookingId)), range);
        assert.equal(res.body.meta.startDate, startDate);
        assert.equal(res.body.meta.endDate, endDate);
        const csv = parse((await report(keyA, range)).body, { columns: true }) as Record<string, string>[];
        assert.equal(csv.length, all.length, range);
      }
    }
    const early = await report(keyA, 'thirdParty=shop-a&format=json&startDate=0001-01-01&endDate=0099-12-31');
    assert.equal(early.status, 200, JSON.stringify(early.body));
    assert.deepEqual(early.body.data, []);
  });

  it('takes the key from X-API-KEY or key=, and is rate limited like every endpoint', async () => {
    const viaQuery = await t.get(`${URL_BASE}?thirdParty=shop-a&format=json&key=${encodeURIComponent(keyA)}`);
    assert.equal(viaQuery.status, 200);
    assert.equal(viaQuery.body.partnerId, 'partner-a');
    const res = await report(keyA, 'thirdParty=shop-a');
    assert.ok(res.headers['x-ratelimit-limit'], "res.headers['x-ratelimit-limit']");
    assert.ok(res.headers['x-ratelimit-remaining'], "res.headers['x-ratelimit-remaining']");
  });

  it('refuses a request without a key (401 MISSING_API_KEY) or with a bad one (401 INVALID_API_KEY)', async () => {
    const missing = await report(null, 'thirdParty=shop-a');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 'MISSING_API_KEY');
    assert.ok(missing.body.requestId, 'missing.body.requestId');
    const invalid = await report(`sg_${'0'.repeat(16)}_${'A'.repeat(43)}`, 'thirdParty=shop-a');
    assert.equal(invalid.status, 401);
    assert.equal(invalid.body.code, 'INVALID_API_KEY');
  });

  const RULES: [string, string, string, string][] = [
    ['no thirdParty', '', 'thirdParty', 'VALIDATION_ERROR'],
    ['a thirdParty not registered for the key', 'thirdParty=shop-b', 'thirdParty', 'VALIDATION_ERROR'],
    ['a thirdParty given twice', 'thirdParty=shop-a&thirdParty=blog-a', 'thirdParty', 'VALIDATION_ERROR'],
    ['a date that does not exist', 'thirdParty=shop-a&startDate=2026-02-30', 'startDate', 'INVALID_DATE_FORMAT'],
    ['a date not written YYYY-MM-DD', 'thirdParty=shop-a&endDate=21/11/2026', 'endDate', 'INVALID_DATE_FORMAT'],
    ['a reversed range', 'thirdParty=shop-a&startDate=2026-05-02&endDate=2026-05-01', 'startDate', 'VALIDATION_ERROR'],
    ['an endDate before the default startDate', 'thirdParty=shop-a&endDate=2020-01-01', 'startDate', 'VALIDATION_ERROR'],
    ['an unknown dateFilter', 'thirdParty=shop-a&dateFilter=checkin', 'dateFilter', 'VALIDATION_ERROR'],
    ['an unknown format', 'thirdParty=shop-a&format=xml', 'format', 'VALIDATION_ERROR'],
    ['limit 0', 'thirdParty=shop-a&limit=0', 'limit', 'VALIDATION_ERROR'],
    ['limit 501', 'thirdParty=shop-a&limit=501', 'limit', 'VALIDATION_ERROR'],
    ['a limit that is not an integer', 'thirdParty=shop-a&limit=2.5', 'limit', 'VALIDATION_ERROR'],
    ['a negative page', 'thirdParty=shop-a&page=-1', 'page', 'VALIDATION_ERROR'],
    ['a page that is not a number', 'thirdParty=shop-a&page=first', 'page', 'VALIDATION_ERROR'],
  ];
  for (const [what, query, param, code] of RULES) {
    it(`refuses ${what} with a 400 naming ${param}`, async () => {
      const res = await report(keyA, query);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, code);
      assert.equal(res.body.error, 'Bad Request');
      assert.ok(res.body.details.params[param], JSON.stringify(res.body.details));
      assert.equal(Object.keys(res.body.details.params).length, 1);
    });
  }

  it('lists every broken rule in one 400', async () => {
    const res = await report(
      keyNoPlatform,
      'thirdParty=shop&startDate=2026-13-01&endDate=yesterday&dateFilter=x&format=pdf&limit=1000&page=-2',
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(res.body.details.params).sort(), [
      'dateFilter',
      'endDate',
      'format',
      'limit',
      'page',
      'startDate',
      'thirdParty',
    ]);
    assert.match(res.body.details.params.thirdParty, /no platform registered/);
  });
});
