// Every write the server's own thread makes to the SQLite file leaves its event loop free while
// another connection holds the write lock (store/write-without-waiting.ts, docs/decisions.md 201):
// the call returns a pending promise at once, the loop turns, and the write lands when the lock is
// let go. Written the plain way, each call slept in SQLite's busy handler (here the whole busy
// timeout, since the lock holder shares the thread, then SQLITE_BUSY).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { click } from '../test-support/contracts/click-store-contract.ts';
import { mapToken, storedKey } from '../test-support/contracts/key-store-contract.ts';
import { row } from '../test-support/contracts/transaction-store-contract.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { openSqliteStores, sqliteLocation, type Stores } from './open-stores.ts';

describe('SQLite writes of the server thread while another connection holds the write lock', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-never-wait-'));
  let stores: Stores;
  let other: Database.Database;
  const key = storedKey();
  const token = mapToken({ keyId: key.id });
  before(async () => {
    stores = openSqliteStores(dir, defaults);
    await stores.store.publishContent(syntheticStays(3), 'v1', {});
    await stores.keys.insert(key);
    await stores.keys.insertMapToken(token);
    other = new Database(sqliteLocation(dir).path);
  });
  after(async () => {
    other.close();
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const writes: Record<string, () => Promise<unknown>> = {
    'a lease taken': () => stores.leases.acquire('refresh', 'holder-1', 60_000),
    'a lease let go': () => stores.leases.release('refresh', 'holder-1'),
    'a click': () => stores.clicks.record(click('ck-never-wait', '2026-11-27T10:00:00.000Z')),
    'a key': () => stores.keys.insert(storedKey()),
    "a key's status": () => stores.keys.setStatus(key.id, 'pending', '2026-11-27T10:00:00.000Z'),
    'a map token': () => stores.keys.insertMapToken(mapToken({ keyId: key.id })),
    "a map token's revocation": () => stores.keys.revokeMapToken(token.token, '2026-11-27T10:00:00.000Z'),
    "map searches' counts": () => stores.keys.countMapSearches([{ token: token.token, month: '2026-11', searches: 3 }]),
    'a report applied': () =>
      stores.transactions.applyReport('supplier_a', [row('bk-1')], { syncedThrough: '2026-11-27', syncedAt: '2026-11-27T10:00:00.000Z' }),
    'an import applied': () =>
      stores.transactions.applyImport('supplier_b', [row('bk-2', { supplier: 'supplier_b' })], {
        file: 'b.csv',
        importedAt: '2026-11-27T10:00:00.000Z',
        unattributed: 0,
      }),
    'partners assigned': () => stores.transactions.assignPartners(new Map([['aff-1', 'p1']])),
    "a reader's holds": () => stores.store.holdVersions([1]),
  };
  for (const [what, write] of Object.entries(writes)) {
    it(`${what}: pending while the lock is held, the loop turning, and written once it is let go`, async () => {
      other.exec('BEGIN IMMEDIATE');
      let settled = false;
      let written: Promise<unknown>;
      try {
        written = write().finally(() => {
          settled = true;
        });
        await turn();
        await turn();
        assert.equal(settled, false, 'the write went through a held lock');
      } finally {
        other.exec('COMMIT');
      }
      await written;
      assert.equal(settled, true);
    });
  }
});
