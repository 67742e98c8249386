import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runClickStoreContract } from './click-store-contract.ts';
import { createSqliteClickStore } from './sqlite-click-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-clicks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

runClickStoreContract('sqlite (file)', async () => createSqliteClickStore({ path: join(dir, `clicks-${files++}.sqlite`) }));
runClickStoreContract('sqlite (:memory:)', async () => createSqliteClickStore({ path: ':memory:' }));
