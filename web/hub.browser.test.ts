// The partner hub in headless Chromium: the demo partner signs in with its key (typed, or passed
// as #key=...), the hub draws its charts and lists its transactions, on a desktop and on a phone;
// the key never appears in a URL; no console error, no request off the machine.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startBrowserRig, type BrowserRig } from './test-support/browser.ts';

let rig: BrowserRig;
let demoKey: string;
let demoMapToken: string;
/** Map searches made with the demo partner's map token before the hub is opened (counted for its hub). */
const MAP_SEARCHES = 3;
before(async () => {
  // The demo partner as the first start makes it, with a shorter history; map search counts are
  // stored every 20 ms instead of 10 s.
  rig = await startBrowserRig({ stays: 4_000, settings: { demoClicks: 1_500, mapCountFlushMs: 20 }, app: { demo: true } });
  demoKey = readFileSync(path.join(rig.t.dataDir, 'demo-key.txt'), 'utf8').trim();
  demoMapToken = readFileSync(path.join(rig.t.dataDir, 'demo-map-token.txt'), 'utf8').trim();
  // A partner page on this machine searches the map with the demo token (it lists http://localhost:*).
  for (let i = 0; i < MAP_SEARCHES; i++) {
    const res = await rig.t.app.http.inject({
      url: `/map/v3/accommodations?nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&cluster=auto&pageSize=50&token=${demoMapToken}`,
      headers: { origin: 'http://localhost:8080' },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  // Wait until the gateway has stored the counts.
  const stores = await rig.t.openStores();
  try {
    while ((await stores.keys.mapSearches('demo')).reduce((n, c) => n + c.searches, 0) < MAP_SEARCHES)
      await new Promise((resolve) => setImmediate(resolve));
  } finally {
    await stores.close();
  }
});
after(() => rig?.close());

/** Canvases Chart.js drew on: some pixels are not blank. */
const chartsDrawn = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('canvas')].map((canvas) => {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
      return painted;
    }),
  );

describe('the partner hub', () => {
  it('signs in with a typed key, draws its charts and lists its transactions; the key stays out of every URL', async () => {
    const watch = await rig.open();
    const { page } = watch;
    await page.goto(`${rig.base}/hub`);
    await page.locator('#key').fill(demoKey);
    await page.locator('#signin button[type=submit]').click();
    await page.waitForSelector('body[data-loaded="true"]');
    assert.ok(await page.locator('#signin').isHidden(), 'the sign-in form is gone');
    assert.match((await page.locator('#who').textContent()) ?? '', /demo/);
    const painted = await chartsDrawn(page);
    assert.equal(painted.length, 2);
    for (const p of painted) assert.ok(p > 1_000, `a chart drew ${p} pixels`);
    const rows = await page.locator('#latest tbody tr').count();
    assert.ok(rows > 0, 'latest transactions listed');
    assert.ok((await page.locator('#campaigns tbody tr').count()) > 0, "await page.locator('#campaigns tbody tr').count() > 0");
    assert.equal(await page.locator('#suppliers tbody tr').count(), 4);
    // The embed snippet carries the partner's map token, and the hub lists the token with the
    // map searches counted for it this period.
    const snippet = (await page.locator('#snippet').textContent()) ?? '';
    assert.ok(
      snippet.startsWith(`<iframe src="${rig.base}/map?token=${demoMapToken}&campaign=embed&`),
      `the snippet carries the map token: ${snippet}`,
    );
    assert.match((await page.locator('#snippet-note').textContent()) ?? '', /works on this gateway, http:\/\/localhost:\*/);
    const tokenRow = page.locator('#map-tokens tbody tr', { hasText: demoMapToken });
    assert.equal(await tokenRow.count(), 1, 'the token is listed');
    const cells = await tokenRow.locator('td').allTextContents();
    assert.equal(cells[3], 'active');
    assert.equal(cells[4], String(MAP_SEARCHES), `the searches counted: ${cells.join(' | ')}`);
    assert.match(cells[5], new RegExp(`^\\w{3} \\d\\d: ${MAP_SEARCHES}$`), `by month: ${cells[5]}`);
    await page.locator('#map-tokens').scrollIntoViewIfNeeded();
    await rig.screenshot(page, 'hub-map-tokens');
    // The summary was asked with the key in its header, never in a URL.
    assert.ok(
      watch.requests.some((u) => u.includes('/v1/reporting/summary')),
      "watch.requests.some((u) => u.includes('/v1/reporting/summary'))",
    );
    assert.ok(
      watch.requests.every((u) => !u.includes(demoKey)),
      'no URL carries the key',
    );
    await rig.screenshot(page, 'hub-desktop', { fullPage: true });

    // Another period: the figures follow.
    await page.locator('#start').fill('2026-09-01');
    await page.locator('#end').fill('2026-11-21');
    await page.evaluate(() => delete document.body.dataset.loaded);
    await page.locator('#range button[type=submit]').click();
    await page.waitForSelector('body[data-loaded="true"]');
    assert.equal(await page.locator('#start').inputValue(), '2026-09-01');

    // The CSV download gets every transaction of the period, through the header-keyed route.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#csv').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    assert.match(csv, /^provider,bookingId,bookedDate,/);
    assert.ok(csv.split('\r\n').length > 2, "csv.split('\\r\\n').length > 2");
    assert.ok(
      watch.requests.every((u) => !u.includes(demoKey)),
      'watch.requests.every((u) => !u.includes(demoKey))',
    );
    assert.deepEqual(watch.problems, []);
  });

  it('takes the key from #key=..., removes it from the address bar, and fits a phone', async () => {
    const watch = await rig.open({ width: 390, height: 844, isMobile: true });
    const { page } = watch;
    await page.goto(`${rig.base}/hub#key=${encodeURIComponent(demoKey)}`);
    await page.waitForSelector('body[data-loaded="true"]');
    assert.equal(new URL(page.url()).hash, '');
    assert.ok(
      (await chartsDrawn(page)).every((p) => p > 1_000),
      '(await chartsDrawn(page)).every((p) => p > 1_000)',
    );
    // Nothing wider than the screen.
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      'await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)',
    );
    await rig.screenshot(page, 'hub-phone', { fullPage: true });
    assert.deepEqual(watch.problems, []);
  });

  it('tells a partner without a map token how to get one, with its key id', async () => {
    const key = await rig.t.createKey({ aid: 'no-map-yet', partnerId: 'no-map-yet' });
    const keyId = /^sg_([0-9a-f]{16})_/.exec(key)![1];
    const watch = await rig.open();
    const { page } = watch;
    await page.goto(`${rig.base}/hub#key=${encodeURIComponent(key)}`);
    await page.waitForSelector('body[data-loaded="true"]');
    assert.equal(await page.locator('#snippet').textContent(), `npx staygate keys map-token --key ${keyId} --origin https://<your site>`);
    assert.match((await page.locator('#snippet-note').textContent()) ?? '', /no active map token/);
    assert.ok(await page.locator('#copy').isHidden(), 'nothing to copy');
    assert.match((await page.locator('#map-tokens').textContent()) ?? '', /no map token yet/);
    assert.ok(!(await page.content()).includes(demoMapToken), "another partner's token is nowhere on the page");
    assert.deepEqual(watch.problems, []);
  });

  it('refuses a wrong key and asks again', async () => {
    const watch = await rig.open();
    const { page } = watch;
    await page.goto(`${rig.base}/hub#key=sg_nope_nope`);
    await page.waitForSelector('#signin:not([hidden])');
    assert.match((await page.locator('#signin-error').textContent()) ?? '', /not valid/);
    // The 401 is the expected answer here, not a page error.
    assert.deepEqual(
      watch.problems.filter((p) => !p.includes('401')),
      [],
    );
  });
});
