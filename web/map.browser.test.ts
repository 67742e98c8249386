// The stays map in headless Chromium (no GPU): it loads in a viewport, searches it with
// cluster=auto, searches again when zoomed out, zooms into a cell on a click, and at street level
// lists stays whose booking links are /go deeplinks with the page's aid and campaign. No console
// error, and no request off the machine (web/test-support/browser.ts fails on either).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { createKeyAdmin } from '../src/auth/key-admin.ts';
import { startBrowserRig, type BrowserRig, type PageWatch } from './test-support/browser.ts';

let rig: BrowserRig;
/** The partner's map token (docs/decisions.md 91): usable on the gateway's own /map and from a partner page on localhost:9. */
let token: string;
before(async () => {
  rig = await startBrowserRig({ stays: 8_000 });
  const stores = await rig.t.openStores();
  try {
    const admin = createKeyAdmin(stores.keys);
    const { record } = await admin.create({ aid: 'partner-x' });
    token = (await admin.createMapToken({ keyOrId: record.id, origins: ['self', 'http://localhost:9'] })).token;
  } finally {
    await stores.close();
  }
  PARAMS = `token=${token}&campaign=spring-promo&checkin=2026-12-10&checkout=2026-12-13`;
});
after(() => rig?.close());

let PARAMS = '';

/** Searches the map's page made, in order, as URLs. */
const searches = (watch: PageWatch) => watch.requests.filter((u) => u.includes('/map/v3/accommodations?')).map((u) => new URL(u));
/** Waits until the page has drawn a search newer than the `n`th. */
const searched = (page: Page, n: number) => page.waitForFunction((after) => Number(document.body.dataset.searched ?? 0) > after, n);
const searchedCount = (page: Page) => page.evaluate(() => Number(document.body.dataset.searched ?? 0));
const zoomOf = (page: Page) => Number(new URL(page.url()).searchParams.get('zoom'));

describe('the map page', () => {
  it('draws the clusters of its viewport, searches again when zoomed out, and zooms into a cell on a click', async () => {
    const watch = await rig.open();
    const { page } = watch;
    await page.goto(`${rig.base}/map?lat=48.8566&lng=2.3522&zoom=9&${PARAMS}`);
    await searched(page, 0);
    const first = searches(watch).find((u) => u.searchParams.get('cluster') === 'auto')!;
    assert.ok(first, 'a search with cluster=auto');
    for (const name of ['nelat', 'nelng', 'swlat', 'swlng']) assert.ok(Number.isFinite(Number(first.searchParams.get(name))), name);
    assert.equal(first.searchParams.get('token'), token, 'the page sends its token');
    assert.equal(first.searchParams.get('checkin'), '2026-12-10');
    assert.ok((await page.locator('.cluster span').count()) > 0, 'clusters drawn');
    assert.ok(
      (await page.locator('.leaflet-overlay-pane canvas, .leaflet-basemap-pane canvas').count()) > 0,
      'the offline basemap is drawn on a canvas',
    );
    await rig.screenshot(page, 'map-clusters');
    // A dated map says what its prices and its count are: totals for the nights, of the priced stays.
    const status = await page.locator('#status').textContent();
    assert.match(status ?? '', /stays with prices in view · prices are totals for 3 nights/, String(status));

    // Zooming out searches the larger viewport.
    const before = await searchedCount(page);
    const width = (u: URL) => Number(u.searchParams.get('nelng')) - Number(u.searchParams.get('swlng'));
    await page.locator('.leaflet-control-zoom-out').click();
    await searched(page, before);
    const zoomedOut = searches(watch)
      .filter((u) => u.searchParams.get('cluster') === 'auto')
      .at(-1)!;
    assert.ok(width(zoomedOut) > width(first) * 1.5, `${width(zoomedOut)} vs ${width(first)}`);
    assert.equal(zoomOf(page), 8);

    // A click on a cluster zooms into its cell and searches it.
    const again = await searchedCount(page);
    await page.locator('.cluster span').first().click();
    await searched(page, again);
    assert.ok(zoomOf(page) > 8, `zoom ${zoomOf(page)}`);
    await rig.screenshot(page, 'map-cell-clicked');
    assert.deepEqual(watch.problems, []);
  });

  it("at street level shows each stay with its price, and lists /go links with the page's aid and campaign that open a new tab", async () => {
    const watch = await rig.open();
    const { page } = watch;
    // The densest spot of the test world's Paris: a stay with many neighbours.
    const paris = rig.t.world.listings.supplier_a.filter((l) => Math.abs(l.lat - 48.8566) < 0.05 && Math.abs(l.lng - 2.3522) < 0.08);
    const spot = paris[0];
    assert.ok(spot, 'a stay in Paris');
    await page.goto(`${rig.base}/map?lat=${spot.lat}&lng=${spot.lng}&zoom=15&${PARAMS}`);
    await searched(page, 0);
    assert.equal(await page.locator('.cluster span').count(), 0, 'no clusters at street level');
    const markers = await page.locator('.stay span').allTextContents();
    assert.ok(markers.length > 0, 'stays drawn');
    assert.ok(
      markers.some((text) => /^\$\d/.test(text)),
      `prices on the markers: ${markers.join(' | ')}`,
    );
    const links = await page.locator('#list a.book').evaluateAll((as) =>
      as.map((a) => ({
        href: (a as HTMLAnchorElement).href,
        target: (a as HTMLAnchorElement).target,
        rel: (a as HTMLAnchorElement).rel,
      })),
    );
    assert.ok(links.length > 0, 'stays listed');
    for (const link of links) {
      const url = new URL(link.href);
      assert.equal(url.origin, rig.base);
      assert.match(url.pathname, /^\/go\/[^/]+$/);
      assert.equal(url.searchParams.get('aid'), 'partner-x');
      assert.equal(url.searchParams.get('campaign'), 'spring-promo');
      assert.equal(url.searchParams.get('checkin'), '2026-12-10');
      assert.equal(link.target, '_blank');
      assert.match(link.rel, /noopener/);
    }
    // Thumbnails come from the simulated suppliers themselves, on this machine, and load.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('#list img.thumb')].slice(0, 3).every((img) => img.complete && img.naturalWidth > 0),
    );
    assert.ok(
      watch.requests.some((u) => /^http:\/\/127\.0\.0\.1:\d+\/.*\.svg$/.test(u) && !u.startsWith(rig.base)),
      'pictures from the simulated suppliers',
    );
    await rig.screenshot(page, 'map-street');
    // The pins' prices are what the list's are: the total for the stay's 3 nights, and they say so.
    assert.match((await page.locator('#status').textContent()) ?? '', /prices are totals for 3 nights/);
    const listed = await page.locator('#list .price').allTextContents();
    assert.ok(listed.length > 0 && listed.every((text) => /^\$[\d,.]+ for 3 nights$/.test(text)), listed.join(' | '));
    const titles = await page.locator('.leaflet-marker-icon.stay').evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
    assert.ok(
      titles.some((title) => / for 3 nights$/.test(title)),
      titles.slice(0, 5).join(' | '),
    );

    // The link goes where a traveller expects: through /go to the supplier's booking page.
    const go = await fetch(links[0].href, { redirect: 'manual' });
    assert.equal(go.status, 302);
    assert.deepEqual(watch.problems, []);
  });

  it('draws streets, water and names offline at city zoom where the build has them, and says so where it has not', async () => {
    const watch = await rig.open();
    const { page } = watch;
    // Chicago's Loop at city zoom: the river, the lake shore, the street grid, the names.
    await page.goto(`${rig.base}/map?lat=41.8837&lng=-87.6300&zoom=14&${PARAMS}`);
    await searched(page, 0);
    await page.waitForFunction(() => Number(document.body.dataset.streetsLoaded ?? 0) > 0);
    // Pixels of each colour the street style paints (web/map/basemap.ts STREET_COLOURS), read
    // from the street layer's canvas tiles: polled, since labels are placed after the tiles.
    const counts = () =>
      page.evaluate(() => {
        const want: Record<string, [number, number, number]> = {
          water: [0x9e, 0xc5, 0xe0],
          road: [0xff, 0xff, 0xff],
          major: [0xf6, 0xcf, 0x8d],
          label: [0x33, 0x40, 0x4c],
        };
        const found: Record<string, number> = { water: 0, road: 0, major: 0, label: 0, tiles: 0 };
        for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.leaflet-streets-pane canvas')) {
          found.tiles++;
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 0; i < data.length; i += 4)
            for (const [name, [r, g, b]] of Object.entries(want))
              if (data[i] === r && data[i + 1] === g && data[i + 2] === b) found[name]++;
        }
        return found;
      });
    await page.waitForFunction(
      () => document.querySelectorAll('.leaflet-streets-pane canvas').length > 0 && document.querySelector('.basemap-note') !== null,
    );
    let seen = await counts();
    for (let tries = 0; seen.label < 50 && tries < 50; tries++) {
      await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => resolve(true)))); // the next frame
      seen = await counts();
    }
    assert.ok(seen.tiles > 0, `street tiles drawn: ${JSON.stringify(seen)}`);
    assert.ok(seen.water > 5_000, `water drawn (the river, the lake): ${JSON.stringify(seen)}`);
    assert.ok(seen.road > 5_000 && seen.major > 1_000, `streets drawn: ${JSON.stringify(seen)}`);
    assert.ok(seen.label >= 50, `names drawn: ${JSON.stringify(seen)}`);
    assert.equal(await page.locator('.basemap-note').isVisible(), false, 'no "no streets here" note where there are streets');
    assert.ok(
      watch.requests.some((u) => /\/assets\/basemap\/[\w-]+\/13\/\d+\/\d+\.mvt$/.test(u)),
      'the tiles come from the gateway',
    );
    await rig.screenshot(page, 'map-city-streets');

    // Paris has no street tiles in the offline map: the page says so and names the setting.
    await page.goto(`${rig.base}/map?lat=48.8566&lng=2.3522&zoom=13&${PARAMS}`);
    await searched(page, 0);
    const note = page.locator('.basemap-note');
    await note.waitFor({ state: 'visible' });
    assert.match((await note.textContent()) ?? '', /no streets here.*STAYGATE_MAP_TILES_URL/);
    assert.equal(await page.locator('.leaflet-streets-pane canvas').count(), 0, 'no street tiles asked for outside their areas');
    await rig.screenshot(page, 'map-city-no-streets');
    assert.deepEqual(watch.problems, []);
  });

  it("says when a dated view holds more stays than it prices: 'prices for the 150 best-ranked; zoom in for more'", async () => {
    const watch = await rig.open();
    const { page } = watch;
    await page.goto(`${rig.base}/map?lat=48.8566&lng=2.3522&zoom=7&${PARAMS}`);
    await searched(page, 0);
    const status = (await page.locator('#status').textContent()) ?? '';
    assert.match(status, /prices for the 150 best-ranked; zoom in for more/, status);
    await rig.screenshot(page, 'map-dated-capped');
    assert.deepEqual(watch.problems, []);
  });

  it('opens on an address, and fits a phone', async () => {
    const watch = await rig.open({ width: 390, height: 780, isMobile: true });
    const { page } = watch;
    await page.goto(`${rig.base}/map?address=Paris&${PARAMS}`);
    await searched(page, 0);
    assert.ok(
      Math.abs(Number(new URL(page.url()).searchParams.get('lat')) - 48.85) < 0.1,
      "Math.abs(Number(new URL(page.url()).searchParams.get('lat')) - 48.85) < 0.1",
    );
    assert.ok((await page.locator('#list li').count()) > 0, "await page.locator('#list li').count() > 0");
    await rig.screenshot(page, 'map-phone');
    assert.deepEqual(watch.problems, []);
  });

  it("says 'no rating' for a stay without a guest rating, never 0 or NaN (docs/decisions.md 135)", async () => {
    const watch = await rig.open();
    const { page } = watch;
    // Every stay of the answers unrated, as one sold only where the API has no guest rating.
    await page.route('**/map/v3/accommodations?*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      for (const stay of body.results) stay.averageRatings = { ...stay.averageRatings, value: null, count: 0 };
      await route.fulfill({ response, json: body });
    });
    // Static (no dates): the pins show the rating where they would show a price.
    await page.goto(`${rig.base}/map?lat=48.8566&lng=2.3522&zoom=16&token=${token}`);
    await searched(page, 0);
    const pins = await page.locator('.stay span').allTextContents();
    assert.ok(pins.length > 0 && pins.every((text) => text === 'no rating'), pins.join(' | '));
    const meta = await page.locator('#list .meta').allTextContents();
    assert.ok(meta.length > 0 && meta.every((text) => text.endsWith(' · no rating')), meta.join(' | '));
    await page.locator('.stay span').first().click();
    assert.match((await page.locator('.popup').textContent()) ?? '', / · no rating/);
    await rig.screenshot(page, 'map-no-rating');
    assert.deepEqual(watch.problems, []);
  });
});

// A partner's site framing the map (docs/decisions.md 91, 102): a page of another origin, served
// by a server of its own on loopback (another port is another origin), with an iframe of the
// gateway's /map. The map names its embedder to the search (web/map/map.ts `embedder`), and the
// token decides: listed, the searches are answered and drawn; not listed, they are refused.
describe('the map framed by a partner site', () => {
  let site: Server;
  /** http://localhost:<port>: the partner's site (listed by `listed`). */
  let siteOrigin: string;
  /** The same server reached as http://127.0.0.1:<port>: another origin, a copycat's. */
  let copycatOrigin: string;
  let listed: string;
  let elsewhere: string;

  before(async () => {
    // Every page of the site is one iframe of the map with the token and view its query names.
    site = createServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://site').searchParams;
      const src = `${rig.base}/map?token=${query.get('token')}&lat=48.8566&lng=2.3522&zoom=12&campaign=embed`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A partner's blog</title></head>` +
          `<body><h1>Our Paris tips</h1><iframe id="map" src="${src}" width="1000" height="560" style="border:0" title="Stays map"></iframe></body></html>`,
      );
    });
    // On 127.0.0.1, named as localhost: Chromium resolves localhost itself, to ::1 and 127.0.0.1,
    // and connects to whichever answers.
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as { port: number }).port;
    siteOrigin = `http://localhost:${port}`;
    copycatOrigin = `http://127.0.0.1:${port}`;
    const stores = await rig.t.openStores();
    try {
      const admin = createKeyAdmin(stores.keys);
      const { record } = await admin.create({ aid: 'partner-framed' });
      listed = (await admin.createMapToken({ keyOrId: record.id, origins: [siteOrigin] })).token;
      elsewhere = (await admin.createMapToken({ keyOrId: record.id, origins: ['https://blog.example'] })).token;
    } finally {
      await stores.close();
    }
  });
  // Without Chromium the rig never started and neither did the site: nothing to wait for (a
  // promise waiting on a server that was never made would hang the test process).
  after(() => (site === undefined ? undefined : new Promise<void>((resolve) => site.close(() => resolve()))));

  /** Opens `origin`'s page framing the map with `token`; the map's frame, and the statuses of its searches. */
  async function framed(origin: string, token: string): Promise<{ watch: PageWatch; frame: Frame; statuses: number[] }> {
    const watch = await rig.open({ width: 1100, height: 700 });
    const statuses: number[] = [];
    watch.page.on('response', (response) => {
      if (response.url().includes('/map/v3/accommodations?')) statuses.push(response.status());
    });
    await watch.page.goto(`${origin}/blog?token=${token}`);
    const element = await watch.page.waitForSelector('iframe#map');
    const frame = (await element.contentFrame())!;
    assert.ok(frame, 'the iframe has a frame');
    await frame.waitForSelector('#map');
    assert.ok(frame.url().startsWith(`${rig.base}/map?`), `the frame shows the map, not an error page: ${frame.url()}`);
    return { watch, frame, statuses };
  }

  it("on a site its token lists, the map's searches are answered and drawn, with the token's aid in the links", async () => {
    const { watch, frame, statuses } = await framed(siteOrigin, listed);
    await frame.waitForFunction(() => Number(document.body.dataset.searched ?? 0) > 0);
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), `the searches answered: ${statuses.join(', ')}`);
    assert.ok((await frame.locator('.cluster span, .leaflet-marker-icon.stay, path.leaflet-interactive').count()) > 0, 'stays drawn');
    const links = await frame.locator('#list a.book').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    assert.ok(links.length > 0, 'stays listed');
    for (const link of links) assert.equal(new URL(link).searchParams.get('aid'), 'partner-framed');
    assert.equal(await frame.locator('#banner').isVisible(), false, 'no error banner');
    await rig.screenshot(watch.page, 'map-framed-listed');
    assert.deepEqual(watch.problems, []);
  });

  it('on a site its token does not list, every search is refused (403) and the map says why', async () => {
    // The copycat: the same page from another origin, with the listed site's token; then the
    // site's own origin with a token made for another site.
    for (const [origin, token] of [
      [copycatOrigin, listed],
      [siteOrigin, elsewhere],
    ]) {
      const { watch, frame, statuses } = await framed(origin, token);
      const banner = frame.locator('#banner');
      await banner.waitFor({ state: 'visible' });
      assert.match(
        (await banner.textContent()) ?? '',
        new RegExp(`The search failed: This map token is not for ${origin.replaceAll('.', '\\.')}`),
      );
      assert.ok(statuses.length > 0 && statuses.every((s) => s === 403), `the searches refused: ${statuses.join(', ')}`);
      assert.equal(await frame.locator('.cluster, .leaflet-marker-icon.stay, #list li').count(), 0, 'nothing drawn');
      await rig.screenshot(watch.page, `map-framed-refused-${origin === siteOrigin ? 'other-site' : 'copycat'}`);
      // The browser logs the refused request itself; nothing else went wrong.
      assert.deepEqual(
        watch.problems.filter((p) => !/status of 403/.test(p)),
        [],
      );
    }
  });
});
