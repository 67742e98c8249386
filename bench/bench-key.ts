// A partner key for benchmarks: partner traffic is keyed, and a benchmark must pay for key
// checks and rate limiting like real traffic does, under a limit it will not reach.
import { MAX_KEY_LIMIT, createKeyAdmin } from '../src/auth/key-admin.ts';
import { openStores } from '../src/compose/open-stores.ts';
import { defaults } from '../src/defaults.ts';

/** A key in the gateway's database: the SQLite file of `dataDir`, or PostgreSQL when `databaseUrl` is given. */
export async function createBenchKey(dataDir: string, databaseUrl: string | null = null): Promise<string> {
  const stores = await openStores({ dataDir, databaseUrl, settings: defaults }, { content: false });
  try {
    return (await createKeyAdmin(stores.keys).create({ aid: 'bench', limitPerMinute: MAX_KEY_LIMIT })).key;
  } finally {
    await stores.close();
  }
}
