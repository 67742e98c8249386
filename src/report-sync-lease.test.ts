// The scheduled report sync is a singleton among the processes sharing a database (docs/decisions.md
// 66): a gateway runs it only while it holds the lease `report-sync`, and takes it over once the
// holder is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openStores } from './compose/open-stores.ts';
import { startTestApp } from './test-support/start-test-app.ts';
import { defaults } from './defaults.ts';

/** Waits for a condition the gateway reaches by itself (its lease timer), with no wall-clock budget. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

test('a gateway runs the scheduled report sync only while it holds the lease, and takes it over from a holder that is gone', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-sync-lease-'));
  // Another process of the same database holds the lease for an hour (it would renew it).
  const other = await openStores({ dataDir, databaseUrl: null, settings: defaults }, { content: false });
  assert.equal(await other.leases.acquire('report-sync', 'other-gateway', 3_600_000), true);
  const t = await startTestApp({ stays: 300, settings: { dataDir, reportSyncIntervalMs: 3_600_000, reportSyncLeaseMs: 300 } });
  try {
    assert.equal((await other.leases.holder('report-sync'))?.holder, 'other-gateway');
    assert.equal((await other.transactions.syncState('supplier_a')).syncedThrough, null, 'no pull while another process holds the lease');
    // The other process goes away (its lease released, as an expiry would free it).
    await other.leases.release('report-sync', 'other-gateway');
    await until(async () => (await other.leases.holder('report-sync')) !== null);
    assert.notEqual((await other.leases.holder('report-sync'))!.holder, 'other-gateway');
    // Holding it, the gateway pulls at once.
    await until(async () => (await other.transactions.syncState('supplier_a')).syncedThrough !== null);
    assert.equal(await other.leases.acquire('report-sync', 'other-gateway', 3_600_000), false, 'the gateway keeps it while it lives');
  } finally {
    await t.close();
    await other.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
