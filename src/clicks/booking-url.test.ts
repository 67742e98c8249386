import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileBookingTemplate } from './booking-url.ts';

const fields = {
  supplierStayId: '1048576',
  aid: 'aff 1',
  campaign: 'spring-email',
  clickId: 'ck_abc',
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 3,
  rooms: 2,
};
const slot = { supplierUrl: 'http://127.0.0.1:4001/', affiliateId: 'op/42' };

test('fills a template, encoding every value but the supplier URL', () => {
  const url = compileBookingTemplate(
    '{supplierUrl}/hotels/{supplierStayId}?affiliate={aid}&click={clickId}&in={checkin}&out={checkout}&src=staygate',
    slot,
  );
  assert.equal(
    url(fields),
    'http://127.0.0.1:4001/hotels/1048576?affiliate=aff%201&click=ck_abc&in=2027-03-01&out=2027-03-04&src=staygate',
  );
  assert.equal(
    url({ ...fields, supplierStayId: '../x?y' }),
    'http://127.0.0.1:4001/hotels/..%2Fx%3Fy?affiliate=aff%201&click=ck_abc&in=2027-03-01&out=2027-03-04&src=staygate',
  );
});

test("{affiliateId} is the slot's own affiliate id, {adults} and {rooms} the link's party", () => {
  const url = compileBookingTemplate(
    'https://book.example/h/{supplierStayId}?agency={affiliateId}&partner={aid}&camp={campaign}&adults={adults}&rooms={rooms}',
    slot,
  );
  assert.equal(url(fields), 'https://book.example/h/1048576?agency=op%2F42&partner=aff%201&camp=spring-email&adults=3&rooms=2');
  assert.equal(
    url({ ...fields, adults: null, rooms: null, campaign: null }),
    'https://book.example/h/1048576?agency=op%2F42&partner=aff%201',
    'a link without a party leaves its parameters out',
  );
  const none = compileBookingTemplate('https://book.example/h?id={supplierStayId}&agency={affiliateId}', { ...slot, affiliateId: '' });
  assert.equal(none(fields), 'https://book.example/h?id=1048576', 'no affiliate id configured: no empty parameter');
});

test('leaves out a parameter whose placeholders are empty', () => {
  const url = compileBookingTemplate('https://book.example/h/{supplierStayId}?aff={aid}&c={clickId}&in={checkin}&flag', slot);
  assert.equal(url({ ...fields, aid: null, checkin: null }), 'https://book.example/h/1048576?c=ck_abc&flag');
});

test('refuses templates that could send a traveller elsewhere, or that it cannot fill', () => {
  assert.throws(() => compileBookingTemplate('https://{aid}.example/x', slot), /host/);
  assert.throws(() => compileBookingTemplate('https://{affiliateId}.example/x', slot), /host/);
  assert.throws(() => compileBookingTemplate('{supplierStayId}/x', slot), /http/);
  assert.throws(() => compileBookingTemplate('javascript:alert(1)//{clickId}', slot), /http/);
  assert.throws(() => compileBookingTemplate('https://x.example/{nope}', slot), /unknown placeholder/);
  assert.throws(() => compileBookingTemplate('https://x.example/a#{clickId}', slot), /fragment/);
});
