import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createSqliteStore } from '../store/sqlite-store.ts';
import { generateApiKey } from './api-key.ts';
import { runKeyStoreContract } from '../test-support/contracts/key-store-contract.ts';
import { createSqliteKeyStore } from './sqlite-key-store.ts';
import { defaults } from '../defaults.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-keys-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Two handles: two connections on one file, as the server and the CLI.
runKeyStoreContract(
  'sqlite (file)',
  async () => createSqliteKeyStore({ path: join(dir, `keys-${files++}.sqlite`) }),
  async () => {
    const path = join(dir, `keys-${files++}.sqlite`);
    const first = createSqliteKeyStore({ path });
    const second = createSqliteKeyStore({ path });
    return {
      first,
      second,
      close: async () => {
        await Promise.all([first.close(), second.close()]);
      },
    };
  },
);
runKeyStoreContract('sqlite (:memory:)', async () => createSqliteKeyStore({ path: ':memory:' }));

test('sqlite key store: shares the inventory file, and another connection sees changes at once', async () => {
  const path = join(dir, 'shared.sqlite');
  const inventory = createSqliteStore({ path, settings: defaults });
  const server = createSqliteKeyStore({ path });
  const cli = createSqliteKeyStore({ path });
  try {
    const before = await server.version();
    const { id, hash } = generateApiKey();
    await cli.insert({
      id,
      hash,
      partnerId: 'p',
      aid: 'a',
      thirdParties: [],
      status: 'active',
      limitPerMinute: null,
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    });
    assert.ok((await server.version()) > before, '(await server.version()) > before');
    assert.deepEqual(
      (await server.activeKeys()).map((k) => k.id),
      [id],
    );
    assert.equal(await inventory.currentContent(), null, 'the inventory tables are untouched');
  } finally {
    await Promise.all([inventory.close(), server.close(), cli.close()]);
  }
});
