import { describe } from 'node:test';
import { freshPgStore, skipWithoutPostgres, twoPgStores } from '../test-support/pg.ts';
import { runClickStoreContract } from '../test-support/contracts/click-store-contract.ts';
import { createPgClickStore } from './pg-click-store.ts';

// Each store on a schema of its own in the test database, dropped when it closes.
describe('PostgreSQL click store', { skip: await skipWithoutPostgres() }, () => {
  runClickStoreContract(
    'postgres',
    () => freshPgStore((pool) => createPgClickStore({ pool })),
    () => twoPgStores((pool) => createPgClickStore({ pool })),
  );
});
