import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runLeaseStoreContract } from '../test-support/contracts/lease-store-contract.ts';
import { createSqliteLeaseStore } from './sqlite-lease-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-leases-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Two connections on one file, as two gateway processes of one machine.
runLeaseStoreContract('sqlite', async (clock) => {
  const path = join(dir, `leases-${files++}.sqlite`);
  const first = createSqliteLeaseStore({ path, clock });
  const second = createSqliteLeaseStore({ path, clock });
  return {
    first,
    second,
    close: async () => {
      await Promise.all([first.close(), second.close()]);
    },
  };
});
