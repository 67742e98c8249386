import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { SUPPLIER_IDS, type Listing, type StayType, type SupplierId } from './types.ts';
import type { SupplierCItem, SupplierCPage } from './feed-supplier-c.ts';
import { generateWorld, type SimListing, type World } from './generate-world.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

// Field names exactly as src/sim/README.md writes them: the adapters are written from the README.
// supplier_a speaks Booking.com's Demand API, supplier_b Hotelbeds APItude and supplier_d Expedia
// Rapid: apis/booking-demand.test.ts, apis/hotelbeds.test.ts, apis/expedia-rapid.test.ts and the
// gateway's contract tests hold them.
const FIELDS = {
  supplier_c: {
    envelope: ['total', 'offset', 'limit', 'items'],
    record: ['id', 'title', 'type_code', 'type_label', 'location', 'addr', 'class', 'rating', 'sleeps', 'layout', 'flags', 'media'],
  },
} as const;

const sorted = (keys: readonly string[]): string[] => [...keys].sort();

async function getJson(url: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

// Decoders written by hand from the README, independent of src/suppliers, so a drift of either
// side from the README shows up somewhere. Ratings are compared exactly, without rounding.

function decodeC(i: SupplierCItem): Listing {
  assert.deepEqual(sorted(Object.keys(i)), sorted(FIELDS.supplier_c.record));
  assert.deepEqual(sorted(Object.keys(i.rating)), ['pct', 'votes']);
  assert.deepEqual(sorted(Object.keys(i.layout)), ['baths', 'bedrooms', 'beds']);
  assert.deepEqual(sorted(Object.keys(i.media)), ['square_logo', 'thumb']);
  assert.equal(typeof i.id, 'number');
  assert.ok(Number.isInteger(i.rating.pct), 'Number.isInteger(i.rating.pct)');
  assert.ok(!i.type_code.includes('_'), "!i.type_code.includes('_')");
  for (const flag of i.flags)
    assert.ok(flag === 'instant_book' || flag === 'free_cancellation', "flag === 'instant_book' || flag === 'free_cancellation'");
  return {
    supplier: 'supplier_c',
    supplierStayId: String(i.id),
    name: i.title,
    typeLabel: i.type_label,
    type: i.type_code.replaceAll('-', '_') as StayType,
    address: i.addr,
    lat: i.location[1],
    lng: i.location[0],
    rating: { value: i.rating.pct / 10, hotelStars: i.class, count: i.rating.votes },
    capacity: { guests: i.sleeps, bedrooms: i.layout.bedrooms, beds: i.layout.beds, bathrooms: i.layout.baths },
    policies: { instantBook: i.flags.includes('instant_book'), freeCancellation: i.flags.includes('free_cancellation') },
    media: { thumbnail: i.media.thumb, logoSquare: i.media.square_logo },
  };
}

/** Pages through a supplier's whole feed the way its README says, returning the decoded listings. */
/** The slot whose feed this file reads by hand (Booking.com's, Hotelbeds' and Rapid's have tests of their own). */
type FedSupplier = Exclude<SupplierId, 'supplier_a' | 'supplier_b' | 'supplier_d'>;
const FED: readonly FedSupplier[] = ['supplier_c'];

/** Hotelbeds' authentication headers with the simulator's credentials, signed now. */
function hotelbedsHeaders(): Record<string, string> {
  const { key, secret } = SIM_CREDENTIALS.hotelbeds;
  return {
    'Api-key': key,
    'X-Signature': createHash('sha256')
      .update(`${key}${secret}${Math.floor(Date.now() / 1_000)}`)
      .digest('hex'),
  };
}

async function readFeed(base: string, supplier: FedSupplier, pageSize: number): Promise<Listing[]> {
  const out: Listing[] = [];
  const check = (status: number, type: string | null, body: object): void => {
    assert.equal(status, 200);
    assert.equal(type, 'application/json');
    assert.deepEqual(sorted(Object.keys(body)), sorted(FIELDS[supplier].envelope));
  };
  switch (supplier) {
    case 'supplier_c':
      for (let offset = 0; ; offset += pageSize) {
        const { status, type, body } = await getJson(`${base}/feed/accommodations?offset=${offset}&limit=${pageSize}`);
        const b = body as SupplierCPage;
        check(status, type, b);
        assert.equal(b.offset, offset);
        assert.equal(b.limit, pageSize);
        out.push(...b.items.map(decodeC));
        if (offset + pageSize >= b.total) return out;
      }
  }
}

/** What the feed at `base` says of a listing: the ground truth, its media paths under that address. */
const asFed = ({ propertyId: _propertyId, ...listing }: SimListing, base: string): Listing => ({
  ...listing,
  media: { thumbnail: `${base}${listing.media.thumbnail}`, logoSquare: `${base}${listing.media.logoSquare}` },
});

describe('startSimSuppliers', () => {
  let world: World;
  let sim: SimSuppliers;

  before(async () => {
    world = generateWorld({ seed: 11, stays: 4_000 });
    sim = await startSimSuppliers({ world });
  });
  after(() => sim.close());

  it('serves four suppliers on four loopback ports', () => {
    assert.deepEqual(Object.keys(sim.urls).sort(), [...SUPPLIER_IDS].sort());
    const ports = new Set(Object.values(sim.urls).map((u) => new URL(u).port));
    assert.equal(ports.size, 4);
    for (const url of Object.values(sim.urls)) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  for (const supplier of FED) {
    it(`${supplier}: every listing comes back exactly once, in order, decoding to its canonical values`, async () => {
      const truth = world.listings[supplier];
      assert.ok(truth.length > 200, 'truth.length > 200');
      const got = await readFeed(sim.urls[supplier], supplier, 97);
      assert.equal(got.length, truth.length);
      assert.equal(new Set(got.map((l) => l.supplierStayId)).size, got.length);
      got.forEach((listing, i) => assert.deepEqual(listing, asFed(truth[i], sim.urls[supplier])));
    });
  }

  it('serves every picture its feed names, the same bytes each time, and 404 for a listing it does not sell', async () => {
    for (const supplier of FED) {
      const [first] = await readFeed(sim.urls[supplier], supplier, 1).then((all) => all.slice(0, 1));
      for (const url of [first.media.thumbnail, first.media.logoSquare]) {
        assert.ok(url.startsWith(`${sim.urls[supplier]}/`), url);
        const one = await fetch(url);
        assert.equal(one.status, 200, url);
        assert.equal(one.headers.get('content-type'), 'image/svg+xml');
        const text = await one.text();
        assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.ok(text.length < 8_000, `${url}: ${text.length} bytes`);
        assert.equal(await (await fetch(url)).text(), text);
      }
      const other = first.media.thumbnail.replace(`/${first.supplierStayId}/`, '/0/');
      assert.equal((await fetch(other)).status, 404);
    }
  });

  it('pages the same way twice (stable order)', async () => {
    const first = await getJson(`${sim.urls.supplier_c}/feed/accommodations?offset=100&limit=50`);
    const second = await getJson(`${sim.urls.supplier_c}/feed/accommodations?offset=100&limit=50`);
    assert.deepEqual(first.body, second.body);
  });

  it('applies the default page size of 1000', async () => {
    const c = (await getJson(`${sim.urls.supplier_c}/feed/accommodations`)).body as SupplierCPage;
    assert.equal(c.offset, 0);
    assert.equal(c.limit, 1_000);
  });

  it('answers an empty page past the end', async () => {
    const c = (await getJson(`${sim.urls.supplier_c}/feed/accommodations?offset=999999`)).body as SupplierCPage;
    assert.deepEqual(c.items, []);
  });

  it('rejects bad paging parameters with a 400 JSON body', async () => {
    const bad: [SupplierId, string][] = [
      ['supplier_c', '/feed/accommodations?offset=-5'],
      ['supplier_c', '/feed/accommodations?offset=1e3'],
      ['supplier_c', '/feed/accommodations?limit=5001'],
    ];
    for (const [supplier, path] of bad) {
      const { status, type, body } = await getJson(sim.urls[supplier] + path);
      assert.equal(status, 400, `${supplier} ${path}`);
      assert.equal(type, 'application/json');
      const error = body as { error: string; message: string; details: { param: string } };
      assert.equal(error.error, 'Bad Request');
      assert.equal(typeof error.message, 'string');
      assert.equal(typeof error.details.param, 'string');
    }
  });

  it('answers unknown paths with 404 JSON and other methods with 405 JSON', async () => {
    for (const url of Object.values(sim.urls)) {
      const { status, type, body } = await getJson(`${url}/nope`);
      assert.equal(status, 404);
      assert.equal(type, 'application/json');
      assert.equal((body as { error: string }).error, 'Not Found');
    }
    // Another supplier's path is unknown too: each speaks only its own API.
    assert.equal((await getJson(`${sim.urls.supplier_a}/properties/content`)).status, 404);
    const response = await fetch(`${sim.urls.supplier_a}/accommodations/details`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.equal(((await response.json()) as { error: string }).error, 'Method Not Allowed');
  });

  it('keeps connections alive', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ connection: string | undefined; localPort: number | undefined }> =>
      new Promise((resolve, reject) => {
        http
          .get(`${sim.urls.supplier_b}/hotel-content-api/1.0/hotels?from=1&to=1`, { agent, headers: hotelbedsHeaders() }, (res) => {
            const localPort = res.socket.localPort;
            res.resume();
            res.on('end', () => resolve({ connection: res.headers.connection, localPort }));
          })
          .on('error', reject);
      });
    const first = await get();
    const second = await get();
    agent.destroy();
    assert.equal(first.connection, 'keep-alive');
    // The second request went over the first one's connection.
    assert.equal(second.localPort, first.localPort);
  });
});

describe('startSimSuppliers: ports and shutdown', () => {
  it('listens on the given ports and frees them on close', async () => {
    const world = generateWorld({ seed: 1, stays: 200 });
    const probe = await startSimSuppliers({ world });
    const ports = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, Number(new URL(probe.urls[s]).port)])) as Record<SupplierId, number>;
    await probe.close();
    await assert.rejects(fetch(`${probe.urls.supplier_a}/content/properties`));

    const sim = await startSimSuppliers({ world, ports });
    for (const s of SUPPLIER_IDS) assert.equal(Number(new URL(sim.urls[s]).port), ports[s]);
    // A port in use: startSimSuppliers fails and leaves nothing listening.
    await assert.rejects(startSimSuppliers({ world, ports: { supplier_c: ports.supplier_c } }), /EADDRINUSE/);
    await sim.close();
  });
});
