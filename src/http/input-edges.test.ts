// Edges of legal-looking input (issue 13, defect 9): early years, negative pages, repeated link
// parameters and control characters in what is stored with a click.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';
import { parseCalendarDate } from './query/search-params.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ stays: 2_000 });
});
after(async () => {
  await t.close();
});

const BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';

describe('dates', () => {
  test('years 0001-0099 are real calendar dates, read as themselves', () => {
    assert.equal(new Date(parseCalendarDate('0050-03-01')!).toISOString().slice(0, 10), '0050-03-01');
    assert.equal(new Date(parseCalendarDate('0001-01-01')!).toISOString().slice(0, 10), '0001-01-01');
    assert.equal(parseCalendarDate('0050-02-29'), null, '50 AD was no leap year');
    assert.notEqual(parseCalendarDate('0048-02-29'), null, '48 AD was');
  });

  test('an early year is a date in the past (VALIDATION_ERROR), not a malformed one', async () => {
    const res = await t.get(`/v3/accommodations?${BOX}&checkin=0050-03-01&checkout=0050-03-04`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
    assert.match(res.body.details.params.checkin, /today or later/);
  });
});

describe('pages', () => {
  test('page 0 and any negative page read as page 1, as the spec clamps (docs/decisions.md 22)', async () => {
    const first = await t.get(`/v3/accommodations?${BOX}&pageSize=3`);
    for (const page of ['0', '-1', '-1000000']) {
      const res = await t.get(`/v3/accommodations?${BOX}&pageSize=3&page=${page}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.meta.page, 1);
      assert.deepEqual(
        res.body.results.map((r: any) => r.id),
        first.body.results.map((r: any) => r.id),
      );
    }
  });
});

describe('precision', () => {
  test('a precision cutting the viewport into more cells than any map shows is a 400 naming what the viewport allows', async () => {
    const world = await t.get('/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&cluster=top&precision=9');
    assert.equal(world.status, 400);
    assert.deepEqual(Object.keys(world.body.details.params), ['precision']);
    assert.match(world.body.message, /use precision 5 or less here/);
    assert.equal((await t.get('/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&cluster=top&precision=5')).status, 200);
    // r15 at street level is still a map.
    assert.equal((await t.get('/v3/accommodations?nelat=48.87&nelng=2.37&swlat=48.85&swlng=2.33&precision=15')).status, 200);
  });
});

describe('/go', () => {
  test('a repeated link parameter is refused, as on a search', async () => {
    const [stay] = (await t.get(`/v3/accommodations?${BOX}&pageSize=1`)).body.results;
    for (const repeated of ['checkin=2027-01-10&checkin=2027-01-11&checkout=2027-01-12', 'aid=a&aid=b', 'campaign=x&campaign=y']) {
      const res = await t.app.http.inject({ method: 'GET', url: `/go/${stay.id}?${repeated}` });
      assert.equal(res.statusCode, 400, repeated);
      assert.equal(res.json().code, 'VALIDATION_ERROR');
    }
  });

  test('aid and campaign with control characters are refused wherever they would be stored', async () => {
    const [stay] = (await t.get(`/v3/accommodations?${BOX}&pageSize=1`)).body.results;
    for (const bad of ['aid=a%00b', 'aid=a%0D%0Ab', 'campaign=x%0Ay', 'campaign=x%7Fy', 'aid=%C2%85']) {
      for (const url of [
        `/go/${stay.id}?${bad}`,
        `/v3/accommodations?${BOX}&${bad}`,
        `/v1/accommodations?provider=supplier_a&${BOX}&${bad}`,
      ]) {
        const res = await t.app.http.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 400, url);
        assert.match(res.json().message, /control characters/, url);
      }
    }
    const fine = await t.app.http.inject({ method: 'GET', url: `/go/${stay.id}?aid=caf%C3%A9-partner&campaign=spring-mail` });
    assert.equal(fine.statusCode, 302);
  });
});
