// The CLI on PostgreSQL (DATABASE_URL): `db migrate` on a schema of its own, and the keys and
// transactions commands against the same database, as operators run them beside the gateways.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestSchema, skipWithoutPostgres, type TestSchema } from '../test-support/pg.ts';
import { main, type CliIo } from './main.ts';

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (line) => out.push(line), err: (line) => err.push(line) };
  return { code: await main(args, io, env), out, err };
}

/** A data folder of its own per run: with DATABASE_URL nothing should be written there. */
function emptyDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'staygate-db-cli-'));
}

describe('staygate db migrate', () => {
  it('says it needs DATABASE_URL without one', async () => {
    const dataDir = emptyDataDir();
    const result = await run(['db', 'migrate'], { STAYGATE_DATA_DIR: dataDir });
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(result.code, 1);
    assert.match(result.err.join('\n'), /needs DATABASE_URL/);
  });
});

describe('staygate on PostgreSQL', { skip: await skipWithoutPostgres() }, () => {
  let schema: TestSchema;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  before(async () => {
    dataDir = emptyDataDir();
    schema = await createTestSchema();
    env = { STAYGATE_DATA_DIR: dataDir, DATABASE_URL: schema.url };
  });
  after(async () => {
    await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('db migrate applies every migration once and says so', async () => {
    const first = await run(['db', 'migrate'], env);
    assert.equal(first.code, 0, first.err.join('\n'));
    assert.ok(first.out.includes('applied 0001-keys-clicks-transactions-leases.sql'), first.out.join('\n'));
    assert.match(first.out.at(-1)!, /the database has all \d+ migrations/);
    const again = await run(['db', 'migrate'], env);
    assert.equal(again.code, 0);
    assert.deepEqual(
      again.out.filter((line) => line.startsWith('applied')),
      [],
    );
    assert.match(again.out.at(-1)!, /nothing to apply/);
  });

  it('keys made, listed and revoked in separate runs share the database, with no SQLite file made', async () => {
    const created = await run(['keys', 'create', '--aid', 'aff-pg', '--pending'], env);
    assert.equal(created.code, 0, created.err.join('\n'));
    const key = created.out.at(-1)!;
    const listed = await run(['keys', 'list', '--json'], env);
    const records = JSON.parse(listed.out.join('\n')) as { id: string; status: string }[];
    assert.deepEqual(
      records.map((r) => [r.id, r.status]),
      [[key.slice(3, 19), 'pending']],
    );
    assert.equal((await run(['keys', 'revoke', key], env)).code, 0);
    const grant = await run(['keys', 'grant', key], env);
    assert.equal(grant.code, 1);
    assert.match(grant.err.join('\n'), /revoked and cannot be granted again/);
    const status = await run(['transactions', 'status'], env);
    assert.equal(status.code, 0, status.err.join('\n'));
    assert.match(status.out[0], /^0 transactions/);
    assert.deepEqual(readdirSync(dataDir), [], 'the data folder stays empty: nothing local was needed');
  });
});
