import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { SUPPLIER_IDS, type Listing, type StayType, type SupplierId } from './types.ts';
import type { SupplierAPage, SupplierAProperty } from './feed-supplier-a.ts';
import type { SupplierDListing, SupplierDPage } from './feed-supplier-d.ts';
import { generateWorld, type SimListing, type World } from './generate-world.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

// Field names exactly as src/sim/README.md writes them: the adapters are written from the README.
// supplier_b speaks Hotelbeds APItude and supplier_c LiteAPI: apis/hotelbeds.test.ts, apis/liteapi.test.ts
// and the gateway's contract tests hold them.
const FIELDS = {
  supplier_a: {
    envelope: ['page', 'pageSize', 'totalPages', 'totalCount', 'properties'],
    record: ['propertyId', 'propertyName', 'propertyType', 'geo', 'address', 'starRating', 'guestScore', 'occupancy', 'policies', 'images'],
  },
  supplier_d: {
    envelope: ['data', 'meta'],
    record: [
      'listing_id',
      'headline',
      'property_type',
      'property_type_label',
      'coordinates',
      'address',
      'star_class',
      'host_rating',
      'ratings_count',
      'sleeps',
      'bedrooms',
      'beds',
      'bathrooms',
      'instant_book',
      'cancellation_policy',
      'photos',
      'brand_logo',
    ],
  },
} as const;

const sorted = (keys: readonly string[]): string[] => [...keys].sort();

async function getJson(url: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

// Decoders written by hand from the README, independent of src/suppliers, so a drift of either
// side from the README shows up somewhere. Ratings are compared exactly, without rounding.

function decodeA(p: SupplierAProperty): Listing {
  assert.deepEqual(sorted(Object.keys(p)), sorted(FIELDS.supplier_a.record));
  assert.deepEqual(sorted(Object.keys(p.propertyType)), ['code', 'label']);
  assert.deepEqual(sorted(Object.keys(p.geo)), ['latitude', 'longitude']);
  assert.deepEqual(sorted(Object.keys(p.address)), ['city', 'countryCode', 'line1']);
  assert.deepEqual(sorted(Object.keys(p.guestScore)), ['reviews', 'score']);
  assert.deepEqual(sorted(Object.keys(p.occupancy)), ['bathrooms', 'bedrooms', 'beds', 'maxGuests']);
  assert.deepEqual(sorted(Object.keys(p.policies)), ['freeCancellation', 'instantConfirmation']);
  assert.equal(typeof p.propertyId, 'number');
  assert.equal(p.propertyType.code, p.propertyType.code.toUpperCase());
  const image = (kind: string): string => p.images.find((i) => i.kind === kind)?.url ?? assert.fail(`no ${kind} image`);
  return {
    supplier: 'supplier_a',
    supplierStayId: String(p.propertyId),
    name: p.propertyName,
    typeLabel: p.propertyType.label,
    type: p.propertyType.code.toLowerCase() as StayType,
    address: `${p.address.line1}, ${p.address.city}, ${p.address.countryCode}`,
    lat: p.geo.latitude,
    lng: p.geo.longitude,
    rating: { value: p.guestScore.score, hotelStars: p.starRating, count: p.guestScore.reviews },
    capacity: { guests: p.occupancy.maxGuests, bedrooms: p.occupancy.bedrooms, beds: p.occupancy.beds, bathrooms: p.occupancy.bathrooms },
    policies: { instantBook: p.policies.instantConfirmation, freeCancellation: p.policies.freeCancellation },
    media: { thumbnail: image('thumbnail'), logoSquare: image('logo') },
  };
}

function decodeD(l: SupplierDListing): Listing {
  assert.deepEqual(sorted(Object.keys(l)), sorted(FIELDS.supplier_d.record));
  assert.equal(typeof l.listing_id, 'string');
  assert.ok(
    ['flexible', 'moderate', 'strict'].includes(l.cancellation_policy),
    "['flexible', 'moderate', 'strict'].includes(l.cancellation_policy)",
  );
  const covers = l.photos.filter((p) => p.is_cover);
  assert.equal(covers.length, 1);
  return {
    supplier: 'supplier_d',
    supplierStayId: l.listing_id,
    name: l.headline,
    typeLabel: l.property_type_label,
    type: l.property_type as StayType,
    address: l.address.full,
    lat: l.coordinates.lat,
    lng: l.coordinates.lng,
    rating: { value: l.host_rating * 2, hotelStars: l.star_class, count: l.ratings_count },
    capacity: { guests: l.sleeps, bedrooms: l.bedrooms, beds: l.beds, bathrooms: l.bathrooms },
    policies: { instantBook: l.instant_book, freeCancellation: l.cancellation_policy === 'flexible' },
    media: { thumbnail: covers[0].url, logoSquare: l.brand_logo },
  };
}

/** Pages through a supplier's whole feed the way its README says, returning the decoded listings. */
/** The slots whose feeds this file reads by hand (supplier_b's Hotelbeds and supplier_c's LiteAPI have tests of their own). */
type FedSupplier = Exclude<SupplierId, 'supplier_b' | 'supplier_c'>;
const FED: readonly FedSupplier[] = ['supplier_a', 'supplier_d'];

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
    case 'supplier_a':
      for (let page = 1; ; page++) {
        const { status, type, body } = await getJson(`${base}/content/properties?page=${page}&pageSize=${pageSize}`);
        const b = body as SupplierAPage;
        check(status, type, b);
        assert.equal(b.page, page);
        assert.equal(b.pageSize, pageSize);
        out.push(...b.properties.map(decodeA));
        if (page >= b.totalPages) return out;
      }
    case 'supplier_d':
      for (let page = 1; ; page++) {
        const { status, type, body } = await getJson(`${base}/api/listings?page=${page}&per_page=${pageSize}`);
        const b = body as SupplierDPage;
        check(status, type, b);
        assert.deepEqual(sorted(Object.keys(b.meta)), ['current_page', 'last_page', 'per_page', 'total']);
        assert.equal(b.meta.current_page, page);
        out.push(...b.data.map(decodeD));
        if (page >= b.meta.last_page) return out;
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
    // supplier_d's extra photos are served too, and differ from the cover.
    const d = ((await getJson(`${sim.urls.supplier_d}/api/listings?per_page=20`)).body as SupplierDPage).data.find(
      (l) => l.photos.length === 3,
    )!;
    const bodies = await Promise.all(d.photos.map(async (p) => (await fetch(p.url)).text()));
    assert.equal(new Set(bodies).size, 3);
  });

  it('pages the same way twice (stable order)', async () => {
    const first = await getJson(`${sim.urls.supplier_d}/api/listings?page=3&per_page=50`);
    const second = await getJson(`${sim.urls.supplier_d}/api/listings?page=3&per_page=50`);
    assert.deepEqual(first.body, second.body);
  });

  it('applies the default page size of 1000', async () => {
    const d = (await getJson(`${sim.urls.supplier_d}/api/listings`)).body as SupplierDPage;
    assert.equal(world.listings.supplier_d.length > 1_000, true);
    assert.equal(d.data.length, 1_000);
    assert.deepEqual(d.meta, {
      current_page: 1,
      last_page: Math.ceil(world.listings.supplier_d.length / 1_000),
      per_page: 1_000,
      total: world.listings.supplier_d.length,
    });
    const a = (await getJson(`${sim.urls.supplier_a}/content/properties`)).body as SupplierAPage;
    assert.equal(a.page, 1);
    assert.equal(a.pageSize, 1_000);
    assert.equal(a.totalCount, world.listings.supplier_a.length);
  });

  it('answers an empty page past the end', async () => {
    const a = (await getJson(`${sim.urls.supplier_a}/content/properties?page=999&pageSize=5000`)).body as SupplierAPage;
    assert.deepEqual(a.properties, []);
    assert.equal(a.totalPages, 1);
    const d = (await getJson(`${sim.urls.supplier_d}/api/listings?page=999`)).body as SupplierDPage;
    assert.deepEqual(d.data, []);
  });

  it('rejects bad paging parameters with a 400 JSON body', async () => {
    const bad: [SupplierId, string][] = [
      ['supplier_a', '/content/properties?page=0'],
      ['supplier_a', '/content/properties?page=-1'],
      ['supplier_a', '/content/properties?page=abc'],
      ['supplier_a', '/content/properties?pageSize=0'],
      ['supplier_a', '/content/properties?pageSize=5001'],
      ['supplier_a', '/content/properties?pageSize=1.5'],
      ['supplier_a', '/content/properties?pageSize='],
      ['supplier_d', '/api/listings?page=0'],
      ['supplier_d', '/api/listings?per_page=0'],
      ['supplier_d', '/api/listings?per_page=x'],
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
    assert.equal((await getJson(`${sim.urls.supplier_a}/api/listings`)).status, 404);
    const response = await fetch(`${sim.urls.supplier_a}/content/properties`, { method: 'POST', body: '{}' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'GET');
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
