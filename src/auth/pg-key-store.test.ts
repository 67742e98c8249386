import { freshPgStore, skipWithoutPostgres, twoPgStores } from '../test-support/pg.ts';
import { describe } from 'node:test';
import { runKeyStoreContract } from '../test-support/contracts/key-store-contract.ts';
import { createPgKeyStore } from './pg-key-store.ts';

// Each store on a schema of its own in the test database, dropped when it closes.
describe('PostgreSQL key store', { skip: await skipWithoutPostgres() }, () => {
  runKeyStoreContract(
    'postgres',
    () => freshPgStore((pool) => createPgKeyStore({ pool })),
    () => twoPgStores((pool) => createPgKeyStore({ pool })),
  );
});
