import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBookingPage, needsBookingUrl, VRBO_BOOKING_URL } from './booking-page.ts';

const click = {
  aid: 'partner-1',
  campaign: null,
  clickId: 'ck_abc',
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  rooms: 1,
  today: '2026-11-21',
};
const bookingListing = { supplierStayId: '10004', url: 'https://www.booking.com/hotel/nl/toren.html?aid=!AFFILIATE_ID!' };

test("a Booking.com slot without a template sends the traveller to the stay's own page", () => {
  const page = createBookingPage({
    api: 'booking-demand',
    bookingUrl: null,
    baseUrl: 'https://demandapi.booking.com/3.1',
    affiliateId: '1234567',
  });
  assert.equal(
    page(bookingListing, click),
    'https://www.booking.com/hotel/nl/toren.html?aid=1234567&checkin=2027-03-01&checkout=2027-03-04&group_adults=2&no_rooms=1&label=ck_abc',
  );
  assert.equal(page({ supplierStayId: '10004' }, click), null, 'a listing stored without its page: none');
});

test("the operator's template wins over the stay's own page", () => {
  const page = createBookingPage({
    api: 'booking-demand',
    bookingUrl: 'https://partner.example/b/{supplierStayId}?a={affiliateId}&c={clickId}',
    baseUrl: 'https://demandapi.booking.com/3.1',
    affiliateId: '1234567',
  });
  assert.equal(page(bookingListing, click), 'https://partner.example/b/10004?a=1234567&c=ck_abc');
});

test("a real Rapid slot's default: Vrbo's page with the stay selected, the dates, party and affiliate id", () => {
  const page = createBookingPage({
    api: 'expedia-rapid',
    bookingUrl: VRBO_BOOKING_URL,
    baseUrl: 'https://test.ean.com/v3',
    affiliateId: 'op-7',
  });
  assert.equal(
    page({ supplierStayId: '87704892' }, click),
    'https://www.vrbo.com/search?selected=87704892&startDate=2027-03-01&endDate=2027-03-04&adults=2&affiliateId=op-7',
  );
});

test('a listing page is used only where the API gives one: a LiteAPI slot without a template has none', () => {
  const page = createBookingPage({ api: 'liteapi', bookingUrl: null, baseUrl: 'https://api.liteapi.travel/v3.0', affiliateId: '' });
  assert.equal(page({ supplierStayId: 'lp1', url: 'https://elsewhere.example/x' }, click), null);
  assert.deepEqual(
    (['booking-demand', 'hotelbeds', 'liteapi', 'expedia-rapid'] as const).filter(needsBookingUrl),
    ['hotelbeds', 'liteapi'],
    'the APIs with no page per stay of their own',
  );
});

test('an invalid template is refused when the slot is set up, not at the first click', () => {
  assert.throws(
    () =>
      createBookingPage({
        api: 'hotelbeds',
        bookingUrl: 'https://x.example/{nope}',
        baseUrl: 'https://api.test.hotelbeds.com',
        affiliateId: '',
      }),
    /unknown placeholder \{nope\}/,
  );
});
