// The documentation as a person sees it: headless Chromium (Debian's, driven by playwright-core)
// opens /docs and the migration guide on a listening gateway. Every request the pages make must
// stay on the gateway (nothing is fetched from elsewhere), and the console must stay free of errors.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.resolve('.scratch');
let t: TestApp;
let browser: Browser;
let origin: string;

before(async () => {
  t = await startTestApp({ stays: 300, app: { publicUrl: null, geocoder: { geocode: async () => null } } });
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.http.server.address() as { port: number }).port}`;
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});
after(async () => {
  await browser?.close();
  await t.close();
});

/** Opens a page, refusing every request that leaves the gateway; returns what went wrong. */
async function visit(url: string, ready: string, screenshot: string): Promise<{ offsite: string[]; errors: string[]; text: string }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const offsite: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const requested = route.request().url();
    if (requested.startsWith(origin) || requested.startsWith('data:')) return route.continue();
    offsite.push(requested);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(origin + url);
  await page.waitForSelector(ready);
  await page.waitForLoadState('networkidle');
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, screenshot), fullPage: false });
  const text = await page.innerText('body');
  await page.close();
  return { offsite, errors, text };
}

describe('documentation in a browser', () => {
  it('/docs renders the interactive reference from /openapi.json, offline, without console errors', async () => {
    const { offsite, errors, text } = await visit('/docs', '.opblock-summary', 'docs.png');
    assert.deepEqual(offsite, []);
    assert.deepEqual(errors, []);
    for (const path of [
      '/v3/accommodations',
      '/v2/accommodations',
      '/v1/accommodations',
      '/v1/reporting/transactions',
      '/go/{id}',
      '/health',
    ]) {
      assert.ok(text.includes(path), `${path} is listed`);
    }
    assert.match(text, /Authorize/);
  });

  it('an operation opens to its parameters, descriptions and examples', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/docs#/search/get_v3_accommodations`);
    await page.waitForSelector('.parameters-container .parameter__name');
    const text = await page.innerText('.opblock.is-open');
    assert.match(text, /hotelsearch/);
    assert.match(text, /Location rule/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the migration guide is a page, linked from the reference', async () => {
    const { offsite, errors, text } = await visit('/docs/migrating-v1-to-v3', 'main h1', 'migration-guide.png');
    assert.deepEqual(offsite, []);
    assert.deepEqual(errors, []);
    assert.match(text, /v1/);
    assert.match(text, /Interactive reference/);
  });
});
