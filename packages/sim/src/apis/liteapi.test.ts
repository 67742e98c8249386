// The simulated LiteAPI as a client meets it over HTTP: the key, the country walk and offset paging,
// rates priced to simQuote's cent with a 204 when nothing is available, the operator's booking page and
// the dashboard's commission report from the ledger. The wire shapes against the published schemas are
// the gateway's contract test (src/suppliers/liteapi-contract.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBookingLedger, expectedCommissionUsdCents, stateAt, type BookingLedger } from '../bookings.ts';
import { createSupplierServer, type SupplierServer } from '../create-supplier-server.ts';
import { generateWorld, type World } from '../generate-world.ts';
import { isSoldOut, simQuote, type SimQuoteRequest } from '../price-stay.ts';
import { SIM_CREDENTIALS } from '../sim-credentials.ts';
import { splitAddress } from '../split-address.ts';
import { mediaRoute } from '../media.ts';
import { LITEAPI_HOTEL_TYPE_IDS } from './liteapi-hotels-route.ts';
import { LITEAPI_BOOKING_URL, liteapiRoutes } from './liteapi-routes.ts';

const KEY = SIM_CREDENTIALS.liteapi.key;
const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };

let world: World;
let ledger: BookingLedger;
let server: SupplierServer;
let url: string;
/** The ledger's clock: landings happen at it, the report reads bookings as they stand at it. */
let clock = Date.UTC(2027, 0, 10, 9);

before(async () => {
  world = generateWorld({ seed: 21, stays: 1_500 });
  ledger = createBookingLedger({ world, now: () => clock });
  server = createSupplierServer({
    supplier: 'supplier_c',
    // The slot's pictures, as start-sim-suppliers.ts mounts them beside the API's routes.
    routes: [
      ...liteapiRoutes({ supplier: 'supplier_c', world, ledger, credentials: SIM_CREDENTIALS.liteapi }),
      mediaRoute('supplier_c', world),
    ],
  });
  url = await server.listen(0, '127.0.0.1');
});
after(async () => {
  await server.close();
});

async function call(path: string, init: RequestInit = {}, key = KEY): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, { ...init, headers: { 'X-API-Key': key, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

const rates = (body: unknown) =>
  call('/hotels/rates', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

const countryOf = (address: string): string => splitAddress(address).countryCode;

describe('LiteAPI (sim): the key', () => {
  it("answers 401 as LiteAPI's spec writes it without the key or with another", async () => {
    const bare = await fetch(`${url}/data/countries`);
    assert.equal(bare.status, 401);
    assert.deepEqual(await bare.json(), { error: { code: 401, message: 'Unauthorized' } });
    const wrong = await call('/hotels/rates', { method: 'POST', body: '{}' }, 'not-the-key');
    assert.deepEqual(wrong, { status: 401, body: { error: { code: 401, message: 'Unauthorized' } } });
  });
});

describe('LiteAPI (sim): hotel data', () => {
  it("lists the world's countries with their names", async () => {
    const { status, body } = await call('/data/countries');
    assert.equal(status, 200);
    const codes = body.data.map((c: any) => c.code);
    assert.deepEqual(codes, [...new Set(world.properties.map((p) => p.countryCode))].sort());
    assert.ok(
      body.data.every((c: any) => typeof c.name === 'string' && c.name !== ''),
      'every country named',
    );
  });

  it("lists a country's hotels in offset/limit pages with its total; every hotel of the slot in some country", async () => {
    const countries = (await call('/data/countries')).body.data.map((c: any) => c.code as string);
    const seen: string[] = [];
    for (const code of countries) {
      const expected = world.listings.supplier_c.filter((l) => countryOf(l.address) === code);
      for (let offset = 0; ; offset += 7) {
        const { status, body } = await call(`/data/hotels?countryCode=${code}&offset=${offset}&limit=7`);
        assert.equal(status, 200);
        assert.equal(body.total, expected.length);
        assert.deepEqual(
          body.data.map((h: any) => h.id),
          expected.slice(offset, offset + 7).map((l) => l.supplierStayId),
        );
        assert.deepEqual(
          body.hotelIds,
          body.data.map((h: any) => h.id),
        );
        seen.push(...body.data.map((h: any) => h.id));
        if (offset + 7 >= body.total) break;
      }
    }
    assert.deepEqual(seen.sort(), world.listings.supplier_c.map((l) => l.supplierStayId).sort());
  });

  it('writes a hotel as LiteAPI does: string id, country code, rating 0-10 and its count, stars, type id, absolute photos', async () => {
    const listing = world.listings.supplier_c.find((l) => l.rating.hotelStars !== null && l.type === 'hotel')!;
    const { body } = await call(`/data/hotels?hotelIds=${listing.supplierStayId}`);
    const { line1, city, countryCode } = splitAddress(listing.address);
    assert.deepEqual(body.data[0], {
      id: listing.supplierStayId,
      name: listing.name,
      currency: 'USD',
      country: countryCode,
      city,
      latitude: listing.lat,
      longitude: listing.lng,
      address: line1,
      main_photo: `${url}${listing.media.thumbnail}`,
      thumbnail: `${url}${listing.media.thumbnail}`,
      stars: listing.rating.hotelStars,
      hotelTypeId: LITEAPI_HOTEL_TYPE_IDS.hotel,
      rating: listing.rating.value,
      reviewCount: listing.rating.count,
      accessibilityAttributes: {
        attributes: [],
        petFriendly: '',
        rampAngle: 0,
        rampLength: 0,
        entranceDoorWidth: 0,
        roomMaxGuestsNumber: listing.capacity.guests,
        distanceFromTheElevatorToTheAccessibleRoom: 0,
      },
    });
    const photo = await fetch(body.data[0].thumbnail);
    assert.equal(photo.headers.get('content-type'), 'image/svg+xml');
  });

  it("wants a location (the spec's 400 example), a limit of 1 to 5,000 (200 by default)", async () => {
    assert.deepEqual(await call('/data/hotels'), {
      status: 400,
      body: { error: { code: 4000, description: 'countryCode is required', message: 'bad request' } },
    });
    const big = await call('/data/hotels?countryCode=FR&limit=5001');
    assert.equal(big.status, 400);
    assert.equal(big.body.error.code, 4000);
    const counts = new Map<string, number>();
    for (const l of world.listings.supplier_c) counts.set(countryOf(l.address), (counts.get(countryOf(l.address)) ?? 0) + 1);
    const [crowded, size] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const fallback = await call(`/data/hotels?countryCode=${crowded}`);
    assert.equal(fallback.body.data.length, Math.min(200, size));
  });
});

describe('LiteAPI (sim): rates', () => {
  const ids = () => world.listings.supplier_c.slice(0, 60).map((l) => l.supplierStayId);
  const base = { ...STAY, currency: 'USD', guestNationality: 'US' };

  it("prices each available hotel's cheapest offer at simQuote's total, its rates one per room adding up", async () => {
    const occupancies = [{ adults: 2, children: [7] }, { adults: 2, children: [7] }, { adults: 1 }];
    const { status, body } = await rates({ ...base, hotelIds: [...ids(), 'lp404'], occupancies });
    assert.equal(status, 200);
    const request: SimQuoteRequest = { ...STAY, adults: 5, children: 2, childrenAges: [7, 7], rooms: 3, currency: 'USD' };
    const answered = new Map<string, any>(body.data.map((h: any) => [h.hotelId, h]));
    assert.ok(!answered.has('lp404'), 'an id the slot does not sell is left out');
    let available = 0;
    for (const id of ids()) {
      const truth = simQuote(world, 'supplier_c', id, request);
      const hotel = answered.get(id);
      if (!truth.available) {
        assert.equal(hotel, undefined, `${id} left out`);
        continue;
      }
      available++;
      const totals = hotel.roomTypes.map((offer: any) => {
        assert.equal(offer.rates.length, 3, 'a rate per room');
        const sum = offer.rates.reduce((n: number, rate: any) => n + Math.round(rate.retailRate.total[0].amount * 100), 0);
        assert.equal(sum, Math.round(offer.offerRetailRate[0].amount * 100), 'the rates add up to the offer');
        return offer.offerRetailRate[0];
      });
      const cheapest = totals.reduce((a: any, b: any) => (b.amount < a.amount ? b : a));
      assert.deepEqual(cheapest, { amount: truth.total, currency: truth.currency }, id);
    }
    assert.ok(available > 0 && available < ids().length, `some available (${available}), some not`);
  });

  it('answers HTTP 204 with no body when no hotel is available', async () => {
    const soldOut = world.listings.supplier_c.find((l) => isSoldOut(world, 'supplier_c', l.propertyId, STAY.checkin))!;
    assert.deepEqual(await rates({ ...base, hotelIds: [soldOut.supplierStayId, 'lp404'], occupancies: [{ adults: 1 }] }), {
      status: 204,
      body: null,
    });
  });

  it('prices `limit` of the ids passed (200 by default, 5,000 at most), and refuses a request missing a required field', async () => {
    // 150 ids the slot does not sell, then ids it does: the default limit (200) reaches 50 of those, a limit of 150 none.
    const hotelIds = [...Array.from({ length: 150 }, (_v, i) => `lp-none-${i}`), ...ids()];
    const fallback = await rates({ ...base, hotelIds, occupancies: [{ adults: 1 }] });
    assert.equal(fallback.status, 200);
    assert.ok(fallback.body.data.length > 0, 'the default limit prices some of the ids after the first 150');
    assert.equal((await rates({ ...base, hotelIds, occupancies: [{ adults: 1 }], limit: 150 })).status, 204);
    const over = await rates({ ...base, hotelIds: ids(), occupancies: [{ adults: 1 }], limit: 5_001 });
    assert.equal(over.status, 400);
    const { guestNationality: _n, ...missing } = base;
    assert.deepEqual(await rates({ ...missing, hotelIds: ids(), occupancies: [{ adults: 1 }] }), {
      status: 400,
      body: { error: { code: 4000, description: 'guestNationality is required', message: 'bad request' } },
    });
  });
});

describe('LiteAPI (sim): the operator booking page and the commission report', () => {
  it('lands clicks in the ledger; the report sums each booking day from it', async () => {
    const listing = world.listings.supplier_c[3];
    const link = LITEAPI_BOOKING_URL.replace('{supplierUrl}', url)
      .replace('{supplierStayId}', listing.supplierStayId)
      .replace('{clickId}', 'click-la-1')
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
    const shown = (await page.json()) as Record<string, unknown>;
    assert.deepEqual([shown.adults, shown.rooms, shown.agency], ['3', '2', 'agency-7'], 'the party and the agency reach the page');
    for (let i = 2; i < 120; i++) await fetch(link.replace('click-la-1', `click-la-${i}`));
    const booked = ledger.bookings('supplier_c');
    assert.ok(booked.length > 0, 'some landings book');
    assert.equal((await fetch(link.replace(`hotelId=${listing.supplierStayId}`, 'hotelId=lp404'))).status, 404);

    clock += 3 * 86_400_000; // every landing booked by now (bookings come up to two days after the click)
    const expected = new Map<string, { cents: number; sales: number }>();
    for (const booking of booked) {
      const date = new Date(booking.bookedAt).toISOString().slice(0, 10);
      const day = expected.get(date) ?? { cents: 0, sales: 0 };
      const cents = expectedCommissionUsdCents(booking, stateAt(booking, clock + 1)!.status);
      day.cents += cents;
      if (cents > 0) day.sales += booking.totalUsdCents;
      expected.set(date, day);
    }
    const { status, body } = await call('/commissions/report', {
      method: 'POST',
      body: JSON.stringify({ from: '2027-01-10', to: '2027-01-12' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(status, 200);
    assert.equal(body.success, true);
    assert.deepEqual(
      body.data.map((d: any) => [d.date, d.amount]),
      [...expected].sort().map(([date, day]) => [date, day.cents / 100]),
    );
    for (const day of body.data)
      assert.ok(day.percentage === 0 || Math.abs(day.percentage - 3.5) <= 0.01, `${day.percentage}% is the slot's 3.5%`);
    const bad = await call('/commissions/report', { method: 'POST', body: JSON.stringify({ from: 'yesterday' }) });
    assert.equal(bad.status, 400);
  });
});
