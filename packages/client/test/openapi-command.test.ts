// `staygate openapi`, as `npm run generate` runs it: the real command prints the document a running
// gateway serves at GET /openapi.json, every route included, without a gateway started; its output
// is packages/client/openapi.json byte for byte, so generating again changes nothing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../../src/test-support/start-test-app.ts';

const BIN = new URL('../../../bin/staygate.js', import.meta.url).pathname;

/** Runs the real command; resolves with its exit code and output. */
function staygate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

describe('staygate openapi', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ stays: 200 });
  });
  after(async () => {
    await t.close();
  });

  it('prints what a running gateway serves at /openapi.json, every route in it, and exits 0', async () => {
    const run = await staygate(['openapi']);
    assert.equal(run.code, 0, run.stderr);
    const served = (await t.app.http.inject('/openapi.json')).json() as { paths: Record<string, unknown> };
    const printed = JSON.parse(run.stdout) as { paths: Record<string, unknown> };
    assert.deepEqual(printed, served);
    // The surfaces registered only with their services (tracking, reporting, pages, metrics, map search) are in it.
    for (const path of [
      '/go/{id}',
      '/v1/reporting/transactions',
      '/v1/reporting/summary',
      '/metrics',
      '/map',
      '/hub',
      '/map/v3/accommodations',
    ])
      assert.ok(Object.hasOwn(printed.paths, path), `${path} is documented`);
    assert.equal(
      run.stdout,
      readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
      'packages/client/openapi.json is what the command prints',
    );
  });

  it('takes no arguments: anything else is wrong usage, exit 2', async () => {
    const run = await staygate(['openapi', 'extra']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /openapi takes no arguments/);
    assert.equal(run.stdout, '');
  });
});
