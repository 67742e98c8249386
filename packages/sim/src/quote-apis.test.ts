import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { SupplierId } from './types.ts';
import { generateWorld, type World } from './generate-world.ts';
import { isSoldOut, simQuote, SUPPLIER_A_RATES, type SimQuoteRequest } from './price-stay.ts';
import type { SupplierAQuoteResponse } from './quote-supplier-a.ts';
import type { SupplierDAvailabilityResponse } from './quote-supplier-d.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

const sorted = (keys: readonly string[]): string[] => [...keys].sort();
const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(response.headers.get('content-type'), 'application/json');
  return { status: response.status, body: await response.json() };
}

async function get(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  assert.equal(response.headers.get('content-type'), 'application/json');
  return { status: response.status, body: await response.json() };
}

function assertBadRequest(answer: { status: number; body: any }, param: string | null, what: string): void {
  assert.equal(answer.status, 400, what);
  assert.equal(answer.body.error, 'Bad Request', what);
  assert.equal(typeof answer.body.message, 'string');
  if (param !== null) assert.equal(answer.body.details?.param, param, `${what}: ${answer.body.message}`);
}

interface Party {
  adults: number;
  childrenAges: number[] | null;
  children: number;
  rooms: number;
}

/**
 * Asks a supplier's API the README's way, written from the README (not from src/suppliers), and
 * returns each id's answer as a whole-stay total, for comparison with simQuote.
 */
async function askApi(
  sim: SimSuppliers,
  supplier: SupplierId,
  ids: string[],
  p: Party,
  currency = 'USD',
): Promise<Map<string, ReturnType<typeof simQuote>>> {
  const out = new Map<string, ReturnType<typeof simQuote>>();
  switch (supplier) {
    case 'supplier_a': {
      // supplier_a cannot be told "a child of unknown age": its default age (8) is sent instead.
      const childAges = p.childrenAges ?? new Array<number>(p.children).fill(8);
      const { status, body } = await post(`${sim.urls.supplier_a}/availability/quotes`, {
        propertyIds: ids.map(Number),
        checkIn: STAY.checkin,
        checkOut: STAY.checkout,
        occupancy: childAges.length > 0 ? { adults: p.adults, childAges, rooms: p.rooms } : { adults: p.adults, rooms: p.rooms },
        currency,
      });
      assert.equal(status, 200);
      const b = body as SupplierAQuoteResponse;
      for (const q of b.quotes)
        out.set(
          String(q.propertyId),
          q.status === 'AVAILABLE' ? { available: true, total: q.totalPrice, currency: b.currency } : { available: false },
        );
      return out;
    }
    case 'supplier_b': {
      // Hotelbeds' availability call (apis/hotelbeds*.ts): one occupancy per room, every child with
      // an age (10 when unknown, the slot's default), signed; a hotel's price is the cheapest rate of
      // each kind of room it answers, summed. Hotels left out are not available.
      const ages = p.childrenAges ?? new Array<number>(p.children).fill(10);
      const occupancies = Array.from({ length: p.rooms }, (_v, i) => {
        const own = i === 0 ? ages : [];
        const adults = Math.floor(p.adults / p.rooms) + (i < p.adults % p.rooms ? 1 : 0);
        return { rooms: 1, adults, children: own.length, ...(own.length > 0 ? { paxes: own.map((age) => ({ type: 'CH', age })) } : {}) };
      });
      const { key, secret } = SIM_CREDENTIALS.hotelbeds;
      const signature = createHash('sha256')
        .update(`${key}${secret}${Math.floor(Date.now() / 1_000)}`)
        .digest('hex');
      const response = await fetch(`${sim.urls.supplier_b}/hotel-api/1.0/hotels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Api-key': key, 'X-Signature': signature },
        body: JSON.stringify({ stay: { checkIn: STAY.checkin, checkOut: STAY.checkout }, occupancies, hotels: { hotel: ids.map(Number) } }),
      });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { hotels: { hotels?: any[] } };
      for (const id of ids) out.set(id, { available: false });
      for (const hotel of body.hotels.hotels ?? []) {
        const cheapest = new Map<string, number>();
        for (const rate of hotel.rooms.flatMap((r: any) => r.rates)) {
          const kind = `${rate.rooms}|${rate.adults}|${rate.childrenAges ?? ''}`;
          cheapest.set(kind, Math.min(cheapest.get(kind) ?? Infinity, Math.round(Number(rate.net) * 100)));
        }
        const cents = [...cheapest.values()].reduce((a, b) => a + b, 0);
        out.set(String(hotel.code), { available: true, total: cents / 100, currency: hotel.currency });
      }
      return out;
    }
    case 'supplier_c': {
      // LiteAPI's rates call (apis/liteapi*.ts): one occupancy per room, children as ages (6 when
      // unknown, the slot's default), the key in X-API-Key; a hotel's price is its cheapest offer's
      // `offerRetailRate`. Hotels left out are not available; none at all is a 204.
      const ages = p.childrenAges ?? new Array<number>(p.children).fill(6);
      const occupancies = Array.from({ length: p.rooms }, (_v, i) => {
        const adults = Math.floor(p.adults / p.rooms) + (i < p.adults % p.rooms ? 1 : 0);
        return i === 0 && ages.length > 0 ? { adults, children: ages } : { adults };
      });
      const response = await fetch(`${sim.urls.supplier_c}/hotels/rates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-Key': SIM_CREDENTIALS.liteapi.key },
        body: JSON.stringify({ hotelIds: ids, occupancies, currency, guestNationality: 'US', ...STAY, limit: ids.length }),
      });
      for (const id of ids) out.set(id, { available: false });
      if (response.status === 204) return out;
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: { hotelId: string; roomTypes: any[] }[] };
      for (const hotel of body.data) {
        const prices = hotel.roomTypes.map((offer) => offer.offerRetailRate[0] as { amount: number; currency: string });
        const cheapest = prices.reduce((a, b) => (b.amount < a.amount ? b : a));
        out.set(hotel.hotelId, { available: true, total: cheapest.amount, currency: cheapest.currency });
      }
      return out;
    }
    case 'supplier_d': {
      const ages = p.childrenAges === null ? '' : `&ages=${p.childrenAges.join(',')}`;
      const { status, body } = await get(
        `${sim.urls.supplier_d}/api/availability?ids=${ids.join(',')}&start=${STAY.checkin}&end=${STAY.checkout}&adults=${p.adults}&children=${p.children}${ages}&rooms=${p.rooms}`,
      );
      assert.equal(status, 200);
      for (const r of (body as SupplierDAvailabilityResponse).data) {
        out.set(r.listing_id, r.bookable ? { available: true, total: r.price.total, currency: r.price.currency } : { available: false });
      }
      return out;
    }
  }
}

describe('quote APIs over HTTP', () => {
  let world: World;
  let sim: SimSuppliers;
  const ids = (supplier: SupplierId, n: number, from = 0): string[] =>
    world.listings[supplier].slice(from, from + n).map((l) => l.supplierStayId);
  /** The first `n` ids of a supplier sleeping two or more that are not sold out on `checkin`. */
  const openIds = (supplier: SupplierId, n: number, checkin = STAY.checkin): string[] =>
    world.listings[supplier]
      .filter((l) => l.capacity.guests >= 2 && !isSoldOut(world, supplier, l.propertyId, checkin))
      .slice(0, n)
      .map((l) => l.supplierStayId);

  before(async () => {
    world = generateWorld({ seed: 9, stays: 4_000 });
    sim = await startSimSuppliers({ world, latencyMs: 0 });
  });
  after(() => sim.close());

  it('supplier_a: POST /availability/quotes, whole stay in the requested currency, USD for others', async () => {
    const [open] = openIds('supplier_a', 1);
    const body = {
      propertyIds: [Number(open), 1],
      checkIn: STAY.checkin,
      checkOut: STAY.checkout,
      occupancy: { adults: 1 },
      currency: 'EUR',
    };
    const eur = await post(`${sim.urls.supplier_a}/availability/quotes`, body);
    assert.equal(eur.status, 200);
    assert.deepEqual(sorted(Object.keys(eur.body)), ['currency', 'quotes']);
    assert.equal(eur.body.currency, 'EUR');
    assert.deepEqual(sorted(Object.keys(eur.body.quotes[0])), ['propertyId', 'status', 'totalPrice']);
    assert.equal(eur.body.quotes[0].propertyId, Number(open));
    assert.equal(eur.body.quotes[0].status, 'AVAILABLE');
    assert.equal(eur.body.quotes[0].totalPrice * 100, Math.round(eur.body.quotes[0].totalPrice * 100), '2 decimals');
    // An id supplier_a does not sell: not available, in the answer like any other.
    assert.deepEqual(eur.body.quotes[1], { propertyId: 1, status: 'SOLD_OUT' });

    const usd = await post(`${sim.urls.supplier_a}/availability/quotes`, { ...body, currency: 'USD' });
    const brl = await post(`${sim.urls.supplier_a}/availability/quotes`, { ...body, currency: 'BRL' });
    assert.equal(brl.body.currency, 'USD');
    assert.deepEqual(brl.body, usd.body);
    const { currency: _c, ...noCurrency } = body;
    assert.deepEqual((await post(`${sim.urls.supplier_a}/availability/quotes`, noCurrency)).body, usd.body, 'currency defaults to USD');
    const jpy = await post(`${sim.urls.supplier_a}/availability/quotes`, { ...body, currency: 'JPY' });
    assert.equal(jpy.body.currency, 'JPY');
    assert.ok(Number.isInteger(jpy.body.quotes[0].totalPrice), 'Number.isInteger(jpy.body.quotes[0].totalPrice)');
    assert.ok(
      Math.abs(jpy.body.quotes[0].totalPrice - usd.body.quotes[0].totalPrice * SUPPLIER_A_RATES.perUsd.JPY) <= 1,
      'Math.abs(jpy.body.quotes[0].totalPrice - usd.body.quotes[0].totalPrice * SUPPLIER_A_RATES.perUsd.JPY) <= 1',
    );
  });

  // supplier_c (LiteAPI: offers by hotel ids, 204 when none, up to 5,000 ids) is apis/liteapi.test.ts's.

  it('supplier_d: GET /api/availability, USD totals', async () => {
    const [open] = openIds('supplier_d', 1);
    const { status, body } = await get(
      `${sim.urls.supplier_d}/api/availability?ids=${open},abc&start=${STAY.checkin}&end=${STAY.checkout}&adults=1`,
    );
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['data']);
    const [bookable, unknown] = body.data;
    assert.deepEqual(sorted(Object.keys(bookable)), ['bookable', 'listing_id', 'price']);
    assert.equal(bookable.listing_id, open);
    assert.equal(bookable.bookable, true);
    assert.deepEqual(sorted(Object.keys(bookable.price)), ['currency', 'total']);
    assert.equal(bookable.price.currency, 'USD');
    assert.deepEqual(unknown, { listing_id: 'abc', bookable: false });
  });

  it('answers exactly what simQuote computes, for every supplier and several parties', async () => {
    const parties: Party[] = [
      { adults: 2, children: 0, childrenAges: null, rooms: 1 },
      { adults: 1, children: 0, childrenAges: null, rooms: 1 },
      { adults: 2, children: 2, childrenAges: [1, 13], rooms: 2 },
      { adults: 3, children: 2, childrenAges: null, rooms: 2 },
    ];
    const caps: Record<SupplierId, number> = { supplier_a: 200, supplier_b: 100, supplier_c: 100, supplier_d: 50 };
    let available = 0;
    let unavailable = 0;
    for (const supplier of Object.keys(caps) as SupplierId[]) {
      for (const [i, p] of parties.entries()) {
        const asked = ids(supplier, caps[supplier], i * 7);
        const currency = supplier === 'supplier_a' ? ['USD', 'EUR', 'JPY', 'NZD'][i] : 'USD';
        const got = await askApi(sim, supplier, asked, p, currency);
        assert.equal(got.size, asked.length, 'one answer per id');
        for (const id of asked) {
          const request: SimQuoteRequest = { ...STAY, ...p, currency };
          const expected = simQuote(world, supplier, id, request);
          assert.deepEqual(got.get(id), expected, `${supplier}:${id} ${JSON.stringify(p)}`);
          if (expected.available) available++;
          else unavailable++;
        }
      }
    }
    assert.ok(available > 300 && unavailable > 100, `${available} / ${unavailable}`);
  });

  // supplier_b (Hotelbeds: 2,000 codes a call) and supplier_c (LiteAPI: `limit`, 5,000) are apis/*.test.ts's.
  it('caps the ids per call: a 200, d 50 (one more is a 400)', async () => {
    const p: Party = { adults: 2, children: 0, childrenAges: null, rooms: 1 };
    const a = (n: number) =>
      post(`${sim.urls.supplier_a}/availability/quotes`, {
        propertyIds: ids('supplier_a', n).map(Number),
        checkIn: STAY.checkin,
        checkOut: STAY.checkout,
        occupancy: { adults: 2 },
      });
    const d = (n: number) =>
      get(
        `${sim.urls.supplier_d}/api/availability?ids=${ids('supplier_d', n).join(',')}&start=${STAY.checkin}&end=${STAY.checkout}&adults=2`,
      );
    assert.equal((await a(200)).body.quotes.length, 200);
    assertBadRequest(await a(201), 'propertyIds', 'a 201');
    assert.equal((await d(50)).body.data.length, 50);
    assertBadRequest(await d(51), 'ids', 'd 51');
    assert.equal((await askApi(sim, 'supplier_d', ids('supplier_d', 50), p)).size, 50);
  });

  it('rejects bad dates, occupancy and bodies with a 400 JSON naming the parameter', async () => {
    const aBody = { propertyIds: [1], checkIn: STAY.checkin, checkOut: STAY.checkout, occupancy: { adults: 2 } };
    const a = (body: unknown) => post(`${sim.urls.supplier_a}/availability/quotes`, body);
    assertBadRequest(await a({ ...aBody, checkIn: '2027-02-30' }), 'checkIn', 'a: not a real date');
    assertBadRequest(await a({ ...aBody, checkOut: STAY.checkin }), 'checkOut', 'a: checkout not after checkin');
    assertBadRequest(await a({ ...aBody, occupancy: { adults: 0 } }), 'occupancy.adults', 'a: no adult');
    assertBadRequest(await a({ ...aBody, occupancy: { adults: 2, childAges: [18] } }), 'occupancy.childAges', 'a: age 18');
    assertBadRequest(await a({ ...aBody, occupancy: { adults: 2, rooms: 0 } }), 'occupancy.rooms', 'a: no room');
    assertBadRequest(await a({ ...aBody, currency: 'EURO' }), 'currency', 'a: bad currency');
    assertBadRequest(await a({ ...aBody, propertyIds: ['1'] }), 'propertyIds', 'a: string ids');
    assertBadRequest(await a({ ...aBody, propertyIds: [] }), 'propertyIds', 'a: no ids');
    assertBadRequest(await a([]), null, 'a: not an object');
    const noBody = await fetch(`${sim.urls.supplier_a}/availability/quotes`, { method: 'POST' });
    assert.equal(noBody.status, 400);
    const notJson = await fetch(`${sim.urls.supplier_a}/availability/quotes`, { method: 'POST', body: '{' });
    assert.equal(notJson.status, 400);

    // supplier_b answers in Hotelbeds' own error body (apis/hotelbeds.test.ts).

    // supplier_c answers in LiteAPI's own error body (apis/liteapi.test.ts).

    const d = (q: string) => get(`${sim.urls.supplier_d}/api/availability?ids=1&${q}`);
    assertBadRequest(await d('start=2027-03-01&end=2027-03-04&adults=2&ages=4,x'), 'ages', 'd: bad age');
    assertBadRequest(await d('start=2027-03-01&adults=2'), 'end', 'd: end missing');
    assertBadRequest(await d('start=2027-03-01&end=2027-03-04&adults=2&rooms=0'), 'rooms', 'd: no room');
  });

  it('answers other methods on a quote path with 405', async () => {
    const response = await fetch(`${sim.urls.supplier_a}/availability/quotes`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.equal((await fetch(`${sim.urls.supplier_d}/api/availability`, { method: 'POST', body: '{}' })).status, 405);
  });
});
