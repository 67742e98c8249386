// Browser tests: a gateway on a small simulated world listening on loopback, the pages built, and
// Debian's Chromium driven by playwright-core (installed by .ci/run when missing). Every page is
// watched: a console error, an uncaught exception or a request to a host off this machine fails
// the test (requests off the machine are also blocked, so none ever leaves).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp, type TestAppOptions } from '../../src/test-support/start-test-app.ts';
import { buildWeb } from '../build.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../chromium.ts';

export { assertChromium, CHROMIUM, CHROMIUM_ARGS };

/** Screenshots of the tests (git-ignored): look at them. */
export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../.screenshots');

/**
 * Whether a URL's hostname is this machine: `localhost`, `::1` or any address of 127.0.0.0/8 (all
 * loopback). Only 127.0.0.1 used to count, so a page on http://127.0.0.2 (a second loopback origin,
 * as a partner site beside the gateway) was aborted as "off the machine" and its frame showed
 * chrome-error://chromewebdata/.
 */
export function onThisMachine(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export interface PageWatch {
  page: Page;
  /** Console errors, page errors and off-machine requests seen so far. */
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
}

export interface BrowserRig {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  base: string;
  browser: Browser;
  open(options?: { width?: number; height?: number; isMobile?: boolean }): Promise<PageWatch>;
  /** Writes .screenshots/<name>.png (the whole page with `fullPage`). */
  screenshot(page: Page, name: string, options?: { fullPage?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** `executablePath`: the Chromium to drive (default CHROMIUM). */
export async function startBrowserRig(rigOptions: TestAppOptions & { executablePath?: string } = {}): Promise<BrowserRig> {
  const { executablePath = CHROMIUM, ...options } = rigOptions;
  assertChromium(executablePath);
  // The pages are built into a folder of this test's own, not web/dist: buildWeb empties its
  // folder first, and test files run concurrently (a page served while another file rebuilt
  // web/dist would be missing).
  const webDir = mkdtempSync(path.join(tmpdir(), 'staygate-web-dist-'));
  await buildWeb(webDir);
  // Links are written with the request's own host (127.0.0.1:<port>), not a made-up public URL.
  const t = await startTestApp({ ...options, app: { publicUrl: null, webDir, ...options.app } });
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.http.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (error) {
    // The gateway is up already: close it, or the test process never exits.
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
    throw error;
  }
  const contexts: BrowserContext[] = [];
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    t,
    base,
    browser,
    async open({ width = 1280, height = 800, isMobile = false } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, isMobile, hasTouch: isMobile, deviceScaleFactor: 1 });
      contexts.push(context);
      const problems: string[] = [];
      const requests: string[] = [];
      // Nothing leaves the machine: a request to any other host is refused and reported.
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || url.protocol === 'blob:' || onThisMachine(url.hostname)) return route.continue();
        problems.push(`request off the machine: ${url.href}`);
        return route.abort();
      });
      const page = await context.newPage();
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, problems, requests };
    },
    async screenshot(page, name, { fullPage = false } = {}) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage });
      return file;
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      await t.close();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
}
