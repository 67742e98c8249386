// A gateway's output in LOG_FORMAT=json is for a log pipeline (issue 25, item 10): every line it
// writes, on stdout and on stderr, is one JSON object, also after answers whose response schema
// the serialiser compiles with Ajv (a v2 dated search with a supplier failing: its
// `meta.unavailableSuppliers`); and health probes and scrapes write no info line at all. The real
// server (src/server.ts) with its real simulator child on a tiny world.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSchema, skipWithoutPostgres } from './test-support/pg.ts';
import { freePort } from './test-support/free-port.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The real server with its simulator on a tiny world in LOG_FORMAT=json, its output collected. */
async function startGateway(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-json-log-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      STAYGATE_DATA_DIR: dataDir,
      STAYGATE_SIM_STAYS: '1500',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    for (const watch of watchers) watch();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const seen = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match !== null) resolve(match);
      };
      watchers.push(check);
      check();
      void exited.then((code) => reject(new Error(`the gateway exited (${code}) before ${pattern}: ${stdout}${stderr}`)));
    });
  return {
    child,
    port,
    exited,
    seen,
    lines: () => [...stdout.split('\n'), ...stderr.split('\n')].filter((line) => line !== ''),
    cleanUp() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The lines that are not one JSON object. */
function notJson(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value !== 'object' || value === null || Array.isArray(value);
    } catch {
      return true;
    }
  });
}

test('LOG_FORMAT=json: every line on stdout and stderr is a JSON object; probes write no info line', { timeout: 180_000 }, async () => {
  const { child, port, exited, seen, lines: output, cleanUp } = await startGateway();
  try {
    const [, controlUrl] = await seen(/fault control at (http:\/\/[^"/]+)\/faults/);
    await seen(/"msg":"ready in/);
    const base = `http://127.0.0.1:${port}`;
    // A failing supplier: dated answers carry meta.unavailableSuppliers, whose reason is an anyOf.
    assert.equal((await fetch(`${controlUrl}/faults?supplier_b=error`, { method: 'PUT' })).status, 200);
    const checkin = isoDay(Date.now() + 30 * 86_400_000);
    const checkout = isoDay(Date.now() + 33 * 86_400_000);
    for (const version of ['v2', 'v3']) {
      const res = await fetch(`${base}/${version}/accommodations?address=Paris&checkin=${checkin}&checkout=${checkout}`);
      assert.equal(res.status, 200, `${version} dated search`);
      const body = (await res.json()) as { meta: { unavailableSuppliers: { supplier: string }[] } };
      assert.ok(
        body.meta.unavailableSuppliers.some((u) => u.supplier === 'supplier_b'),
        `${version}: supplier_b is reported unavailable, so the anyOf was serialised`,
      );
    }
    const probeIds: string[] = [];
    for (const url of ['/health', '/metrics', '/health']) {
      const res = await fetch(`${base}${url}`);
      assert.equal(res.status, 200, url);
      await res.arrayBuffer();
      probeIds.push(res.headers.get('x-request-id')!);
    }
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'the gateway stops cleanly');

    const lines = output();
    assert.ok(lines.length > 10, `the gateway logged (${lines.length} lines)`);
    assert.deepEqual(notJson(lines), [], 'every line is one JSON object');
    const probeLines = lines.map((line) => JSON.parse(line) as { reqId?: string }).filter((l) => probeIds.includes(l.reqId ?? ''));
    assert.deepEqual(probeLines, [], 'no probe or scrape line at info');
  } finally {
    cleanUp();
  }
});

test('LOG_FORMAT=json on PostgreSQL: the migrations the start applied are said in a JSON line too', { timeout: 180_000 }, async (t) => {
  const skip = await skipWithoutPostgres();
  if (skip) return t.skip(skip);
  const schema = await createTestSchema();
  const { exited, seen, lines, child, cleanUp } = await startGateway({ DATABASE_URL: schema.url });
  try {
    await seen(/"msg":"PostgreSQL migrations applied: 0001/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'the gateway stops cleanly during its first start');
    assert.deepEqual(notJson(lines()), [], 'every line is one JSON object');
  } finally {
    cleanUp();
    await schema.drop();
  }
});
