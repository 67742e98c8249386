// The simulated Expedia Rapid as a client meets it over HTTP: the EAN signature, content pages by
// `Link` whose tokens expire (410), availability priced to simQuote's cent, `[]` for none, and the
// Vrbo page that lands clicks. The wire shapes against the published schema are the gateway's
// contract test (src/suppliers/expedia-rapid-contract.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createBookingLedger, type BookingLedger } from '../bookings.ts';
import { createSupplierServer, type SupplierServer } from '../create-supplier-server.ts';
import { generateWorld, type World } from '../generate-world.ts';
import { isSoldOut, simQuote, type SimQuoteRequest } from '../price-stay.ts';
import { SIM_CREDENTIALS } from '../sim-credentials.ts';
import { RAPID_SIGNATURE_SKEW_S, RAPID_UNAUTHENTICATED } from './expedia-rapid-auth.ts';
import { RAPID_CONTENT_PAGE_SIZE, RAPID_LINK_TTL_MS, rapidGuestOverall } from './expedia-rapid-content-route.ts';
import { expediaRapidRoutes, RAPID_BOOKING_URL } from './expedia-rapid-routes.ts';

const CREDENTIALS = SIM_CREDENTIALS['expedia-rapid'];
const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };
/**
 * The ledger's clock, a fixed day before STAY: on the real clock, landings from 2027-03-01 on could
 * no longer book STAY and the booking page's test would fail every run (signatures keep the real one).
 */
const LEDGER_NOW = Date.parse('2026-11-21T10:00:00Z');
const SHOP = 'currency=USD&country_code=US&language=en-US&sales_channel=meta&sales_environment=hotel_only&rate_plan_count=4';

let world: World;
let ledger: BookingLedger;
let server: SupplierServer;
let url: string;
/** The slot's clock, moved by the tests that make a link expire. */
let clockOffsetMs = 0;

before(async () => {
  world = generateWorld({ seed: 21, stays: 3_000 });
  ledger = createBookingLedger({ world, now: () => LEDGER_NOW + clockOffsetMs });
  server = createSupplierServer({
    supplier: 'supplier_d',
    routes: expediaRapidRoutes({ supplier: 'supplier_d', world, ledger, credentials: CREDENTIALS }),
  });
  url = await server.listen(0, '127.0.0.1');
});
after(async () => {
  await server.close();
});

function authorization(offsetS = 0, secret = CREDENTIALS.secret, key = CREDENTIALS.key): string {
  const seconds = Math.floor(Date.now() / 1_000) + offsetS;
  const signature = createHash('sha512').update(`${key}${secret}${seconds}`).digest('hex');
  return `EAN APIKey=${key},Signature=${signature},timestamp=${seconds}`;
}

async function call(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: authorization(), accept: 'application/json', ...headers } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const nextOf = (headers: Headers): string | null => /<([^>]*)>;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1] ?? null;

describe('Expedia Rapid (sim): signatures', () => {
  it("answers 401 with Rapid's error body: none, a wrong secret, a wrong key, a clock too far off", async () => {
    const unsigned = await fetch(`${url}/properties/content?language=en-US&supply_source=vrbo`);
    assert.equal(unsigned.status, 401);
    const body = await unsigned.json();
    assert.equal(body.type, 'request_unauthenticated');
    assert.equal(body.message, RAPID_UNAUTHENTICATED);
    for (const header of [
      authorization(0, 'not-the-secret'),
      authorization(0, CREDENTIALS.secret, 'not-the-key'),
      authorization(RAPID_SIGNATURE_SKEW_S + 60),
      'Bearer x',
    ]) {
      const answer = await call('/properties/availability?property_id=1', { authorization: header });
      assert.equal(answer.status, 401, header);
      assert.equal(answer.body.type, 'request_unauthenticated');
    }
  });

  it('accepts a timestamp a little before or after its clock', async () => {
    for (const offset of [-(RAPID_SIGNATURE_SKEW_S - 30), RAPID_SIGNATURE_SKEW_S - 30]) {
      const answer = await call('/properties/content?language=en-US&supply_source=vrbo', { authorization: authorization(offset) });
      assert.equal(answer.status, 200);
    }
  });
});

describe('Expedia Rapid (sim): content', () => {
  it('pages the slot by Link to the end: maps keyed by property id, in feed order, only the included fields', async () => {
    const listings = world.listings.supplier_d;
    const ids: string[] = [];
    let next: string | null = `${url}/properties/content?language=en-US&supply_source=vrbo&include=name&include=category`;
    let pages = 0;
    while (next !== null) {
      const response: Response = await fetch(next, { headers: { authorization: authorization() } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('pagination-total-results'), String(listings.length));
      const body = (await response.json()) as Record<string, any>;
      for (const [key, property] of Object.entries(body)) {
        assert.equal(property.property_id, key);
        assert.deepEqual(Object.keys(property).sort(), ['category', 'name', 'property_id']);
      }
      ids.push(...Object.keys(body));
      next = nextOf(response.headers);
      if (next !== null) assert.match(response.headers.get('link')!, /; expires=\d{4}-\d{2}-\d{2}T/);
      pages++;
    }
    assert.equal(pages, Math.ceil(listings.length / RAPID_CONTENT_PAGE_SIZE));
    assert.deepEqual(
      ids,
      listings.map((l) => l.supplierStayId),
    );
  });

  it("answers an expired link with the spec's 410, and Expedia supply with nothing", async () => {
    const first = await call('/properties/content?language=en-US&supply_source=vrbo');
    const next = nextOf(first.headers)!;
    clockOffsetMs = RAPID_LINK_TTL_MS + 1_000;
    try {
      const expired = await fetch(next, { headers: { authorization: authorization() } });
      assert.equal(expired.status, 410);
      assert.deepEqual(await expired.json(), {
        type: 'link.expired',
        message: 'The link you followed has expired. Please build a new request to restart pagination.',
      });
    } finally {
      clockOffsetMs = 0;
    }
    const expedia = await call('/properties/content?language=en-US&supply_source=expedia');
    assert.deepEqual([expedia.status, expedia.body, expedia.headers.get('link')], [200, {}, null]);
  });

  it('refuses a missing language or supply source with invalid_input and nested errors', async () => {
    const answer = await call('/properties/content');
    assert.equal(answer.status, 400);
    assert.equal(answer.body.type, 'invalid_input');
    assert.deepEqual(
      answer.body.errors.map((e: any) => e.type),
      ['language.required', 'supply_source.invalid'],
    );
  });

  it('writes ratings as Rapid does: stars "0.0" for none, guest ratings halved onto 1.0-5.0, no guest block without reviews', async () => {
    assert.deepEqual(
      [rapidGuestOverall(8.4), rapidGuestOverall(8.7), rapidGuestOverall(10), rapidGuestOverall(1)],
      ['4.2', '4.35', '5.0', '1.0'],
    );
    const { body } = await call('/properties/content?language=en-US&supply_source=vrbo&include=ratings');
    const byId = new Map(world.listings.supplier_d.map((l) => [l.supplierStayId, l]));
    for (const [id, property] of Object.entries(body as Record<string, any>)) {
      const { value, count, hotelStars } = byId.get(id)!.rating;
      assert.equal(property.ratings.property.rating, hotelStars === null ? '0.0' : hotelStars.toFixed(1));
      if (value === null || count === 0) assert.equal(property.ratings.guest, undefined);
      else assert.deepEqual(property.ratings.guest, { count, overall: rapidGuestOverall(value) });
    }
  });
});

describe('Expedia Rapid (sim): availability', () => {
  const ids = () => world.listings.supplier_d.slice(0, 60).map((l) => l.supplierStayId);
  const ask = (occupancies: string[], propertyIds: string[]) =>
    call(
      `/properties/availability?checkin=${STAY.checkin}&checkout=${STAY.checkout}&${SHOP}&${occupancies.map((o) => `occupancy=${o}`).join('&')}&${propertyIds.map((id) => `property_id=${id}`).join('&')}`,
    );

  it("prices each property's cheapest rate, room by room, to simQuote's total; leaves out what is not available", async () => {
    // Two rooms of an uneven party: 2 adults + a 7-year-old, and 1 adult.
    const { status, body } = await ask(['2-7', '1'], [...ids(), '99']);
    assert.equal(status, 200);
    const request: SimQuoteRequest = { ...STAY, adults: 3, children: 1, childrenAges: [7], rooms: 2, currency: 'USD' };
    const answered = new Map<string, any>(body.map((p: any) => [p.property_id, p]));
    assert.ok(!answered.has('99'), 'an id the slot does not sell is left out');
    let available = 0;
    for (const id of ids()) {
      const truth = simQuote(world, 'supplier_d', id, request);
      const property = answered.get(id);
      if (!truth.available) {
        assert.equal(property, undefined, `${id} left out`);
        continue;
      }
      available++;
      const totals = property.rooms
        .flatMap((r: any) => r.rates)
        .map((rate: any) =>
          ['2-7', '1'].reduce(
            (sum, key) => sum + Math.round(Number(rate.occupancy_pricing[key].totals.property_inclusive.request_currency.value) * 100),
            0,
          ),
        );
      assert.equal(Math.min(...totals), Math.round(truth.total * 100), id);
    }
    assert.ok(available > 0, 'some available');
  });

  it('prices rooms asked alike alike, and still adds up to simQuote (its totals are whole cents per room)', async () => {
    const { body } = await ask(['2', '2', '1-12', '1-12'], ids());
    const request: SimQuoteRequest = { ...STAY, adults: 6, children: 2, childrenAges: [12, 12], rooms: 4, currency: 'USD' };
    assert.ok(body.length > 0, 'some available');
    for (const property of body) {
      const truth = simQuote(world, 'supplier_d', property.property_id, request);
      assert.ok(truth.available, 'answered: available');
      const cheapest = Math.min(
        ...property.rooms[0].rates.map((rate: any) =>
          ['2', '2', '1-12', '1-12'].reduce(
            (sum, key) => sum + Math.round(Number(rate.occupancy_pricing[key].totals.property_inclusive.request_currency.value) * 100),
            0,
          ),
        ),
      );
      assert.equal(cheapest, Math.round(truth.total * 100), property.property_id);
    }
  });

  it('answers `200 []` when nothing is available, and refuses 251 ids', async () => {
    const soldOut = world.listings.supplier_d.find((l) => isSoldOut(world, 'supplier_d', l.propertyId, STAY.checkin))!;
    const none = await ask(['2'], [soldOut.supplierStayId]);
    assert.deepEqual([none.status, none.body], [200, []]);
    const many = await ask(
      ['2'],
      Array.from({ length: 251 }, (_v, i) => String(i + 1)),
    );
    assert.equal(many.status, 400);
    assert.deepEqual(
      many.body.errors.map((e: any) => e.type),
      ['property_id.invalid'],
    );
  });
});

describe('Expedia Rapid (sim): the Vrbo page', () => {
  it('takes the default template, and lands the click in the ledger', async () => {
    const listing = world.listings.supplier_d[3];
    const link = RAPID_BOOKING_URL.replace('{supplierUrl}', url)
      .replace('{supplierStayId}', listing.supplierStayId)
      .replace('{clickId}', 'click-rapid-1')
      .replace('{checkin}', STAY.checkin)
      .replace('{checkout}', STAY.checkout)
      .replace('{adults}', '2')
      .replace('{affiliateId}', CREDENTIALS.affiliateId)
      .replace('{aid}', 'partner-aid');
    assert.doesNotMatch(link, /[{}]/, 'every placeholder filled');
    assert.equal((await fetch(link)).status, 200);
    const before = ledger.bookings('supplier_d').length;
    for (let i = 2; i < 80; i++) await fetch(link.replace('click-rapid-1', `click-rapid-${i}`));
    assert.ok(ledger.bookings('supplier_d').length > before, 'some landings book');
    assert.equal((await fetch(link.replace(`selected=${listing.supplierStayId}`, 'selected=1'))).status, 404);
  });
});
