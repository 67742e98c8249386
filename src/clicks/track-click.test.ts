// One click without HTTP: the supplier chosen, its booking page filled with the link's fields and
// the click id, the click recorded (in a real SQLite click store), and nothing counted when there
// is no page to send the traveller to or the click only checks the link (HEAD).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SUPPLIER_IDS, type Listing, type Stay, type SupplierId } from '../types.ts';
import { createBookingPage, type BookingPage } from './booking-page.ts';
import type { ClickStore } from './click-store.ts';
import { createSqliteClickStore } from './sqlite-click-store.ts';
import { trackClick, type ClickLink, type ClickRequest, type ClickSinks } from './track-click.ts';

const SETTINGS = { adults: 2, rooms: 1 };
const NOW = new Date('2026-11-21T10:00:00Z');
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const UNDATED: ClickLink = { aid: 'aff-7', campaign: 'spring', checkin: null, checkout: null, adults: null, rooms: null };

/** A slot whose booking page shows every field a click fills. */
function templatePage(supplier: SupplierId): BookingPage {
  return createBookingPage({
    api: 'hotelbeds',
    bookingUrl: `https://${supplier}.example/book/{supplierStayId}?aid={aid}&c={campaign}&click={clickId}&in={checkin}&out={checkout}&a={adults}&r={rooms}`,
    baseUrl: `https://${supplier}.example`,
    affiliateId: 'op-1',
  });
}

/** A Booking.com slot without a template: a listing without its own page has none. */
const NO_PAGE = createBookingPage({ api: 'booking-demand', bookingUrl: null, baseUrl: 'https://b.example', affiliateId: 'op-1' });

function stayOf(suppliers: SupplierId[]): Stay {
  return { id: 's_1', listings: suppliers.map((supplier) => ({ supplier, supplierStayId: `${supplier}-9` }) as Listing) } as Stay;
}

let clicks: ClickStore;
let sinks: ClickSinks;
beforeEach(() => {
  clicks = createSqliteClickStore({ path: ':memory:' });
  sinks = { clicks, bookingPages: Object.fromEntries(SUPPLIER_IDS.map((s) => [s, templatePage(s)])) as ClickSinks['bookingPages'] };
});
afterEach(() => clicks.close());

const request = (overrides: Partial<ClickRequest>): ClickRequest => ({
  stay: stayOf(['supplier_a', 'supplier_b']),
  supplier: null,
  offers: null,
  link: UNDATED,
  userAgent: IPHONE,
  record: true,
  now: NOW,
  ...overrides,
});

describe('trackClick', () => {
  it("sends the named supplier's booking page the link's fields and the click id, and records the click", async () => {
    const outcome = await trackClick(sinks, request({ supplier: 'supplier_b' }), SETTINGS);
    assert.ok('location' in outcome, 'a booking page to send the traveller to');
    assert.equal(outcome.supplier, 'supplier_b');
    const page = new URL(outcome.location);
    assert.equal(page.origin + page.pathname, 'https://supplier_b.example/book/supplier_b-9');
    assert.deepEqual(Object.fromEntries(page.searchParams), { aid: 'aff-7', c: 'spring', click: outcome.clickId });
    assert.deepEqual(await clicks.recent(5), [
      {
        id: outcome.clickId,
        at: NOW.toISOString(),
        aid: 'aff-7',
        campaign: 'spring',
        stayId: 's_1',
        supplier: 'supplier_b',
        supplierStayId: 'supplier_b-9',
        device: 'mobile',
      },
    ]);
  });

  it('without a named supplier: the best-priced one for the offers, else the first', async () => {
    const priced = await trackClick(
      sinks,
      request({
        offers: new Map([
          ['supplier_a', 120],
          ['supplier_b', 95],
        ]),
      }),
      SETTINGS,
    );
    assert.ok('location' in priced, 'a booking page to send the traveller to');
    assert.equal(priced.supplier, 'supplier_b');
    const first = await trackClick(sinks, request({}), SETTINGS);
    assert.ok('location' in first, 'a booking page to send the traveller to');
    assert.equal(first.supplier, 'supplier_a');
  });

  it("a dated link opens on its dates with its party, or with the search's defaults when it names none", async () => {
    const dated = { ...UNDATED, checkin: '2026-12-01', checkout: '2026-12-04' };
    const defaulted = await trackClick(sinks, request({ supplier: 'supplier_a', link: dated }), SETTINGS);
    assert.ok('location' in defaulted, 'a booking page to send the traveller to');
    const params = new URL(defaulted.location).searchParams;
    assert.deepEqual([params.get('in'), params.get('out'), params.get('a'), params.get('r')], ['2026-12-01', '2026-12-04', '2', '1']);
    const own = await trackClick(sinks, request({ supplier: 'supplier_a', link: { ...dated, adults: 3, rooms: 2 } }), SETTINGS);
    assert.ok('location' in own, 'a booking page to send the traveller to');
    assert.deepEqual([new URL(own.location).searchParams.get('a'), new URL(own.location).searchParams.get('r')], ['3', '2']);
    // An undated link that names no party names none: the page gets no party either.
    const undated = await trackClick(sinks, request({ supplier: 'supplier_a' }), SETTINGS);
    assert.ok('location' in undated, 'a booking page to send the traveller to');
    assert.equal(new URL(undated.location).searchParams.has('a'), false);
  });

  it('a slot with no page for the stay is unavailable, and no click is counted', async () => {
    sinks.bookingPages.supplier_c = NO_PAGE;
    const outcome = await trackClick(sinks, request({ stay: stayOf(['supplier_c']), supplier: 'supplier_c' }), SETTINGS);
    assert.deepEqual(outcome, { unavailable: 'supplier_c' });
    assert.deepEqual(await clicks.recent(5), []);
  });

  it('a click that only checks the link (HEAD) gets the page, but is not counted', async () => {
    const outcome = await trackClick(sinks, request({ supplier: 'supplier_a', record: false }), SETTINGS);
    assert.ok('location' in outcome, 'a booking page to send the traveller to');
    assert.deepEqual(await clicks.recent(5), []);
  });

  it('gives every click an id of its own', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const outcome = await trackClick(sinks, request({ supplier: 'supplier_a' }), SETTINGS);
      assert.ok('clickId' in outcome, 'a booking page to send the traveller to');
      assert.match(outcome.clickId, /^[A-Za-z0-9_-]{22}$/);
      ids.add(outcome.clickId);
    }
    assert.equal(ids.size, 20);
  });
});
