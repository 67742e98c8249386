import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runClickStoreContract } from '../test-support/contracts/click-store-contract.ts';
import { createSqliteClickStore } from './sqlite-click-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-clicks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Two handles: two connections on one file, as two gateway processes.
runClickStoreContract(
  'sqlite (file)',
  async () => createSqliteClickStore({ path: join(dir, `clicks-${files++}.sqlite`) }),
  async () => {
    const path = join(dir, `clicks-${files++}.sqlite`);
    const first = createSqliteClickStore({ path });
    const second = createSqliteClickStore({ path });
    return {
      first,
      second,
      close: async () => {
        await Promise.all([first.close(), second.close()]);
      },
    };
  },
);
runClickStoreContract('sqlite (:memory:)', async () => createSqliteClickStore({ path: ':memory:' }));
