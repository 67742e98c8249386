import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SUPPLIER_IDS } from './types.ts';
import { bookingOf, CONVERSION_RATE, createBookingLedger, SIM_CLICK_TIME_PARAM, stateAt, type Landing } from './bookings.ts';
import { generateWorld, type World } from './generate-world.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 21, 10);
let world: World;

before(() => {
  world = generateWorld({ seed: 11, stays: 1_500 });
});

function landing(i: number, supplier = SUPPLIER_IDS[i % 4], at = T0): Landing {
  const listings = world.listings[supplier];
  return {
    supplier,
    clickId: `click-${i}`,
    supplierStayId: listings[i % listings.length].supplierStayId,
    affiliate: 'aff',
    checkin: null,
    checkout: null,
    at,
  };
}

describe('bookings of the simulated suppliers', () => {
  it('are a deterministic share of the landings, each with a timeline that ends after the stay or in a cancellation', () => {
    let booked = 0;
    const finals = new Set<string>();
    for (let i = 0; i < 4_000; i++) {
      const l = landing(i);
      const listing = world.listings[l.supplier].find((x) => x.supplierStayId === l.supplierStayId)!;
      const booking = bookingOf(world, listing, l);
      assert.deepEqual(bookingOf(world, listing, l), booking, 'the same landing, the same booking');
      if (booking === null) continue;
      booked++;
      const checkin = Date.parse(booking.checkin);
      const checkout = Date.parse(booking.checkout);
      assert.ok(booking.bookedAt > l.at && booking.bookedAt < checkin, 'booking.bookedAt > l.at && booking.bookedAt < checkin');
      assert.equal(booking.events[0].status, 'pending');
      const last = booking.events.at(-1)!;
      finals.add(last.status);
      if (last.status === 'canceled') assert.ok(last.at < checkin, 'last.at < checkin');
      else assert.ok(last.at > checkout, last.status);
      assert.equal(stateAt(booking, booking.bookedAt), null, 'not booked before its time');
      assert.equal(stateAt(booking, booking.bookedAt + 1)!.status, 'pending');
      assert.equal(stateAt(booking, last.at + 1), last);
    }
    // 12% convert; about 7% of those fall on a sold-out date.
    assert.ok(Math.abs(booked / 4_000 - CONVERSION_RATE * 0.93) < 0.02, `${booked} of 4000`);
    assert.deepEqual(finals, new Set(['approved', 'canceled', 'no_show']));
  });

  it('report a closed period the same at any later time, and a booking under its latest change', () => {
    let now = T0;
    const ledger = createBookingLedger({ world, now: () => now });
    for (let i = 0; i < 2_000; i++) ledger.land(landing(i, 'supplier_a'));
    const booking = ledger.bookings('supplier_a').find((b) => b.events.at(-1)!.status === 'approved')!;
    now = T0 + 3 * DAY;
    const period = ledger.report('supplier_a', T0, T0 + 3 * DAY);
    assert.ok(
      period.some((e) => e.booking === booking && e.state.status === 'pending'),
      "period.some((e) => e.booking === booking && e.state.status === 'pending')",
    );
    now = T0 + 400 * DAY;
    assert.deepEqual(ledger.report('supplier_a', T0, T0 + 3 * DAY), period, 'a closed period does not change');
    const later = ledger.report('supplier_a', T0 + 3 * DAY, now);
    assert.ok(
      later.some((e) => e.booking === booking && e.state.status === 'approved'),
      "later.some((e) => e.booking === booking && e.state.status === 'approved')",
    );
    const times = later.map((e) => e.state.at);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
  });

  it('outlive a restart when kept in a folder; a click lands once', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'staygate-sim-'));
    try {
      const first = createBookingLedger({ world, now: () => T0, dataDir: dir });
      for (let i = 0; i < 300; i++) first.land(landing(i));
      first.land({ ...landing(0), at: T0 - DAY }); // a reload of the booking page: ignored
      const second = createBookingLedger({ world, now: () => T0, dataDir: dir });
      for (const s of SUPPLIER_IDS) assert.deepEqual(second.bookings(s), first.bookings(s));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('booking pages and commission report feeds', () => {
  let sim: SimSuppliers;
  let now = T0;
  before(async () => {
    sim = await startSimSuppliers({ world, latencyMs: 0, now: () => now });
  });
  after(() => sim.close());

  it('take a past landing time from simClickTime (simulator only), and refuse a future or malformed one', async () => {
    const id = world.listings.supplier_b[0].supplierStayId;
    const page = (extra: string) => fetch(`${sim.urls.supplier_b}/book/hotel?code=${id}&aid=aff&clickId=${extra}`);
    assert.equal((await page(`past&${SIM_CLICK_TIME_PARAM}=2026-01-02T03:04:05Z`)).status, 200);
    assert.equal((await page(`future&${SIM_CLICK_TIME_PARAM}=2027-01-01T00:00:00Z`)).status, 400);
    assert.equal((await page(`bad&${SIM_CLICK_TIME_PARAM}=yesterday`)).status, 400);
  });

  it('answer each in its own format, refuse a bad period, and obey the faults', async () => {
    for (let i = 0; i < 400; i++) {
      const l = landing(i);
      // supplier_a is Booking.com: the stay's own page, `/hotel/<cc>/<id>.html`, the click in `label`.
      const country = (id: string) =>
        world.listings.supplier_a
          .find((x) => x.supplierStayId === id)!
          .address.slice(-2)
          .toLowerCase();
      const paths = {
        supplier_a: `/hotel/${l.supplier === 'supplier_a' ? country(l.supplierStayId) : ''}/`,
        supplier_b: '/book/hotel?code=',
        supplier_c: '/book/hotel?hotelId=',
        supplier_d: '/search?selected=',
      };
      const click = { supplier_a: '.html?label', supplier_b: '&clickId', supplier_c: '&clickId', supplier_d: '&clickId' }[l.supplier];
      await (await fetch(`${sim.urls[l.supplier]}${paths[l.supplier]}${l.supplierStayId}${click}=${l.clickId}`)).arrayBuffer();
    }
    now = T0 + 5 * DAY;
    // supplier_a is Booking.com: its orders (apis/booking-demand*.ts), a POST with its credentials.
    const { key, affiliateId } = SIM_CREDENTIALS['booking-demand'];
    const orders = (body: unknown) =>
      fetch(`${sim.urls.supplier_a}/orders/details`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', Authorization: `Bearer ${key}`, 'X-Affiliate-Id': affiliateId },
        body: JSON.stringify(body),
      });
    const a = (await (await orders({ updated: { from: '2026-11-20T00:00:00Z' }, currency: 'USD', maximum_results: 10 })).json()) as any;
    assert.deepEqual(Object.keys(a), ['request_id', 'data', 'metadata']);
    assert.ok(a.metadata.total_results > 0, 'a.metadata.total_results > 0');
    assert.equal(typeof (a.data[0].commission.actual_amount ?? a.data[0].commission.estimated_amount), 'number');
    // supplier_b speaks Hotelbeds, which has no commission report (net rates): nothing to ask it.
    assert.equal((await fetch(`${sim.urls.supplier_b}/v2/partner/commissions?modified_since=0`)).status, 404);
    // supplier_c speaks LiteAPI, whose dashboard report gives daily totals (the gateway imports its transactions).
    const liteapiReport = (body: unknown) =>
      fetch(`${sim.urls.supplier_c}/commissions/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-Key': sim.slots.supplier_c.key },
        body: JSON.stringify(body),
      });
    const c = (await (await liteapiReport({ from: '2026-11-01', to: '2026-11-30' })).json()) as any;
    assert.equal(c.success, true);
    assert.ok(c.data.length > 0, 'days with bookings');
    assert.match(c.data[0].date, /^\d{4}-\d{2}-\d{2}$/);
    // supplier_d speaks Expedia Rapid, which has no commission report for affiliates either.
    assert.equal(
      (await fetch(`${sim.urls.supplier_d}/api/affiliate/reservations?filter[updated_at][gte]=2026-11-01T00:00:00Z`)).status,
      404,
    );

    assert.equal((await orders({ currency: 'USD' })).status, 400, 'no period');
    assert.equal((await liteapiReport({ from: '2026-11-01T00:00:00Z', to: '2026-11-30' })).status, 400, 'not its notation');
    await sim.setFault('supplier_b', 'error');
    assert.equal((await fetch(`${sim.urls.supplier_b}/book/hotel?code=${world.listings.supplier_b[0].supplierStayId}`)).status, 500);
    await sim.setFault('supplier_b', null);
  });
});
