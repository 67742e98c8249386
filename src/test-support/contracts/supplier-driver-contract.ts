// What every supplier driver does, whatever its API: each driver's test file
// (suppliers/<api>.test.ts) calls runSupplierDriverContract with the fixtures of its wire format
// (fixture-server.ts answers them). Refused credentials, 429s, paging to the end, a supplier that
// is down or failing, what is not available, and a caller's abort, each checked once here for all
// four, where each driver's file used to check its own drifting selection of them.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { defaults } from '../../defaults.ts';
import type { SupplierId } from '../../types.ts';
import { observeCalls } from '../../suppliers/call-observer.ts';
import { SupplierError } from '../../suppliers/supplier-error.ts';
import type { DriverSettings, QuoteRequest, Supplier } from '../../suppliers/supplier.ts';
import { expectSupplierError } from '../expect-supplier-error.ts';
import { freePort } from '../free-port.ts';
import { collectPages, startFixtureServer, type FixtureRequest, type FixtureResponse, type FixtureServer } from '../fixture-server.ts';

/** Answers one request of the API (the URL with the fixture server's own host). */
export type FixtureHandler = (url: URL, request: FixtureRequest) => FixtureResponse;

/** A driver's wire format, as its test file gives it to the contract. */
export interface DriverFixtures {
  supplier: SupplierId;
  /** The driver at a fixture server's address, with these figures. */
  driverAt(baseUrl: string, settings: DriverSettings): Supplier;
  /** The credential the driver sends, which no message may carry. */
  key: string;
  /** Its wait before retrying a 429 that names none. */
  backoffMs: number;
  /** Ids of the API's own format. */
  ids: readonly string[];
  /** An id the API's format cannot express: answered not available without being sent. */
  foreignId: string;
  /**
   * The API's content: `ids` as listings, `perPage` a page, the page size the driver asks where
   * the API lets it choose (the contract asks `perPage`), else the server's own.
   */
  content(ids: readonly string[], perPage: number): FixtureHandler;
  /** The API's availability answer: each id of `prices` available at that total in `currency`, every other id left out. */
  quotes(prices: ReadonlyMap<string, number>, currency: string): FixtureHandler;
  /** The API's body refusing credentials (401, 403) with `message` as its own words. */
  refusal(message: string): unknown;
}

const STAY: Omit<QuoteRequest, 'supplierStayIds'> = {
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'EUR',
};

/** Runs the driver contract against fixture servers answering as `fixtures` says the API does. */
export function runSupplierDriverContract(name: string, fixtures: DriverFixtures): void {
  describe(`supplier driver contract: ${name}`, () => {
    const { supplier, key } = fixtures;
    let server: FixtureServer;
    let respond: FixtureHandler = () => ({ status: 500, body: 'no answer set' });
    before(async () => {
      server = await startFixtureServer((url, request) =>
        respond(new URL(url.pathname + url.search, `http://${String(request.headers.host)}`), request),
      );
    });
    after(() => server.close());
    beforeEach(() => {
      respond = () => ({ status: 500, body: 'no answer set' });
    });
    const driver = (settings: DriverSettings = defaults): Supplier => fixtures.driverAt(server.baseUrl, settings);
    const request = (ids: readonly string[]): QuoteRequest => ({ ...STAY, supplierStayIds: [...ids] });
    const [first, second, third] = fixtures.ids;
    /** Runs `work` counting the 429 waits its calls were told. */
    const watchingWaits = async <T>(work: () => Promise<T>): Promise<{ value: T; waits: number[] }> => {
      const waits: number[] = [];
      const value = await observeCalls({ rateLimitWait: (_s, ms) => waits.push(ms) }, work);
      return { value, waits };
    };
    /** The first `count` answers are 429s with these headers, then the API's own. */
    const limitedFirst = (count: number, headers: Record<string, string>, then: FixtureHandler): FixtureHandler => {
      let left = count;
      return (url, req) => (left-- > 0 ? { status: 429, body: '', headers } : then(url, req));
    };

    it('pages through the content to its end: every listing once, in order, a page at a time', async () => {
      const ids = fixtures.ids.slice(0, 5);
      respond = fixtures.content(ids, 2);
      const pages = await collectPages(driver().contentPages({ pageSize: 2 }));
      assert.deepEqual(
        pages.map((page) => page.map((listing) => listing.supplierStayId)),
        [ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)],
      );
      assert.ok(
        pages.flat().every((listing) => listing.supplier === supplier),
        `every listing of ${supplier}`,
      );
    });

    it('answers every asked id: a price where the API gave one, not available where it left the id out or cannot express it', async () => {
      respond = fixtures.quotes(new Map([[first, 315.5]]), 'EUR');
      const answer = await driver().quote(request([first, second, fixtures.foreignId]), AbortSignal.timeout(10_000));
      assert.deepEqual(Object.fromEntries(answer), {
        [first]: { available: true, total: 315.5, currency: 'EUR' },
        [second]: { available: false },
        [fixtures.foreignId]: { available: false },
      });
      const sent = server.received.at(-1)!;
      assert.ok(
        ![sent.url, sent.body].some((text) => text.includes(fixtures.foreignId) || text.includes(encodeURIComponent(fixtures.foreignId))),
        `${fixtures.foreignId} is not sent`,
      );
      const none = await driver().quote(request([fixtures.foreignId]), AbortSignal.timeout(10_000));
      assert.deepEqual([...none], [[fixtures.foreignId, { available: false }]]);
    });

    for (const status of [401, 403]) {
      it(`a ${status} is an \`auth\` failure with the API's own message and never the key, for content and quotes`, async () => {
        respond = () => ({ status, body: fixtures.refusal(`the key ${key} is not accepted`) });
        for (const run of [
          () => collectPages(driver().contentPages()),
          () => driver().quote(request([first]), AbortSignal.timeout(10_000)),
        ]) {
          await assert.rejects(run(), (error: unknown) => {
            expectSupplierError(supplier, 'auth', new RegExp(`^${supplier}: auth: the key \\[redacted\\] is not accepted$`))(error);
            assert.doesNotMatch((error as Error).message, new RegExp(key));
            return true;
          });
        }
      });
    }

    it('a 429 is waited out as its Retry-After asks, and the same request is sent again: quotes and content go on', async () => {
      respond = limitedFirst(1, { 'Retry-After': '0' }, fixtures.quotes(new Map([[first, 10]]), 'EUR'));
      const start = server.received.length;
      const quoted = await watchingWaits(() => driver().quote(request([first]), AbortSignal.timeout(10_000)));
      assert.deepEqual(quoted.value.get(first), { available: true, total: 10, currency: 'EUR' });
      assert.deepEqual(quoted.waits, [0]);
      const [limited, again] = server.received.slice(start);
      assert.deepEqual([again.method, again.url, again.body], [limited.method, limited.url, limited.body]);

      respond = limitedFirst(1, { 'Retry-After': '0' }, fixtures.content([first, second], 2));
      const pulled = await watchingWaits(() => collectPages(driver().contentPages({ pageSize: 2 })));
      assert.deepEqual(
        pulled.value.flat().map((listing) => listing.supplierStayId),
        [first, second],
      );
      assert.deepEqual(pulled.waits, [0]);
    });

    it("a 429 without Retry-After is waited out by the driver's own backoff", async () => {
      respond = limitedFirst(1, {}, fixtures.quotes(new Map(), 'EUR'));
      const { value, waits } = await watchingWaits(() => driver().quote(request([first]), AbortSignal.timeout(30_000)));
      assert.deepEqual([...value], [[first, { available: false }]]);
      assert.deepEqual(waits, [fixtures.backoffMs]);
    });

    it('a 429 that keeps coming fails as `rate_limited` after the waits settings allow', async () => {
      respond = () => ({ status: 429, body: '', headers: { 'Retry-After': '0' } });
      const start = server.received.length;
      await assert.rejects(
        driver({ ...defaults, rateLimitMaxWaits: 2 }).quote(request([first]), AbortSignal.timeout(10_000)),
        expectSupplierError(supplier, 'rate_limited'),
      );
      assert.equal(server.received.length - start, 3, 'the first request and two retries');
    });

    it('a supplier that is down is `network`, one that fails is `http` with its status, one that answers garbage `malformed`: content and quotes alike', async () => {
      const down = fixtures.driverAt(`http://127.0.0.1:${await freePort()}`, defaults);
      await assert.rejects(collectPages(down.contentPages()), expectSupplierError(supplier, 'network'));
      await assert.rejects(down.quote(request([first]), AbortSignal.timeout(10_000)), expectSupplierError(supplier, 'network'));
      respond = () => ({ status: 503, body: { message: 'Service Unavailable' } });
      for (const run of [
        () => collectPages(driver().contentPages()),
        () => driver().quote(request([first]), AbortSignal.timeout(10_000)),
      ]) {
        await assert.rejects(run(), (error: unknown) => {
          expectSupplierError(supplier, 'http', /HTTP 503/)(error);
          assert.equal((error as SupplierError).status, 503);
          return true;
        });
      }
      respond = () => ({ body: 'not json' });
      await assert.rejects(collectPages(driver().contentPages()), expectSupplierError(supplier, 'malformed'));
      await assert.rejects(driver().quote(request([first]), AbortSignal.timeout(10_000)), expectSupplierError(supplier, 'malformed'));
    });

    it("a caller's abort rejects with the caller's own reason, content and quotes; a deadline is a `timeout`", async () => {
      respond = () => ({ hang: true, body: null });
      const reason = new Error('the caller went away');
      const cancelled = new AbortController();
      const quoting = driver().quote(request([first, third]), cancelled.signal);
      const pulling = collectPages(driver().contentPages({ signal: cancelled.signal }));
      cancelled.abort(reason);
      await assert.rejects(quoting, (error: unknown) => error === reason);
      await assert.rejects(pulling, (error: unknown) => error === reason);
      const budget = new AbortController();
      const late = driver().quote(request([first]), budget.signal);
      budget.abort(new DOMException('budget spent', 'TimeoutError'));
      await assert.rejects(late, expectSupplierError(supplier, 'timeout'));
    });
  });
}
