import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bookingComUrl } from './booking-com-url.ts';

const fields = {
  affiliateId: '1234567',
  clickId: 'ck_abc',
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 3,
  rooms: 2,
  today: '2026-11-21',
};

/** The query of a URL as pairs, in order, decoded. */
const query = (url: string | null) => [...new URL(url!).searchParams];

test("the details URL (affiliate placeholder only): filled, the link's dates and party added, the click id as label", () => {
  const url = bookingComUrl('https://www.booking.com/hotel/nl/toren.html?affiliate_id=!AFFILIATE_ID!', fields);
  assert.equal(
    url,
    'https://www.booking.com/hotel/nl/toren.html?affiliate_id=1234567&checkin=2027-03-01&checkout=2027-03-04&group_adults=3&no_rooms=2&label=ck_abc',
  );
});

test("a search URL's date placeholders filled with the link's dates; its own party and label replaced by the link's", () => {
  const url = bookingComUrl(
    'https://www.booking.com/hotel/nl/toren.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!&no_rooms=1&group_adults=2&label=theirs',
    fields,
  );
  assert.deepEqual(query(url), [
    ['aid', '1234567'],
    ['checkin', '2027-03-01'],
    ['checkout', '2027-03-04'],
    ['group_adults', '3'],
    ['no_rooms', '2'],
    ['label', 'ck_abc'],
  ]);
});

test('without dates on the link: the date parameters left out, never an empty or raw placeholder', () => {
  const url = bookingComUrl(
    'https://www.booking.com/hotel/nl/toren.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!&lang=en-gb',
    { ...fields, checkin: null, checkout: null, adults: null, rooms: null },
  );
  assert.deepEqual(query(url), [
    ['aid', '1234567'],
    ['lang', 'en-gb'],
    ['label', 'ck_abc'],
  ]);
});

test('!TODAY! is the gateway date; an unknown placeholder drops its parameter; the fragment stays', () => {
  const url = bookingComUrl(
    'https://www.booking.com/hotel/nl/toren.html?aid=!AFFILIATE_ID!&since=!TODAY!&x=!NOT_A_THING!#tab-reviews',
    fields,
  );
  assert.equal(new URL(url!).hash, '#tab-reviews');
  assert.deepEqual(query(url).slice(0, 2), [
    ['aid', '1234567'],
    ['since', '2026-11-21'],
  ]);
  assert.ok(!url!.includes('!'), url!);
});

test('a URL naming no affiliate gets aid; values are percent-encoded', () => {
  const url = bookingComUrl('https://www.booking.com/hotel/nl/toren.html', { ...fields, affiliateId: 'a&b', clickId: 'c d' });
  assert.deepEqual(query(url).slice(-2), [
    ['label', 'c d'],
    ['aid', 'a&b'],
  ]);
});

test('no page for what is not an http(s) URL, or names its host by placeholder', () => {
  assert.equal(bookingComUrl('booking://hotel/10004?affiliate_id=!AFFILIATE_ID!', fields), null);
  assert.equal(bookingComUrl('not a url', fields), null);
  assert.equal(bookingComUrl('https://!AFFILIATE_ID!.example/x', fields), null);
});
