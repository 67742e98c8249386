import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMigratedSchema, skipWithoutPostgres, twoPgStores } from '../test-support/pg.ts';
import { runLeaseStoreContract } from '../test-support/contracts/lease-store-contract.ts';
import { createPgLeaseStore } from './pg-lease-store.ts';

describe('PostgreSQL lease store', { skip: await skipWithoutPostgres() }, () => {
  // Two pools on one schema of their own, as two gateways.
  runLeaseStoreContract('postgres', (clock) => twoPgStores((pool) => createPgLeaseStore({ pool, clock })));

  it("times expiries by the server's clock when no clock is given", async () => {
    const schema = await createMigratedSchema();
    try {
      const leases = createPgLeaseStore({ pool: schema.openPool() });
      const before = Date.now();
      assert.equal(await leases.acquire('sync', 'gw-1', 30_000), true);
      const { expiresAt } = (await leases.holder('sync'))!;
      // The server runs on this machine: its clock and ours agree to well within a minute.
      assert.ok(Math.abs(expiresAt - (before + 30_000)) < 60_000, `${expiresAt} vs ${before + 30_000}`);
      assert.equal(await leases.acquire('sync', 'gw-2', 30_000), false);
    } finally {
      await schema.drop();
    }
  });
});
