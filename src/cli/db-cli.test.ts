// The CLI on PostgreSQL (DATABASE_URL): `db migrate` on a schema of its own, and the keys and
// transactions commands against the same database, as operators run them beside the gateways.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSchema, skipWithoutPostgres, TEST_DATABASE_URL, type TestSchema } from '../test-support/pg.ts';
import type { CliIo } from './cli-io.ts';
import { main } from './main.ts';

const BIN = fileURLToPath(new URL('../../bin/staygate.js', import.meta.url));

/** The real command, as an operator runs it. */
function staygate(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

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

const noPostgres = await skipWithoutPostgres();

describe('staygate db migrate on a database it cannot use: one line, what failed, for which database, what to do; exit 1', () => {
  // A password in every URL: it must never be printed.
  const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
  const url = (change: (url: URL) => void): string => {
    const parsed = new URL(TEST_DATABASE_URL);
    parsed.password = PASSWORD;
    change(parsed);
    return parsed.toString();
  };
  const migrate = async (databaseUrl: string) => {
    const dataDir = emptyDataDir();
    try {
      const result = await staygate({ STAYGATE_DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, 'db', 'migrate');
      assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
      assert.equal(result.stdout, '');
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line, no stack trace:\n${result.stderr}`);
      assert.ok(!result.stderr.includes(PASSWORD), `the password is never printed:\n${result.stderr}`);
      return lines[0];
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it('a database that does not exist: createdb <name>', { skip: noPostgres }, async () => {
    const name = `staygate_missing_${randomBytes(4).toString('hex')}`;
    const target = new URL(TEST_DATABASE_URL);
    const line = await migrate(url((u) => (u.pathname = `/${name}`)));
    assert.equal(
      line,
      `staygate db migrate: database "${name}" does not exist on the PostgreSQL server at ${target.hostname}:${target.port || 5432}: ` +
        `create it (createdb -h ${target.hostname} -p ${target.port || 5432} -U ${target.username} ${name}), or name an existing one in DATABASE_URL`,
    );
  });

  it('a port where no server listens: check the host and port', async () => {
    const line = await migrate(url((u) => ((u.hostname = '127.0.0.1'), (u.port = '1'))));
    assert.match(
      line,
      /^staygate db migrate: no PostgreSQL server answered at 127\.0\.0\.1:1 for database "\w+" \(connect ECONNREFUSED 127\.0\.0\.1:1\): check the host and port in DATABASE_URL/,
    );
  });

  it('a role the server does not know: check the user', { skip: noPostgres }, async () => {
    const role = `nobody_${randomBytes(4).toString('hex')}`;
    const line = await migrate(url((u) => (u.username = role)));
    assert.match(
      line,
      new RegExp(
        `^staygate db migrate: the PostgreSQL server at [^ ]+ refused user "${role}" for database "\\w+" \\(role "${role}" does not exist\\): check the user in DATABASE_URL`,
      ),
    );
  });
  // A wrong password: the test server trusts every local connection (pg_hba.conf: trust), so it
  // never asks for one; pg-connect-error.test.ts checks the line for the server's 28P01 instead.
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
