// The simulated Hotelbeds APItude as a client meets it over HTTP: signatures, the content window,
// availability priced to simQuote's cent, photos and the operator's booking page. The wire shapes
// against the published schemas are the gateway's contract test (src/suppliers/hotelbeds-contract.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createBookingLedger, type BookingLedger } from '../bookings.ts';
import { createSupplierServer, type SupplierServer } from '../create-supplier-server.ts';
import { generateWorld, type World } from '../generate-world.ts';
import { isSoldOut, simQuote, type SimQuoteRequest } from '../price-stay.ts';
import { SIM_CREDENTIALS } from '../sim-credentials.ts';
import { HOTELBEDS_SIGNATURE_SKEW_S } from './hotelbeds-auth.ts';
import { HOTELBEDS_BOOKING_URL, hotelbedsRoutes } from './hotelbeds.ts';

const CREDENTIALS = SIM_CREDENTIALS.hotelbeds;
const STAY = { checkIn: '2027-03-01', checkOut: '2027-03-04' };
/**
 * The ledger's clock, a fixed day before STAY: on the real clock, landings from 2027-03-01 on could
 * no longer book STAY and the booking page's test would fail every run (signatures keep the real one).
 */
const LEDGER_NOW = Date.parse('2026-11-21T10:00:00Z');

let world: World;
let ledger: BookingLedger;
let server: SupplierServer;
let url: string;

before(async () => {
  world = generateWorld({ seed: 21, stays: 1_500 });
  ledger = createBookingLedger({ world, now: () => LEDGER_NOW });
  server = createSupplierServer({
    supplier: 'supplier_b',
    routes: hotelbedsRoutes({ supplier: 'supplier_b', world, ledger, credentials: CREDENTIALS }),
  });
  url = await server.listen(0, '127.0.0.1');
});
after(async () => {
  await server.close();
});

function signedHeaders(offsetS = 0, secret = CREDENTIALS.secret): Record<string, string> {
  const seconds = Math.floor(Date.now() / 1_000) + offsetS;
  const signature = createHash('sha256').update(`${CREDENTIALS.key}${secret}${seconds}`).digest('hex');
  return { 'Api-key': CREDENTIALS.key, 'X-Signature': signature, accept: 'application/json' };
}

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, { ...init, headers: { ...signedHeaders(), ...(init.headers as Record<string, string>) } });
  return { status: response.status, body: await response.json() };
}

const availability = (body: unknown) =>
  call('/hotel-api/1.0/hotels', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('Hotelbeds (sim): signatures', () => {
  it('answers 401 as Hotelbeds writes it: fields missing, a wrong secret, a clock too far off', async () => {
    const unsigned = await fetch(`${url}/hotel-content-api/1.0/hotels`);
    assert.equal(unsigned.status, 401);
    assert.deepEqual(await unsigned.json(), { error: 'Authorization field missing' });
    for (const headers of [signedHeaders(0, 'not-the-secret'), signedHeaders(HOTELBEDS_SIGNATURE_SKEW_S + 60)]) {
      const answer = await call('/hotel-content-api/1.0/hotels', { headers });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { error: 'Request signature verification failed' });
    }
  });

  it('accepts a signature made a little before or after its clock', async () => {
    for (const offset of [-(HOTELBEDS_SIGNATURE_SKEW_S - 30), HOTELBEDS_SIGNATURE_SKEW_S - 30]) {
      assert.equal((await call('/hotel-content-api/1.0/hotels?from=1&to=1', { headers: signedHeaders(offset) })).status, 200);
    }
  });
});

describe('Hotelbeds (sim): the content window', () => {
  it('pages with from/to (1-based, inclusive), says the total, and keeps only the asked fields', async () => {
    const listings = world.listings.supplier_b;
    const { status, body } = await call('/hotel-content-api/1.0/hotels?fields=code,name&from=3&to=7');
    assert.equal(status, 200);
    assert.deepEqual([body.from, body.to, body.total], [3, 7, listings.length]);
    assert.deepEqual(
      body.hotels,
      listings.slice(2, 7).map((l) => ({ code: Number(l.supplierStayId), name: { content: l.name } })),
    );
    const end = await call(`/hotel-content-api/1.0/hotels?from=${listings.length - 1}&to=${listings.length + 998}`);
    assert.deepEqual([end.body.hotels.length, end.body.to], [2, listings.length]);
  });

  it('refuses a window over 1,000 and a parameter that is not a number, in its own error body', async () => {
    const wide = await call('/hotel-content-api/1.0/hotels?from=1&to=1001');
    assert.equal(wide.status, 400);
    assert.match(wide.body.error.code, /^INVALID_DATA-[0-9A-F]{32}$/);
    assert.equal(wide.body.error.message, 'Invalid data. The number of elements in response are limited to 1000');
    const bad = await call('/hotel-content-api/1.0/hotels?from=a');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.code, /^INVALID_REQUEST-/);
  });

  it('writes stars as categories, and relative image paths served under /giata/', async () => {
    const { body } = await call(`/hotel-content-api/1.0/hotels?from=1&to=1000`);
    const byCode = new Map(world.listings.supplier_b.map((l) => [Number(l.supplierStayId), l]));
    let halves = 0;
    for (const hotel of body.hotels) {
      const stars = byCode.get(hotel.code)!.rating.hotelStars;
      if (stars === null) assert.equal(hotel.categoryCode, undefined);
      else if (Number.isInteger(stars)) assert.equal(hotel.categoryCode, `${stars}EST`);
      else {
        halves++;
        assert.equal(hotel.categoryCode, `H${Math.floor(stars)}_5`);
      }
    }
    assert.ok(halves > 0, 'half stars appear');
    const photo = await fetch(`${url}/giata/${body.hotels[0].images[0].path}`);
    assert.equal(photo.status, 200);
    assert.equal(photo.headers.get('content-type'), 'image/svg+xml');
  });
});

describe('Hotelbeds (sim): availability', () => {
  const codes = () => world.listings.supplier_b.slice(0, 60).map((l) => Number(l.supplierStayId));

  it("prices each hotel's cheapest rates, room by room, to simQuote's total; leaves out what is not available", async () => {
    // Three rooms of an uneven party: two kinds of room (2 adults + a child, and 1 adult).
    const occupancies = [
      { rooms: 1, adults: 2, children: 1, paxes: [{ type: 'CH', age: 7 }] },
      { rooms: 1, adults: 2, children: 1, paxes: [{ type: 'CH', age: 7 }] },
      { rooms: 1, adults: 1, children: 0 },
    ];
    const { status, body } = await availability({ stay: STAY, occupancies, hotels: { hotel: [...codes(), 99] } });
    assert.equal(status, 200);
    const request: SimQuoteRequest = {
      checkin: STAY.checkIn,
      checkout: STAY.checkOut,
      adults: 5,
      children: 2,
      childrenAges: [7, 7],
      rooms: 3,
      currency: 'EUR',
    };
    const answered = new Map<number, any>(body.hotels.hotels.map((h: any) => [h.code, h]));
    assert.equal(body.hotels.total, answered.size);
    assert.ok(!answered.has(99), 'a code the slot does not sell is left out');
    for (const code of codes()) {
      const truth = simQuote(world, 'supplier_b', String(code), request);
      const hotel = answered.get(code);
      if (!truth.available) {
        assert.equal(hotel, undefined, `${code} left out`);
        continue;
      }
      const rates = hotel.rooms.flatMap((r: any) => r.rates);
      const cheapest = (rooms: number, adults: number) =>
        Math.min(...rates.filter((r: any) => r.rooms === rooms && r.adults === adults).map((r: any) => Math.round(Number(r.net) * 100)));
      assert.equal(cheapest(2, 2) + cheapest(1, 1), Math.round(truth.total * 100), String(code));
      assert.equal(hotel.currency, truth.currency);
    }
    const soldOut = world.listings.supplier_b.find((l) => isSoldOut(world, 'supplier_b', l.propertyId, STAY.checkIn))!;
    const none = await availability({
      stay: STAY,
      occupancies: [{ rooms: 1, adults: 1, children: 0 }],
      hotels: { hotel: [Number(soldOut.supplierStayId)] },
    });
    assert.deepEqual(none.body.hotels, { total: 0 });
  });

  it('refuses more than 2,000 codes, and a child without an age', async () => {
    const many = await availability({
      stay: STAY,
      occupancies: [{ rooms: 1, adults: 2, children: 0 }],
      hotels: { hotel: Array.from({ length: 2_001 }, (_v, i) => i + 1) },
    });
    assert.equal(many.status, 400);
    assert.match(many.body.error.code, /^INVALID_DATA-/);
    const ageless = await availability({ stay: STAY, occupancies: [{ rooms: 1, adults: 2, children: 1 }], hotels: { hotel: codes() } });
    assert.equal(ageless.status, 400);
    assert.match(ageless.body.error.message, /1 children but 0 child ages/);
  });
});

describe('Hotelbeds (sim): the operator booking page', () => {
  it('takes the default template, and lands the click in the ledger', async () => {
    const listing = world.listings.supplier_b[3];
    const link = HOTELBEDS_BOOKING_URL.replace('{supplierUrl}', url)
      .replace('{supplierStayId}', listing.supplierStayId)
      .replace('{clickId}', 'click-hb-1')
      .replace('{checkin}', '2027-03-01')
      .replace('{checkout}', '2027-03-04')
      .replace('{aid}', 'partner-aid')
      .replace('{campaign}', 'spring')
      .replace('{adults}', '3')
      .replace('{rooms}', '2')
      .replace('{affiliateId}', 'agency-7');
    assert.doesNotMatch(link, /[{}]/, 'every placeholder filled');
    const page = await fetch(link);
    assert.equal(page.status, 200);
    const body = await page.json();
    assert.deepEqual([body.adults, body.rooms, body.agency], ['3', '2', 'agency-7'], 'the party and the agency reach the page');
    const before = ledger.bookings('supplier_b').length;
    for (let i = 2; i < 80; i++) await fetch(link.replace('click-hb-1', `click-hb-${i}`));
    assert.ok(ledger.bookings('supplier_b').length > before, 'some landings book');
    assert.equal((await fetch(link.replace(`code=${listing.supplierStayId}`, 'code=1'))).status, 404);
  });
});
