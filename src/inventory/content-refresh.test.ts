// Content refresh end to end (issue 12): a gateway on a small simulated world, the world advanced
// or broken on purpose, the gateway refreshed, and what it serves checked against the world.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main as cli } from '../cli/main.ts';
import { defaults } from '../defaults.ts';
import { writeSimulatorAddress } from '../compose/simulator-address.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';
import { SUPPLIER_IDS, type Stay, type SupplierId } from '../types.ts';

/** Every stay the gateway serves now, read from its store's current version. */
async function servedStays(t: TestApp): Promise<Stay[]> {
  const store = createSqliteStore({ path: path.join(t.dataDir, 'staygate.sqlite'), settings: defaults });
  try {
    const current = await store.currentContent();
    assert.ok(current !== null, 'current !== null');
    const stays: Stay[] = [];
    for await (const batch of store.version(current.no).allStays()) stays.push(...batch);
    return stays;
  } finally {
    await store.close();
  }
}

const stayOfListing = (stays: Stay[]) =>
  new Map(stays.flatMap((s) => s.listings.map((l) => [`${l.supplier}:${l.supplierStayId}`, s] as const)));
const listingsOf = (stays: Stay[], supplier: SupplierId) =>
  stays.reduce((n, s) => n + s.listings.filter((l) => l.supplier === supplier).length, 0);

/** Polls a condition (no fixed sleep stands in for it); fails after `ms`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const start = performance.now();
  while (!(await condition())) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('content refresh', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ stays: 3_000, settings: { contentRefreshMs: 0 }, app: { geocoder: { geocode: async () => null } } });
  });
  after(async () => {
    await t.close();
  });

  it('adds, removes and changes stays after the world moves on; ids are stable, a removed id is a JSON 404', async () => {
    const before = await servedStays(t);
    // A cross-listed stay whose id came from a listing that now closes: it must keep its id.
    const crossListed = before.find((s) => s.listings.length >= 2)!;
    const first = [...crossListed.listings].sort((a, b) =>
      `${a.supplier}:${a.supplierStayId}` < `${b.supplier}:${b.supplierStayId}` ? -1 : 1,
    )[0];
    const feed = t.world.listings[first.supplier];
    t.world.closed[first.supplier].push(
      ...feed.splice(
        feed.findIndex((l) => l.supplierStayId === first.supplierStayId),
        1,
      ),
    );

    const advance = t.sim.advance(60);
    const outcome = await t.app.refreshContent();
    assert.ok(outcome.result !== null, 'outcome.result !== null');
    const { added, removed, changed } = outcome.result;
    assert.ok(added > 0 && removed > 0 && changed > 0, `added ${added}, removed ${removed}, changed ${changed}`);

    const after = await servedStays(t);
    // The counts are those of the two versions' stays by id, a stay changed when what it shows is.
    const beforeById = new Map(before.map((s) => [s.id, s]));
    const afterIds = new Set(after.map((s) => s.id));
    const shows = (s: Stay) => JSON.stringify({ ...s, idx: 0 });
    assert.deepEqual(
      { added, removed, changed },
      {
        added: after.filter((s) => !beforeById.has(s.id)).length,
        removed: before.filter((s) => !afterIds.has(s.id)).length,
        changed: after.filter((s) => beforeById.has(s.id) && shows(beforeById.get(s.id)!) !== shows(s)).length,
      },
    );
    const afterByListing = stayOfListing(after);
    assert.equal(
      after.find((s) =>
        s.listings.some(
          (l) => l.supplierStayId === crossListed.listings[1].supplierStayId && l.supplier === crossListed.listings[1].supplier,
        ),
      )?.id,
      crossListed.id,
      'the stay keeps its id when the listing that gave it is gone',
    );
    // Every stay with a listing left keeps its id (where two stays merged, one of the two ids goes;
    // where one split, one part keeps it).
    const beforeByListing = stayOfListing(before);
    let kept = 0;
    for (const stay of before) {
      const survivors = stay.listings.map((l) => afterByListing.get(`${l.supplier}:${l.supplierStayId}`)).filter((s) => s !== undefined);
      if (survivors.length === 0) continue;
      kept++;
      const merged = survivors.some(
        (s) =>
          new Set(s.listings.map((l) => beforeByListing.get(`${l.supplier}:${l.supplierStayId}`)?.id).filter((id) => id !== undefined))
            .size > 1,
      );
      if (!merged)
        assert.ok(
          survivors.some((s) => s.id === stay.id),
          `stay ${stay.id} keeps its id`,
        );
    }
    assert.ok(kept > before.length * 0.9, 'kept > before.length * 0.9');
    // A listing newly added on a second supplier joins its property's stay.
    const joined = advance.added
      .map((a) => afterByListing.get(`${a.supplier}:${a.id}`)!)
      .filter((s) => s !== undefined && s.listings.length > 1 && before.some((b) => b.id === s.id));
    assert.ok(joined.length > 0, 'a new listing of an existing property joined its stay');
    // A removed stay's id: a clear JSON 404, never someone else's stay.
    const gone = before.find((s) => !afterIds.has(s.id))!;
    const res = await t.get(`/go/${gone.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'NOT_FOUND');
    assert.ok(res.body.requestId, 'res.body.requestId');
    // New ids never reuse an old one.
    const beforeIds = new Set(before.map((s) => s.id));
    const fresh = after.filter((s) => !beforeIds.has(s.id));
    assert.ok(fresh.length > 0, 'fresh.length > 0');
    assert.equal(t.app.health().inventory?.version, outcome.result.label, 'served at once');
  });

  it("a failed feed and a shrunken feed leave the supplier's listings as they were; malformed records are skipped and counted", async () => {
    const before = await servedStays(t);
    await t.sim.setFault('supplier_b', 'error');
    // supplier_c loses half its feed at once: a broken feed, not a market.
    const feedC = t.world.listings.supplier_c;
    const cut = feedC.splice(0, Math.ceil(feedC.length / 2));
    // One supplier_a record the adapter cannot read (a latitude that is no number).
    const broken = t.world.listings.supplier_a[0];
    const lat = broken.lat;
    broken.lat = Number.NaN;
    try {
      const outcome = await t.app.refreshContent();
      assert.equal(outcome.feeds.supplier_b?.ok, false);
      assert.equal(outcome.result?.suppliers.supplier_b.verdict, 'failed');
      assert.equal(outcome.result?.suppliers.supplier_c.verdict, 'held back');
      assert.equal(outcome.feeds.supplier_a?.ok && outcome.feeds.supplier_a.skipped, 1);
      const after = await servedStays(t);
      assert.equal(listingsOf(after, 'supplier_b'), listingsOf(before, 'supplier_b'));
      assert.equal(listingsOf(after, 'supplier_c'), listingsOf(before, 'supplier_c'));
      const health = (await t.get('/health')).body;
      assert.equal(health.status, 'degraded');
      assert.equal(health.suppliers.supplier_b.content, 'stale');
      assert.match(health.suppliers.supplier_b.lastError, /500|HTTP/);
      assert.equal(health.suppliers.supplier_c.content, 'stale');
      assert.match(health.suppliers.supplier_c.lastError, /held back/);
      assert.equal(health.suppliers.supplier_d.content, 'ok');
    } finally {
      await t.sim.setFault('supplier_b', null);
      feedC.unshift(...cut);
      broken.lat = lat;
    }
    await t.app.refreshContent();
    assert.equal((await t.get('/health')).body.status, 'ok');
  });

  it('no search fails or waits on the swap while a refresh runs', async () => {
    // Over real HTTP on loopback, as partners meet it.
    const base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
    t.sim.advance(5);
    let done = false;
    const refreshing = t.app.refreshContent().finally(() => {
      done = true;
    });
    const statuses: number[] = [];
    while (!done) {
      const res = await fetch(`${base}/v3/accommodations?nelat=49&nelng=3&swlat=48&swlng=2&pageSize=5`);
      await res.arrayBuffer();
      statuses.push(res.status);
      const health = await fetch(`${base}/health`);
      await health.arrayBuffer();
      statuses.push(health.status);
    }
    await refreshing;
    assert.ok(statuses.length > 2, 'statuses.length > 2');
    assert.deepEqual([...new Set(statuses)], [200]);
  });

  it('`staygate content refresh` publishes a version the running gateway serves, within a second by its poll plus the index build', async () => {
    assert.ok(defaults.contentPollMs <= 1_000, 'the gateway looks for a new version at least every second');
    writeSimulatorAddress(t.dataDir, { slots: t.sim.slots, controlUrl: t.sim.controlUrl });
    t.sim.advance(3);
    const served = t.app.health().inventory!.version;
    const lines: string[] = [];
    const code = await cli(
      ['content', 'refresh'],
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      { ...process.env, STAYGATE_DATA_DIR: t.dataDir },
    );
    assert.equal(code, 0, lines.join('\n'));
    for (const s of SUPPLIER_IDS)
      assert.ok(
        lines.some((l) => l.startsWith(`${s}: `)),
        `a line for ${s}`,
      );
    assert.match(lines.at(-1)!, /added, \d+ removed, \d+ changed/);
    // Polls the state, with no wall-clock budget (issue 13): how soon is the poll, a setting checked
    // above, plus the index build, which is the machine's speed (test files run concurrently).
    await until('the new version served', () => t.app.health().inventory!.version !== served);
  });

  it('`staygate content refresh` does nothing while another process holds the content lease (docs/decisions.md 76)', async () => {
    writeSimulatorAddress(t.dataDir, { slots: t.sim.slots, controlUrl: t.sim.controlUrl });
    const other = await t.openStores();
    try {
      assert.equal(await other.leases.acquire('content', 'another-refresh', 60_000), true);
      const before = t.app.health().inventory!.version;
      const lines: string[] = [];
      const env = { ...process.env, STAYGATE_DATA_DIR: t.dataDir };
      const refused = await cli(['content', 'refresh'], { out: (l) => lines.push(l), err: (l) => lines.push(l) }, env);
      assert.equal(refused, 1, lines.join('\n'));
      assert.match(lines.join('\n'), /already running \(another-refresh\)/);
      assert.equal(t.app.health().inventory!.version, before, 'nothing published');
      await other.leases.release('content', 'another-refresh');
      assert.equal(
        await cli(['content', 'refresh'], { out: () => undefined, err: () => undefined }, env),
        0,
        'runs once the lease is free',
      );
      assert.equal(await other.leases.holder('content'), null, 'and gives the lease back');
    } finally {
      await other.close();
    }
  });
});

describe('a supplier down at the first start', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ stays: 2_000, sim: { faults: 'supplier_b=down' }, settings: { contentRefreshMs: 0, contentRetryMs: 50 } });
  });
  after(async () => {
    await t.close();
  });

  it('the gateway is ready with the others, and the supplier joins once it answers, without a restart', async () => {
    const health = await t.get('/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'degraded');
    assert.equal(health.body.suppliers.supplier_b.content, 'unavailable');
    assert.equal(health.body.suppliers.supplier_a.content, 'ok');
    assert.equal(listingsOf(await servedStays(t), 'supplier_b'), 0);
    // Dated searches and /go keep working meanwhile, and say whose stays they cannot hold
    // (docs/decisions.md 68); static searches have no unavailableSuppliers at all.
    const DATED = 'nelat=49&nelng=3&swlat=48&swlng=2&checkin=2027-03-10&checkout=2027-03-12';
    for (const version of ['v2', 'v3']) {
      const dated = await t.get(`/${version}/accommodations?${DATED}`);
      assert.equal(dated.status, 200);
      assert.ok(dated.body.results.length > 0, `${version}: the other suppliers' stays are found`);
      assert.deepEqual(
        dated.body.meta.unavailableSuppliers,
        [{ supplier: 'supplier_b', reason: 'content_unavailable' }],
        `${version}: meta names the supplier without content`,
      );
    }
    const go = await t.get(new URL((await t.get(`/v3/accommodations?${DATED}`)).body.results[0].url as string).pathname);
    assert.equal(go.status, 302, '/go works meanwhile');
    assert.equal((await t.get('/v3/accommodations?nelat=49&nelng=3&swlat=48&swlng=2')).body.meta.unavailableSuppliers, undefined);

    await t.sim.setFault('supplier_b', null);
    await until('supplier_b joined', () => t.app.health().suppliers.supplier_b?.content === 'ok');
    assert.equal(listingsOf(await servedStays(t), 'supplier_b'), t.world.listings.supplier_b.length);
    assert.equal(t.app.health().status, 'ok');
    for (const version of ['v2', 'v3']) {
      const dated = await t.get(`/${version}/accommodations?${DATED}`);
      assert.ok(
        dated.body.results.some((r: { suppliers: Record<string, unknown> }) => 'supplier_b' in r.suppliers),
        `${version}: supplier_b's stays are found`,
      );
      assert.ok(
        !(dated.body.meta.unavailableSuppliers as { supplier: string }[]).some((u) => u.supplier === 'supplier_b'),
        `${version}: meta no longer names supplier_b`,
      );
    }
  });
});

describe('ten refreshes (issue 25)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ stays: 2_000, settings: { contentRefreshMs: 0 }, app: { geocoder: { geocode: async () => null } } });
  });
  after(async () => {
    await t.close();
  });

  it('one that finds nothing changed publishes no version and writes nothing; with changes, the store stops growing', async (tc) => {
    const first = (await t.get('/health')).body;
    assert.ok(Number.isInteger(first.inventory.storeBytes) && first.inventory.storeBytes > 0, `storeBytes ${first.inventory.storeBytes}`);
    const same = await t.app.refreshContent();
    assert.equal(same.result?.unchanged, true, 'nothing changed in the world');
    const after = (await t.get('/health')).body;
    assert.equal(after.inventory.version, first.inventory.version, 'inventory.version does not move');
    assert.equal(after.inventory.builtAt, first.inventory.builtAt, 'no swap');
    const store = createSqliteStore({ path: path.join(t.dataDir, 'staygate.sqlite'), settings: defaults });
    try {
      assert.equal((await store.currentContent())?.no, same.result?.no, 'the served version is still the current one');
    } finally {
      await store.close();
    }
    // Written: the supplier states on the served version's row, a page or two of WAL; a version of
    // this world is ~2.5 MB.
    assert.ok(
      after.inventory.storeBytes - first.inventory.storeBytes < 64 * 1024,
      `bytes ${first.inventory.storeBytes} -> ${after.inventory.storeBytes}`,
    );
    for (const s of SUPPLIER_IDS) {
      assert.equal(after.suppliers[s].content, 'ok');
      assert.ok(after.suppliers[s].lastRefresh >= first.suppliers[s].lastRefresh, `${s}: the applied feed is recorded`);
    }

    const sizes: number[] = [];
    for (let i = 1; i <= 10; i++) {
      t.sim.advance(1);
      const outcome = await t.app.refreshContent();
      assert.equal(outcome.result?.unchanged, false, `refresh ${i}: the world moved on a day`);
      sizes.push(t.app.health().inventory!.storeBytes!);
    }
    tc.diagnostic(`storeBytes after each refresh: ${sizes.join(', ')}`);
    // After the first refresh the store holds two versions, from the second on three at the most
    // (served, the one before, the one being written): about one version apart.
    const version = sizes[1] - sizes[0];
    assert.ok(version > 0, `a version takes room: ${sizes[0]} -> ${sizes[1]}`);
    // Were dropped versions' space not used again, refreshes 4-10 would add seven versions. What may
    // still grow is the stay id map (a few listings a simulated day) and part-filled pages.
    assert.ok(sizes[9] <= sizes[2] + version / 4, `storeBytes ${sizes.join(', ')}; one version ~${version}`);
  });
});

describe('the scheduled refresh (issue 25)', () => {
  let t: TestApp;
  before(async () => {
    // STAYGATE_CONTENT_REFRESH_MS, as config.ts reads it (config.test.ts) and server.ts hands it over.
    t = await startTestApp({ stays: 2_000, settings: { contentRefreshMs: 100 }, app: { geocoder: { geocode: async () => null } } });
  });
  after(async () => {
    await t.close();
  });

  it('pulls the feeds on its own every STAYGATE_CONTENT_REFRESH_MS and serves what changed, no call needed', async () => {
    const served = t.app.health().inventory!.version;
    assert.equal(t.app.health().status, 'ok', 'no supplier to retry: only the schedule refreshes');
    const changed = t.world.listings.supplier_a[0];
    const name = changed.name;
    changed.name = `${name} (renamed)`;
    try {
      // Nothing here asks for a refresh; another version can only come from the schedule.
      await until('a scheduled refresh served the change', () => t.app.health().inventory!.version !== served);
      const listing = stayOfListing(await servedStays(t))
        .get(`supplier_a:${changed.supplierStayId}`)
        ?.listings.find((l) => l.supplier === 'supplier_a' && l.supplierStayId === changed.supplierStayId);
      assert.equal(listing?.name, `${name} (renamed)`, 'the served version has the change');
    } finally {
      changed.name = name;
    }
  });
});
