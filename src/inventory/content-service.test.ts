// The content service's side of version pruning (docs/decisions.md 69): what it holds while it
// swaps, on a real store file with a second handle publishing as another process would.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { RankedStay, Store } from '../store/store.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { createSupplierAuth } from '../suppliers/supplier-auth.ts';
import type { SupplierId } from '../types.ts';
import { createContentService, type ContentServiceOptions } from './content-service.ts';
import type { ContentWorker } from './content-worker-client.ts';
import type { ContentBuildResult } from './build-content-version.ts';
import type { FeedReport, RefreshOutcome } from './refresh-content.ts';
import { defaults } from '../defaults.ts';
import type { VersionIndex } from './version-index.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-content-service-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** One stay named after the version, so what a version holds tells which it is. */
const named = (name: string): RankedStay[] => syntheticStays(1).map((s) => ({ ...s, name }));

/**
 * A worker that only loads indexes (these tests never refresh: a refresh fails the test): an empty
 * index, after `loading(no)`, what happens while version `no` loads.
 */
const loadingWorker = (loading: (no: number) => Promise<void> = async () => undefined): ContentServiceOptions['worker'] => ({
  refreshAndIndex: () => assert.fail('the worker was asked to refresh'),
  async loadIndex(no) {
    await loading(no);
    return { no, index: { size: 0 }, pyramid: {} } as VersionIndex;
  },
});

async function nameIn(store: Store, no: number): Promise<string | undefined> {
  return (await store.version(no).getStays([0]))[0]?.name;
}

/** Polls a condition (no fixed sleep stands in for it); fails after `ms`. */
async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('content service and pruning', () => {
  it('holds the served and the loading version while it swaps, however many are published meanwhile, then only the new one', async () => {
    const path = join(dir, `store-${files++}.sqlite`);
    const gateway = createSqliteStore({ path, settings: defaults });
    const publisher = createSqliteStore({ path, settings: defaults });
    const v1 = await publisher.publishContent(named('one'), 'one', {});
    const served: number[] = [];
    const seenWhileLoading: (string | undefined)[] = [];
    let v2 = 0;
    const content = createContentService({
      store: gateway,
      worker: loadingWorker(async (no) => {
        if (no === v2) {
          // Two more versions published while this one loads: neither it nor the one served goes.
          await publisher.publishContent(named('three'), 'three', {});
          await publisher.publishContent(named('four'), 'four', {});
          seenWhileLoading.push(await nameIn(gateway, v1), await nameIn(gateway, v2));
        }
      }),
      shrinkLimit: 0.2,
      refreshMs: 0,
      retryMs: 60_000,
      pollMs: 10,
      log: () => undefined,
      warn: () => undefined,
      serve({ no }) {
        served.push(no);
      },
    });
    try {
      await content.start(AbortSignal.timeout(10_000));
      assert.deepEqual(served, [v1]);
      v2 = await publisher.publishContent(named('two'), 'two', {});
      await until('the second version served', () => served.includes(v2));
      assert.deepEqual(seenWhileLoading, ['one', 'two']);
      // Swapped to v2 (the poll goes on to v4 later); once it serves v4, v1 and v2 are held by no one.
      await until('the newest version served', () => served.at(-1) === v2 + 2);
      await publisher.publishContent(named('five'), 'five', {});
      assert.deepEqual(await publisher.holdVersions([v1, v2]), [], 'released and pruned');
    } finally {
      content.stop();
      await gateway.close();
      await publisher.close();
    }
  });

  it('does not load a version pruned between reading the pointer and holding it: it reads the pointer again', async () => {
    const path = join(dir, `store-${files++}.sqlite`);
    const store = createSqliteStore({ path, settings: defaults });
    const v1 = await store.publishContent(named('one'), 'one', {});
    await store.publishContent(named('two'), 'two', {});
    const v3 = await store.publishContent(named('three'), 'three', {});
    // The first read of the pointer answers as it would have just before v2 and v3 were published.
    let stale = true;
    const racing: Store = {
      ...store,
      async currentContent() {
        if (!stale) return store.currentContent();
        stale = false;
        return { no: v1, label: 'one', info: {} };
      },
    };
    const served: number[] = [];
    const content = createContentService({
      store: racing,
      worker: loadingWorker(),
      shrinkLimit: 0.2,
      refreshMs: 0,
      retryMs: 60_000,
      pollMs: 60_000,
      log: () => undefined,
      warn: () => undefined,
      serve({ no }) {
        served.push(no);
      },
    });
    try {
      await content.start(AbortSignal.timeout(10_000));
      assert.deepEqual(served, [v3]);
    } finally {
      content.stop();
      await store.close();
    }
  });
});

describe('content service and the refresh', () => {
  it('serves the version a refresh published with the index the refresh brought: the worker is not asked to load it again', async () => {
    const store = createSqliteStore({ path: join(dir, `store-${files++}.sqlite`), settings: defaults });
    const worker: ContentServiceOptions['worker'] = {
      // As the worker does: publishes, then sends the version's index back with the report.
      async refreshAndIndex() {
        const no = await store.publishContent(named('one'), 'one', {});
        const result = { no, label: 'one', unchanged: false, stays: 1, added: 1, removed: 0, changed: 0, ms: 1 } as ContentBuildResult;
        return { outcome: { feeds: {}, result }, index: { no, index: { size: 1 }, pyramid: {} } as VersionIndex };
      },
      loadIndex: (no) => assert.fail(`the worker was asked to load version ${no}`),
    };
    const served: [number, number][] = [];
    const content = createContentService({
      store,
      worker,
      shrinkLimit: 0.2,
      refreshMs: 0,
      retryMs: 60_000,
      pollMs: 60_000,
      log: () => undefined,
      warn: () => undefined,
      serve: ({ no, index }) => void served.push([no, index.size]),
    });
    try {
      await content.start(AbortSignal.timeout(10_000));
      assert.deepEqual(served, [[(await store.currentContent())!.no, 1]]);
    } finally {
      content.stop();
      await store.close();
    }
  });
});

describe('content service and credentials', () => {
  it("tells each pull's auth verdict and its rate-limit waits; a refused pull's error is the supplier's message", async () => {
    const store = createSqliteStore({ path: join(dir, `store-${files++}.sqlite`), settings: defaults });
    const failed = (error: string, auth: FeedReport['auth'], rateLimitWaits = 0): FeedReport => ({
      ok: false,
      error,
      listings: 0,
      ms: 1,
      auth,
      rateLimitWaits,
    });
    const pulls: RefreshOutcome[] = [
      {
        feeds: {
          supplier_a: failed('auth: Invalid API key', 'failed'),
          supplier_b: failed('supplier_b: HTTP 500 from http://b/: boom', 'unknown', 2),
        },
        result: null,
      },
      { feeds: { supplier_a: failed('supplier_a: no answer within 30000 ms', 'ok') }, result: null },
    ];
    const worker = { refreshAndIndex: async () => ({ outcome: pulls.shift()!, index: null }) } as unknown as ContentWorker;
    const auth = createSupplierAuth();
    const waits: [SupplierId, number][] = [];
    const content = createContentService({
      store,
      worker,
      shrinkLimit: 0.2,
      refreshMs: 0,
      retryMs: 60_000,
      pollMs: 60_000,
      log: () => undefined,
      warn: () => undefined,
      auth,
      onRateLimitWaits: (supplier, n) => waits.push([supplier, n]),
      serve: () => assert.fail('nothing is published'),
    });
    try {
      await content.refresh();
      assert.deepEqual(auth.state('supplier_a'), { auth: 'failed', error: 'auth: Invalid API key' });
      assert.equal(content.suppliers().supplier_a.lastError, 'auth: Invalid API key');
      assert.deepEqual(auth.state('supplier_b'), { auth: 'unknown', error: null });
      assert.deepEqual(waits, [['supplier_b', 2]]);
      // A pull that got pages before it failed: the credentials were accepted.
      await content.refresh(['supplier_a']);
      assert.deepEqual(auth.state('supplier_a'), { auth: 'ok', error: null });
    } finally {
      content.stop();
      await store.close();
    }
  });
});
