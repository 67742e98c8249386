// The content worker's thread lives while there are jobs: closed once idle for idleMs, so that the
// heap a refresh's pull and merge grew is given back; the next job starts another.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { defaults } from '../defaults.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { contentHeapLimitMb } from './content-heap-limit.ts';
import { CONTENT_WORKER_NAME, createContentWorker } from './content-worker-client.ts';

describe('the content worker thread', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-worker-'));
  const file = path.join(dir, 'staygate.sqlite');
  let no: number;
  const started: Worker[] = [];
  // Only ours: Node emits its own threads too (on Node 24, the module hooks' thread, a worker that never exits).
  const onWorker = (w: Worker) => {
    if (w.threadName === CONTENT_WORKER_NAME) started.push(w);
  };
  before(async () => {
    const store = createSqliteStore({ path: file, settings: defaults });
    no = await store.publishContent(syntheticStays(50), 'v1', {});
    await store.close();
    process.on('worker', onWorker);
  });
  after(() => {
    process.off('worker', onWorker);
    rmSync(dir, { recursive: true, force: true });
  });
  const worker = (idleMs: number) => createContentWorker({ where: { kind: 'sqlite', path: file }, settings: defaults, idleMs });

  // The timeout only turns a thread that never closes into a failure rather than a hang.
  it('is closed once idle, and the next job starts another', { timeout: 60_000 }, async () => {
    const content = worker(0);
    const first = started.length;
    assert.equal((await content.loadIndex(no)).index.size, 50);
    assert.equal(started.length, first + 1);
    const exited = new Promise((resolve) => started[first].once('exit', resolve));
    await exited; // the idle thread let go of its heap: it is gone
    assert.equal((await content.loadIndex(no)).index.size, 50);
    assert.equal(started.length, first + 2, 'the second job ran in a thread of its own');
    await content.close();
  });

  it('serves jobs within its idle time from the same thread', async () => {
    const content = worker(60_000);
    const first = started.length;
    await content.loadIndex(no);
    await content.loadIndex(no);
    assert.equal(started.length, first + 1);
    const exited = new Promise((resolve) => started[first].once('exit', resolve));
    await content.close(); // and close() ends it at once
    await exited;
  });

  it('may grow its heap past V8 default cap to what a 10M-listing build needs', async () => {
    const content = worker(60_000);
    const first = started.length;
    await content.loadIndex(no);
    assert.equal(started[first].resourceLimits?.maxOldGenerationSizeMb, contentHeapLimitMb());
    await content.close();
  });
});
