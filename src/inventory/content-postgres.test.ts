// Content on PostgreSQL end to end: a small simulated world pulled and published through the real
// content worker into a database schema of its own, searched from the index the refresh built
// (checked against the database's rows), and two gateways' content services on one database: a
// refresh by one is served by the other within 5 s, from an index built from the database's chunks (issue 14).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaults } from '../defaults.ts';
import { clusteringSettings } from '../compose/search.ts';
import { createSearch } from '../search/search.ts';
import { createWorkSlicer } from '../search/work-slicer.ts';
import type { SearchQuery } from '../search/search-query.ts';
import type { Search } from '../search/search-result.ts';
import { generateWorld, startSimSuppliers, type SimSuppliers, type World } from '@staygate/sim';
import { openContentStore, type StoreLocation } from '../store/open-content-store.ts';
import { indexRowsOf } from '../store/index-chunk.ts';
import type { Store } from '../store/store.ts';
import { SUPPLIERS_MODULE } from '../suppliers/create-suppliers.ts';
import { createTestSchema, skipWithoutPostgres, type TestSchema } from '../test-support/pg.ts';
import { baseQuery } from '../test-support/search-world.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { createContentService, type ContentService } from './content-service.ts';
import { createContentWorker, type ContentWorker } from './content-worker-client.ts';
import { createStayCache } from './stay-cache.ts';
import { simulatedSlots, supplierConfig, type SimulatedSlot } from '../compose/supplier-slots.ts';

/** One gateway's content side: its own store handle and worker on the database, what it serves, and its search. */
interface Gateway {
  store: Store;
  worker: ContentWorker;
  content: ContentService;
  served: () => { no: number; label: string; search: Search } | null;
  close(): Promise<void>;
}

async function startGateway(where: StoreLocation, slots: Record<SupplierId, SimulatedSlot>): Promise<Gateway> {
  const store = await openContentStore(where, { settings: defaults });
  const worker = createContentWorker({
    where,
    feeds: { module: SUPPLIERS_MODULE, configs: simulatedSlots(slots).map(supplierConfig) },
    settings: defaults,
  });
  let served: { no: number; label: string; search: Search } | null = null;
  const content = createContentService({
    store,
    worker,
    shrinkLimit: defaults.feedShrinkLimit,
    refreshMs: 0,
    retryMs: 60_000,
    pollMs: defaults.contentPollMs,
    log: () => undefined,
    warn: () => undefined,
    // As the app's serve (app.ts): index and pyramid built in the worker, by the refresh that
    // published the version or from the database's chunks.
    serve({ no, label, index, pyramid, version }) {
      const search = createSearch({
        index,
        pyramid,
        stays: createStayCache(version, { capacity: 1_000 }),
        store: version,
        geocoder: { geocode: async () => null },
        totalCap: defaults.totalCap,
        quotes: new Map(),
        pricedCandidates: defaults.pricedCandidates,
        quoteBudgetMs: defaults.quoteBudgetMs,
        slicer: createWorkSlicer({ sliceMs: defaults.workSliceMs }),
        clustering: clusteringSettings(defaults),
      });
      served = { no, label, search };
    },
  });
  await content.start(AbortSignal.timeout(60_000));
  return {
    store,
    worker,
    content,
    served: () => served,
    async close() {
      content.stop();
      await worker.close();
      await store.close();
    },
  };
}

const PARIS = { south: 48.8, west: 2.2, north: 48.92, east: 2.45 };

function boxQuery(box: typeof PARIS, pageSize = 10): SearchQuery {
  return baseQuery({ location: { kind: 'box', ...box }, pageSize });
}

/** Polls a condition (no fixed sleep stands in for it); fails after `ms`. */
async function until(what: string, condition: () => boolean, ms: number): Promise<number> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - start;
}

describe('content on PostgreSQL', { skip: await skipWithoutPostgres() }, () => {
  let schema: TestSchema;
  let world: World;
  let sim: SimSuppliers;
  let where: StoreLocation;
  const gateways: Gateway[] = [];

  before(async () => {
    schema = await createTestSchema();
    where = { kind: 'postgres', url: schema.url };
    world = generateWorld({ seed: 14, stays: 3_000 });
    sim = await startSimSuppliers({ world });
  });
  after(async () => {
    for (const gateway of gateways) await gateway.close();
    await sim.close();
    await schema.drop();
  });

  it("ingests a simulated world through the real worker and searches it as the database's rows say", async () => {
    const a = await startGateway(where, sim.slots);
    gateways.push(a);
    const served = a.served();
    assert.ok(served !== null, 'a version is served after the first start');
    const current = await a.store.currentContent();
    assert.equal(current?.no, served.no);
    for (const s of SUPPLIER_IDS) assert.equal(a.content.suppliers()[s].state, 'ok', `${s} applied`);

    // Every listing of the world is in the published version, once.
    let listings = 0;
    for await (const batch of a.store.version(served.no).allStays()) for (const stay of batch) listings += stay.listings.length;
    assert.equal(
      listings,
      SUPPLIER_IDS.reduce((n, s) => n + world.listings[s].length, 0),
    );

    // The box search against the version's own rows: the count, and the ten best-ranked.
    const rows = await indexRowsOf(a.store.version(served.no).indexChunks());
    const inBox = rows
      .filter((r) => r.lat >= PARIS.south && r.lat <= PARIS.north && r.lng >= PARIS.west && r.lng <= PARIS.east)
      .sort((x, y) => x.rank - y.rank);
    assert.ok(inBox.length > 10, `the world has stays in Paris (${inBox.length})`);
    const result = await served.search(boxQuery(PARIS));
    assert.equal(result.total, inBox.length);
    assert.deepEqual(
      result.hits.map((h) => h.stay.idx),
      inBox.slice(0, 10).map((r) => r.idx),
    );
    const [byId] = await a.store.resolveHotelIds([{ raw: result.hits[0].stay.id, supplier: null, id: result.hits[0].stay.id }]);
    assert.deepEqual(byId, [result.hits[0].stay.idx]);
  });

  it('a refresh by one gateway is served by another on the same database within 5 s; the old version stays readable until it swaps', async () => {
    const [a] = gateways;
    const b = await startGateway(where, sim.slots);
    gateways.push(b);
    const before = b.served();
    assert.equal(before?.no, a.served()?.no, 'the second gateway serves the stored version (no ingest of its own)');

    const moved = sim.advance(30);
    assert.ok(moved.added.length > 0, 'the world gained listings');
    const outcome = await a.content.refresh();
    assert.ok(outcome.result !== null, 'published');
    assert.equal(a.served()?.no, outcome.result.no);
    const waited = await until('the second gateway serving the new version', () => b.served()?.no === outcome.result!.no, 5_000);
    assert.ok(waited <= 5_000, `served after ${Math.round(waited)} ms`);

    // The second gateway answers from the new version: a listing added by the world is found.
    const added = moved.added[0];
    const newSearch = b.served()!.search;
    const found = await newSearch({
      ...boxQuery(PARIS),
      location: null,
      hotelIds: [{ raw: `${added.supplier}:${added.id}`, supplier: added.supplier, id: added.id }],
    });
    assert.equal(found.hits.length, 1, 'the new listing is searchable on the other gateway');
    // A search that started on the old version finishes on it: its rows are still there.
    assert.ok((await before!.search(boxQuery(PARIS))).hits.length > 0, 'the old version still reads');
    assert.deepEqual(await b.store.holdVersions([before!.no, outcome.result.no]), [before!.no, outcome.result.no]);
    await b.store.holdVersions([outcome.result.no]);
  });
});
