import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { generateWorld, type World } from './generate-world.ts';
import { parseSimFaults } from './parse-sim-faults.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

interface RawAnswer {
  status: number;
  type: string | undefined;
  text: string;
}

/**
 * One request on a connection of its own (no pool), so that a dropped or refused connection shows
 * as what it is rather than as a retry on a pooled socket.
 */
function request(
  url: string,
  {
    method = 'GET',
    body,
    signal,
    headers,
  }: { method?: string; body?: string; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, signal, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The error code a request fails with ("ECONNREFUSED", "ABORT_ERR", ...), or "answered". */
async function failure(answer: Promise<unknown>): Promise<string> {
  try {
    await answer;
    return 'answered';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).name;
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/**
 * Which of two requests, the first sent first, answered first: an order instead of a wall-clock
 * budget (issue 13), so a loaded machine cannot fail it. A request that waits (latency, `slow`)
 * answers after one sent just after it that does not.
 */
async function firstToAnswer(first: Promise<unknown>, second: Promise<unknown>): Promise<'first' | 'second'> {
  return Promise.race([first.then(() => 'first' as const), second.then(() => 'second' as const)]);
}

const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };

/** supplier_c speaks LiteAPI: its requests carry the simulator's key. */
const LITEAPI_HEADERS = { 'X-API-Key': SIM_CREDENTIALS.liteapi.key };

/** supplier_b speaks Hotelbeds: its requests are signed (Api-key + X-Signature) with the simulator's credentials. */
function hotelbedsHeaders(): Record<string, string> {
  const { key, secret } = SIM_CREDENTIALS.hotelbeds;
  return {
    'Api-key': key,
    'X-Signature': createHash('sha256')
      .update(`${key}${secret}${Math.floor(Date.now() / 1_000)}`)
      .digest('hex'),
  };
}

/** supplier_a speaks Booking.com: every call a JSON POST with the bearer token and affiliate id. */
function bookingHeaders(): Record<string, string> {
  const { key, affiliateId } = SIM_CREDENTIALS['booking-demand'];
  return { Authorization: `Bearer ${key}`, 'X-Affiliate-Id': affiliateId, 'content-type': 'application/json' };
}

/** supplier_d speaks Expedia Rapid: its requests carry `Authorization: EAN ...` signed with the simulator's credentials. */
function rapidHeaders(): Record<string, string> {
  const { key, secret } = SIM_CREDENTIALS['expedia-rapid'];
  const seconds = Math.floor(Date.now() / 1_000);
  const signature = createHash('sha512').update(`${key}${secret}${seconds}`).digest('hex');
  return { authorization: `EAN APIKey=${key},Signature=${signature},timestamp=${seconds}` };
}

/** Rapid's availability query for one property and one adult. */
const rapidQuote = (id: string): string =>
  `checkin=${STAY.checkin}&checkout=${STAY.checkout}&currency=USD&country_code=US&language=en-US&occupancy=1&property_id=${id}&rate_plan_count=4&sales_channel=meta&sales_environment=hotel_only`;

describe('parseSimFaults', () => {
  it('reads STAYGATE_SIM_FAULTS', () => {
    assert.deepEqual(parseSimFaults('supplier_b=down,supplier_c=slow:1500'), { supplier_b: 'down', supplier_c: 'slow:1500' });
    assert.deepEqual(parseSimFaults(' supplier_a = timeout , supplier_d=malformed,supplier_b=error, '), {
      supplier_a: 'timeout',
      supplier_d: 'malformed',
      supplier_b: 'error',
    });
    assert.deepEqual(parseSimFaults('supplier_a=none,supplier_b=slow:007'), { supplier_a: null, supplier_b: 'slow:7' });
    assert.deepEqual(parseSimFaults(''), {});
  });

  it('throws a clear Error on anything else', () => {
    const bad: [string, RegExp][] = [
      ['supplier_x=down', /unknown supplier "supplier_x"/],
      ['supplier_b', /expected <supplier>=<mode>/],
      ['supplier_b=crash', /"crash" is not a fault mode/],
      ['supplier_b=slow', /"slow" is not a fault mode/],
      ['supplier_b=slow:abc', /not a fault mode/],
      ['supplier_b=slow:-5', /not a fault mode/],
      ['supplier_b=slow:1.5', /not a fault mode/],
      ['supplier_b=slow:9999999', /not a fault mode/],
      ['supplier_b=down,supplier_b=error', /given twice/],
    ];
    for (const [text, message] of bad) {
      assert.throws(
        () => parseSimFaults(text),
        (error: Error) => error instanceof Error && message.test(error.message) && /STAYGATE_SIM_FAULTS/.test(error.message),
        text,
      );
    }
  });
});

describe('fault injection', () => {
  let world: World;
  let sim: SimSuppliers;
  const feedOf = (supplier: 'b' | 'c' | 'd'): string =>
    ({
      b: `${sim.urls.supplier_b}/hotel-content-api/1.0/hotels?from=1&to=1`,
      c: `${sim.urls.supplier_c}/data/hotels?hotelIds=${world.listings.supplier_c[0].supplierStayId}&limit=1`,
      d: `${sim.urls.supplier_d}/properties/content?language=en-US&supply_source=vrbo&include=name`,
    })[supplier];
  /** supplier_a's content (Booking.com's /accommodations/details, one page of a country). */
  const feedA = (signal?: AbortSignal): Promise<RawAnswer> =>
    request(`${sim.urls.supplier_a}/accommodations/details`, {
      method: 'POST',
      headers: bookingHeaders(),
      body: JSON.stringify({ country: world.listings.supplier_a[0].address.slice(-2).toLowerCase(), rows: 10 }),
      signal,
    });
  const quoteA = (): Promise<RawAnswer> =>
    request(`${sim.urls.supplier_a}/accommodations/search`, {
      method: 'POST',
      headers: bookingHeaders(),
      body: JSON.stringify({
        accommodations: [Number(world.listings.supplier_a[0].supplierStayId)],
        booker: { country: 'nl', platform: 'desktop' },
        checkin: STAY.checkin,
        checkout: STAY.checkout,
        guests: { number_of_adults: 1, number_of_rooms: 1 },
      }),
    });
  const feedB = (): Promise<RawAnswer> => request(feedOf('b'), { headers: hotelbedsHeaders() });
  const feedD = (): Promise<RawAnswer> => request(feedOf('d'), { headers: rapidHeaders() });
  const feedC = (): Promise<RawAnswer> => request(feedOf('c'), { headers: LITEAPI_HEADERS });
  const quoteB = (): Promise<RawAnswer> =>
    request(`${sim.urls.supplier_b}/hotel-api/1.0/hotels`, {
      method: 'POST',
      headers: { ...hotelbedsHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({
        stay: { checkIn: STAY.checkin, checkOut: STAY.checkout },
        occupancies: [{ rooms: 1, adults: 1, children: 0 }],
        hotels: { hotel: [Number(world.listings.supplier_b[0].supplierStayId)] },
      }),
    });

  before(async () => {
    world = generateWorld({ seed: 3, stays: 1_500 });
    sim = await startSimSuppliers({ world, latencyMs: 0, faults: 'supplier_b=down,supplier_c=slow:200' });
  });
  after(() => sim.close());

  it('starts with the faults of the `faults` option, every supplier still having its URL', async () => {
    assert.deepEqual(sim.faults(), { supplier_a: null, supplier_b: 'down', supplier_c: 'slow:200', supplier_d: null });
    assert.match(sim.urls.supplier_b, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await failure(feedB()), 'ECONNREFUSED');
    assert.equal(await failure(quoteB()), 'ECONNREFUSED');
    const slowC = timed(feedC);
    const fastD = timed(() => feedD());
    assert.equal(await firstToAnswer(slowC, fastD), 'second', 'supplier_d (no fault) answers while supplier_c waits');
    const slow = await slowC;
    assert.ok(slow.ms >= 195, `${slow.ms}`);
    assert.equal(slow.value.status, 200);
    assert.equal(JSON.parse(slow.value.text).data.length, 1);
    assert.equal((await fastD).value.status, 200);
  });

  it('down: listens again on the same port when cleared, and drops open connections when set', async () => {
    await sim.setFault('supplier_b', null);
    assert.equal((await feedB()).status, 200);
    assert.equal((await quoteB()).status, 200);
    // A kept-alive connection is dropped by `down`, as by a crashed upstream.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await new Promise<void>((resolve, reject) =>
      http.get(feedOf('b'), { agent, headers: hotelbedsHeaders() }, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    const [socket] = Object.values(agent.freeSockets).flat();
    assert.ok(socket && !socket.destroyed, 'socket && !socket.destroyed');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await sim.setFault('supplier_b', 'down');
    await closed;
    agent.destroy();
    assert.equal(sim.faults().supplier_b, 'down');
    assert.equal(await failure(feedB()), 'ECONNREFUSED');
    await sim.setFault('supplier_b', 'none');
    assert.equal((await feedB()).status, 200);
    assert.equal(sim.faults().supplier_b, null);
  });

  it('timeout: accepts and never answers, until the caller gives up', async () => {
    await sim.setFault('supplier_a', 'timeout');
    const hung = await timed(() => failure(feedA(AbortSignal.timeout(150))));
    assert.equal(hung.value, 'ABORT_ERR');
    assert.ok(hung.ms >= 145, `${hung.ms}`);
    const quote = await failure(
      request(`${sim.urls.supplier_a}/accommodations/search`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(100) }),
    );
    assert.equal(quote, 'ABORT_ERR');
    await sim.setFault('supplier_a', null);
    assert.equal((await quoteA()).status, 200);
  });

  it('error: HTTP 500 with a JSON error body, on every endpoint', async () => {
    await sim.setFault('supplier_d', 'error');
    for (const answer of [
      await feedD(),
      await request(`${sim.urls.supplier_d}/properties/availability?${rapidQuote('1')}`, { headers: rapidHeaders() }),
      await request(`${sim.urls.supplier_d}/nope`),
    ]) {
      assert.equal(answer.status, 500);
      assert.equal(answer.type, 'application/json');
      const body = JSON.parse(answer.text);
      assert.equal(body.error, 'Internal Server Error');
      assert.equal(typeof body.message, 'string');
    }
    await sim.setFault('supplier_d', null);
    assert.equal((await feedD()).status, 200);
  });

  it('malformed: HTTP 200 with a body that is not JSON', async () => {
    await sim.setFault('supplier_a', 'malformed');
    for (const answer of [await feedA(), await quoteA()]) {
      assert.equal(answer.status, 200);
      assert.equal(answer.type, 'application/json');
      assert.throws(() => JSON.parse(answer.text), SyntaxError);
    }
    await sim.setFault('supplier_a', null);
    assert.ok(Array.isArray(JSON.parse((await quoteA()).text).data), 'answers again');
  });

  it('slow:<ms>: answers correctly after the extra delay', async () => {
    // The same answer (its `request_id` aside: Booking.com gives each request its own).
    const before = JSON.parse((await quoteA()).text).data;
    await sim.setFault('supplier_a', 'slow:150');
    const slow = await timed(() => quoteA());
    assert.ok(slow.ms >= 145, `${slow.ms}`);
    assert.deepEqual(JSON.parse(slow.value.text).data, before);
    await sim.setFault('supplier_a', null);
  });

  it('setFault takes effect before it returns (awaited or not) and throws on bad input', async () => {
    void sim.setFault('supplier_a', 'error');
    assert.equal((await feedA()).status, 500);
    void sim.setFault('supplier_a', null);
    assert.equal((await feedA()).status, 200);
    // `down` and back, not awaited: applied in order.
    void sim.setFault('supplier_d', 'down');
    assert.equal(await failure(feedD()), 'ECONNREFUSED');
    await sim.setFault('supplier_d', null);
    assert.equal((await feedD()).status, 200);
    assert.throws(() => sim.setFault('supplier_a', 'crash'), /not a fault mode/);
    assert.throws(() => sim.setFault('supplier_a', 'slow:'), /not a fault mode/);
    assert.throws(() => sim.setFault('supplier_z' as never, 'down'), /unknown supplier/);
    assert.deepEqual(sim.faults(), { supplier_a: null, supplier_b: null, supplier_c: 'slow:200', supplier_d: null });
  });

  describe('control endpoint', () => {
    const control = (query: string, method = 'PUT'): Promise<RawAnswer> => request(`${sim.controlUrl}/faults${query}`, { method });

    it('listens on loopback and lists the faults', async () => {
      assert.match(sim.controlUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = await control('', 'GET');
      assert.equal(answer.status, 200);
      assert.equal(answer.type, 'application/json');
      assert.deepEqual(JSON.parse(answer.text), sim.faults());
    });

    it('sets and clears faults, answering the new map', async () => {
      const set = await control('?supplier_b=timeout&supplier_c=none&supplier_d=down&supplier_a=slow:200');
      assert.equal(set.status, 200);
      assert.deepEqual(JSON.parse(set.text), { supplier_a: 'slow:200', supplier_b: 'timeout', supplier_c: null, supplier_d: 'down' });
      assert.equal(await failure(request(feedOf('b'), { signal: AbortSignal.timeout(100) })), 'ABORT_ERR');
      assert.equal(await failure(feedD()), 'ECONNREFUSED');
      // supplier_c's slow:200 is cleared: it answers while supplier_a, now slow, waits.
      const slowA = feedA();
      assert.equal(await firstToAnswer(slowA, feedC()), 'second');
      await slowA;
      const cleared = await control('?supplier_b=none&supplier_d=none&supplier_a=slow:50');
      assert.deepEqual(JSON.parse(cleared.text), { supplier_a: 'slow:50', supplier_b: null, supplier_c: null, supplier_d: null });
      assert.equal((await feedB()).status, 200);
      assert.equal((await feedD()).status, 200, 'back on the same port');
      await control('?supplier_a=none');
    });

    it('rejects unknown suppliers and modes with a 400, applying nothing', async () => {
      const bad: [string, string][] = [
        ['?supplier_a=error&supplier_x=down', 'supplier_x'],
        ['?supplier_a=crash', 'supplier_a'],
        ['?supplier_a=slow:x', 'supplier_a'],
        ['?supplier_a=error&supplier_a=none', 'supplier_a'],
        ['', 'supplier'],
      ];
      for (const [query, param] of bad) {
        const answer = await control(query);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.type, 'application/json');
        const body = JSON.parse(answer.text);
        assert.equal(body.error, 'Bad Request');
        assert.equal(body.details.param, param, query);
      }
      assert.deepEqual(sim.faults(), { supplier_a: null, supplier_b: null, supplier_c: null, supplier_d: null });
      assert.equal((await control('', 'POST')).status, 405);
      assert.equal((await request(`${sim.controlUrl}/nope`)).status, 404);
    });
  });
});

describe('startSimSuppliers: latency, faults option, close', () => {
  let world: World;
  before(() => {
    world = generateWorld({ seed: 4, stays: 600 });
  });

  const quoteD = (sim: SimSuppliers): Promise<RawAnswer> =>
    request(`${sim.urls.supplier_d}/properties/availability?${rapidQuote(world.listings.supplier_d[0].supplierStayId)}`, {
      headers: rapidHeaders(),
    });

  it('waits the fixed latency before each quote call, never before a feed call', async () => {
    const sim = await startSimSuppliers({ world, latencyMs: 120 });
    try {
      const quote = timed(() => quoteD(sim));
      const feed = request(`${sim.urls.supplier_d}/properties/content?language=en-US&supply_source=vrbo&include=name`, {
        headers: rapidHeaders(),
      });
      assert.equal(await firstToAnswer(quote, feed), 'second', 'the feed answers while the quote waits its latency');
      assert.equal((await feed).status, 200);
      assert.equal((await quote).value.status, 200);
      assert.ok((await quote).ms >= 118, `${(await quote).ms}`);
    } finally {
      await sim.close();
    }
  });

  it('draws a per-supplier [min, max] latency, and keeps the defaults for suppliers left out', async () => {
    const sim = await startSimSuppliers({ world, latencyMs: { supplier_d: [90, 110], supplier_c: 0 } });
    try {
      // At least the minimum each time (the maximum would be a wall-clock budget: not asserted).
      for (let i = 0; i < 3; i++) {
        const { ms } = await timed(() => quoteD(sim));
        assert.ok(ms >= 88, `${ms}`);
      }
      // supplier_c at 0: it answers while supplier_d, asked first, waits its 90 ms or more.
      const d = quoteD(sim);
      const c = request(`${sim.urls.supplier_c}/hotels/rates`, {
        method: 'POST',
        headers: { ...LITEAPI_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify({ hotelIds: ['1'], occupancies: [{ adults: 1 }], currency: 'USD', guestNationality: 'US', ...STAY }),
      });
      assert.equal(await firstToAnswer(d, c), 'second');
      await d;
      // supplier_a keeps its default 60-120 ms.
      const a = await timed(() =>
        request(`${sim.urls.supplier_a}/accommodations/search`, {
          method: 'POST',
          headers: bookingHeaders(),
          body: JSON.stringify({
            accommodations: [1],
            booker: { country: 'nl', platform: 'desktop' },
            checkin: STAY.checkin,
            checkout: STAY.checkout,
            guests: { number_of_adults: 1, number_of_rooms: 1 },
          }),
        }),
      );
      assert.ok(a.ms >= 58, `${a.ms}`);
    } finally {
      await sim.close();
    }
  });

  it('rejects bad latency and fault settings before listening', async () => {
    await assert.rejects(startSimSuppliers({ world, latencyMs: -1 }), RangeError);
    await assert.rejects(startSimSuppliers({ world, latencyMs: { supplier_a: [50, 10] } }), RangeError);
    await assert.rejects(startSimSuppliers({ world, faults: 'supplier_b=crash' }), /STAYGATE_SIM_FAULTS item "supplier_b=crash"/);
  });

  it('close() ends hung `timeout` requests promptly, also with a supplier down', async () => {
    const sim = await startSimSuppliers({ world, latencyMs: 0, faults: 'supplier_a=timeout,supplier_b=down' });
    const hung = failure(request(`${sim.urls.supplier_a}/content/properties`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // close() resolves only once every connection is gone: were the hung one kept, this would never end.
    await sim.close();
    assert.equal(await hung, 'ECONNRESET');
    assert.throws(() => sim.setFault('supplier_a', null), /closed/);
    assert.equal(await failure(request(`${sim.controlUrl}/faults`)), 'ECONNREFUSED');
  });
});
