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
};

test('fills a template, encoding every value but the supplier URL', () => {
  const url = compileBookingTemplate(
    '{supplierUrl}/hotels/{supplierStayId}?affiliate={aid}&click={clickId}&in={checkin}&out={checkout}&src=staygate',
    'http://127.0.0.1:4001/',
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

test('leaves out a parameter whose placeholders are empty', () => {
  const url = compileBookingTemplate('https://book.example/h/{supplierStayId}?aff={aid}&c={clickId}&in={checkin}&flag', '');
  assert.equal(url({ ...fields, aid: null, checkin: null }), 'https://book.example/h/1048576?c=ck_abc&flag');
});

test('refuses templates that could send a traveller elsewhere, or that it cannot fill', () => {
  assert.throws(() => compileBookingTemplate('https://{aid}.example/x', ''), /host/);
  assert.throws(() => compileBookingTemplate('{supplierStayId}/x', ''), /http/);
  assert.throws(() => compileBookingTemplate('javascript:alert(1)//{clickId}', ''), /http/);
  assert.throws(() => compileBookingTemplate('https://x.example/{nope}', ''), /unknown placeholder/);
  assert.throws(() => compileBookingTemplate('https://x.example/a#{clickId}', ''), /fragment/);
});
