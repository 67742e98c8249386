import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { SupplierId } from './types.ts';
import { generateWorld, type World } from './generate-world.ts';
import { isSoldOut, simQuote, SUPPLIER_A_RATES, type SimQuoteRequest } from './price-stay.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

const sorted = (keys: readonly string[]): string[] => [...keys].sort();
const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };

/** Booking.com's search (apis/booking-demand*.ts) on supplier_a, with the slot's bearer token and affiliate id. */
async function bookingSearch(sim: SimSuppliers, body: unknown): Promise<{ status: number; body: any }> {
  const { key, affiliateId } = SIM_CREDENTIALS['booking-demand'];
  const response = await fetch(`${sim.urls.supplier_a}/accommodations/search`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${key}`, 'X-Affiliate-Id': affiliateId },
  });
  return { status: response.status, body: await response.json() };
}

/** A search body for `ids` (numbers) and a party as Booking.com writes one. */
const searchBody = (ids: number[], guests: Record<string, unknown>, currency?: string) => ({
  accommodations: ids,
  booker: { country: 'nl', platform: 'desktop' },
  checkin: STAY.checkin,
  checkout: STAY.checkout,
  guests,
  ...(currency === undefined ? {} : { currency }),
});

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
      // Booking.com's search cannot be told "a child of unknown age": supplier_a's default age (8) is
      // sent instead. An id left out of the answer is not available; the price is `total`.
      const children = p.childrenAges ?? new Array<number>(p.children).fill(8);
      const guests = { number_of_adults: p.adults, number_of_rooms: p.rooms, ...(children.length > 0 ? { children } : {}) };
      const { status, body } = await bookingSearch(sim, searchBody(ids.map(Number), guests, currency));
      assert.equal(status, 200);
      assert.equal(body.next_page, null);
      for (const id of ids) out.set(id, { available: false });
      for (const d of body.data) out.set(String(d.id), { available: true, total: d.price.total, currency: d.currency });
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
      const { status, body } = await getRapid(sim, rapidAvailabilityQuery(ids, p, currency));
      assert.equal(status, 200);
      for (const id of ids) out.set(id, { available: false });
      // Rapid's availability (apis/expedia-rapid*.ts): a property's price is its cheapest rate, the
      // sum of its `property_inclusive` totals over the asked rooms. Properties left out are not available.
      const rooms = rapidOccupancies(p);
      for (const property of body as any[]) {
        const totals = property.rooms
          .flatMap((r: any) => r.rates)
          .map((rate: any) =>
            rooms.reduce(
              (sum, key) => sum + Math.round(Number(rate.occupancy_pricing[key].totals.property_inclusive.request_currency.value) * 100),
              0,
            ),
          );
        out.set(property.property_id, { available: true, total: Math.min(...totals) / 100, currency: currency });
      }
      return out;
    }
  }
}

/**
 * A party as Rapid's `occupancy` values, one per room: adults spread evenly, the children in the
 * first room, a child of unknown age sent as 12 (the slot's default, so simQuote's null ages match).
 */
function rapidOccupancies(p: Party): string[] {
  const ages = p.childrenAges ?? new Array<number>(p.children).fill(12);
  return Array.from({ length: p.rooms }, (_v, i) => {
    const adults = Math.floor(p.adults / p.rooms) + (i < p.adults % p.rooms ? 1 : 0);
    return i === 0 && ages.length > 0 ? `${adults}-${ages.join(',')}` : String(adults);
  });
}

function rapidAvailabilityQuery(ids: readonly string[], p: Party, currency = 'USD'): string {
  const query = new URLSearchParams({ checkin: STAY.checkin, checkout: STAY.checkout, currency, country_code: 'US', language: 'en-US' });
  for (const occupancy of rapidOccupancies(p)) query.append('occupancy', occupancy);
  for (const id of ids) query.append('property_id', id);
  for (const [name, value] of [
    ['rate_plan_count', '4'],
    ['sales_channel', 'meta'],
    ['sales_environment', 'hotel_only'],
  ])
    query.append(name, value);
  return query.toString();
}

/** GET Rapid's availability on supplier_d, signed as Rapid wants. */
async function getRapid(sim: SimSuppliers, query: string): Promise<{ status: number; body: any }> {
  const { key, secret } = SIM_CREDENTIALS['expedia-rapid'];
  const seconds = Math.floor(Date.now() / 1_000);
  const signature = createHash('sha512').update(`${key}${secret}${seconds}`).digest('hex');
  const response = await fetch(`${sim.urls.supplier_d}/properties/availability?${query}`, {
    headers: { authorization: `EAN APIKey=${key},Signature=${signature},timestamp=${seconds}` },
  });
  return { status: response.status, body: await response.json() };
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

  it('supplier_a: POST /accommodations/search, whole stay in the requested currency, USD for others', async () => {
    const [open] = openIds('supplier_a', 1);
    const body = searchBody([Number(open), 1], { number_of_adults: 1, number_of_rooms: 1 }, 'EUR');
    const eur = await bookingSearch(sim, body);
    assert.equal(eur.status, 200);
    assert.deepEqual(sorted(Object.keys(eur.body)), ['data', 'next_page', 'request_id']);
    // An id supplier_a does not sell: left out of the answer.
    assert.equal(eur.body.data.length, 1);
    assert.deepEqual(sorted(Object.keys(eur.body.data[0])), ['currency', 'id', 'price', 'url']);
    assert.equal(eur.body.data[0].currency, 'EUR');
    assert.equal(eur.body.data[0].id, Number(open));
    const total = eur.body.data[0].price.total;
    assert.equal(total * 100, Math.round(total * 100), '2 decimals');

    const usd = await bookingSearch(sim, { ...body, currency: 'USD' });
    const brl = await bookingSearch(sim, { ...body, currency: 'BRL' });
    assert.equal(brl.body.data[0].currency, 'USD');
    assert.deepEqual(brl.body.data, usd.body.data);
    const { currency: _c, ...noCurrency } = body;
    assert.deepEqual((await bookingSearch(sim, noCurrency)).body.data, usd.body.data, 'currency defaults to USD');
    const jpy = await bookingSearch(sim, { ...body, currency: 'JPY' });
    assert.equal(jpy.body.data[0].currency, 'JPY');
    assert.ok(Number.isInteger(jpy.body.data[0].price.total), 'Number.isInteger(jpy total)');
    assert.ok(
      Math.abs(jpy.body.data[0].price.total - usd.body.data[0].price.total * SUPPLIER_A_RATES.perUsd.JPY) <= 1,
      'Math.abs(jpy total - usd total * SUPPLIER_A_RATES.perUsd.JPY) <= 1',
    );
  });

  // supplier_c (LiteAPI: offers by hotel ids, 204 when none, up to 5,000 ids) is apis/liteapi.test.ts's.

  it("supplier_d: Rapid's GET /properties/availability, whole-stay totals per room, `[]` for none", async () => {
    const [open] = openIds('supplier_d', 1);
    const p: Party = { adults: 1, children: 0, childrenAges: null, rooms: 1 };
    const { status, body } = await getRapid(sim, rapidAvailabilityQuery([open, '1'], p));
    assert.equal(status, 200);
    assert.deepEqual(
      body.map((property: any) => property.property_id),
      [open],
    );
    const [rate] = body[0].rooms[0].rates;
    assert.deepEqual(sorted(Object.keys(rate.occupancy_pricing)), ['1']);
    assert.equal(rate.occupancy_pricing['1'].totals.property_inclusive.request_currency.currency, 'USD');
    assert.deepEqual((await getRapid(sim, rapidAvailabilityQuery(['1'], p))).body, []);
  });

  it('answers exactly what simQuote computes, for every supplier and several parties', async () => {
    const parties: Party[] = [
      { adults: 2, children: 0, childrenAges: null, rooms: 1 },
      { adults: 1, children: 0, childrenAges: null, rooms: 1 },
      { adults: 2, children: 2, childrenAges: [1, 13], rooms: 2 },
      { adults: 3, children: 2, childrenAges: null, rooms: 2 },
    ];
    const caps: Record<SupplierId, number> = { supplier_a: 100, supplier_b: 100, supplier_c: 100, supplier_d: 250 };
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
  it('caps the ids per call: a 100, d 250 (one more is a 400)', async () => {
    const p: Party = { adults: 2, children: 0, childrenAges: null, rooms: 1 };
    const a = (n: number) => bookingSearch(sim, searchBody(ids('supplier_a', n).map(Number), { number_of_adults: 2, number_of_rooms: 1 }));
    const d = (n: number) => getRapid(sim, rapidAvailabilityQuery(ids('supplier_d', n), p));
    assert.equal((await a(100)).status, 200);
    const a101 = await a(101);
    assert.equal(a101.status, 400, 'a 101');
    assert.equal(a101.body.errors[0].id, 'invalid_parameter', 'a 101: Booking.com error body');
    assert.equal((await d(250)).status, 200);
    // Rapid's own 400 body: `invalid_input` with the nested error naming the parameter.
    const tooMany = await d(251);
    assert.equal(tooMany.status, 400, 'd 251');
    assert.equal(tooMany.body.errors[0].fields[0].name, 'property_id');
    assert.equal((await askApi(sim, 'supplier_d', ids('supplier_d', 250), p)).size, 250);
  });

  it('rejects bad dates, occupancy and bodies with a 400 JSON naming the parameter', async () => {
    // supplier_a answers in Booking.com's error body (decision 151; apis/booking-demand.test.ts).
    const aBody = searchBody([1], { number_of_adults: 2, number_of_rooms: 1 });
    const a = async (body: unknown, what: string) => {
      const answer = await bookingSearch(sim, body);
      assert.equal(answer.status, 400, what);
      assert.equal(answer.body.errors[0].id, 'invalid_parameter', what);
    };
    await a({ ...aBody, checkin: '2027-02-30' }, 'a: not a real date');
    await a({ ...aBody, checkout: STAY.checkin }, 'a: checkout not after checkin');
    await a({ ...aBody, guests: { number_of_adults: 0, number_of_rooms: 1 } }, 'a: no adult');
    await a({ ...aBody, guests: { number_of_adults: 2, number_of_rooms: 1, children: [18] } }, 'a: age 18');
    await a({ ...aBody, guests: { number_of_adults: 2, number_of_rooms: 0 } }, 'a: no room');
    await a({ ...aBody, currency: 'EURO' }, 'a: bad currency');
    await a({ ...aBody, accommodations: ['1'] }, 'a: string ids');
    await a({ ...aBody, accommodations: [] }, 'a: no ids');
    await a([], 'a: not an object');
    const headers = {
      Authorization: `Bearer ${SIM_CREDENTIALS['booking-demand'].key}`,
      'X-Affiliate-Id': SIM_CREDENTIALS['booking-demand'].affiliateId,
    };
    const noBody = await fetch(`${sim.urls.supplier_a}/accommodations/search`, { method: 'POST', headers });
    assert.equal(noBody.status, 400);
    const notJson = await fetch(`${sim.urls.supplier_a}/accommodations/search`, { method: 'POST', body: '{', headers });
    assert.equal(notJson.status, 400);

    // supplier_b answers in Hotelbeds' own error body (apis/hotelbeds.test.ts).

    // supplier_c answers in LiteAPI's own error body (apis/liteapi.test.ts).

    // supplier_d answers in Rapid's own error body (apis/expedia-rapid.test.ts).
  });

  it('answers other methods on a quote path with 405', async () => {
    const response = await fetch(`${sim.urls.supplier_a}/accommodations/search`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.equal((await fetch(`${sim.urls.supplier_d}/properties/availability`, { method: 'POST', body: '{}' })).status, 405);
  });
});
