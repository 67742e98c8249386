// A partner key for benchmarks: partner traffic is keyed, and a benchmark must pay for key
// checks and rate limiting like real traffic does, under a limit it will not reach.
import path from 'node:path';
import { MAX_KEY_LIMIT, createKeyAdmin } from '../src/auth/key-admin.ts';
import { createSqliteKeyStore } from '../src/auth/sqlite-key-store.ts';

export async function createBenchKey(dataDir: string): Promise<string> {
  const store = createSqliteKeyStore({ path: path.join(dataDir, 'staygate.sqlite') });
  try {
    return (await createKeyAdmin(store).create({ aid: 'bench', limitPerMinute: MAX_KEY_LIMIT })).key;
  } finally {
    await store.close();
  }
}
