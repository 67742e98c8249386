// Without nginx, `npm run cluster` and `npm run bench -- scale-out` say what is missing and how to
// install it, exit 1, and install or start nothing (issue 25: the first ran apt-get by itself, the
// second died on an unhandled `spawn nginx ENOENT` after minutes of other benchmarks). nginx is
// installed on this machine, so the real commands run with a PATH that lacks it: node's folder and
// the shell's, and ahead of them a folder whose `apt-get` and `sudo` only record that they were called.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { nginxMissing } from './nginx-check.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The npm of the PATH the tests run with, by its full path: the commands run without that PATH. */
function npmOnPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, 'npm'))) return path.join(dir, 'npm');
  }
  throw new Error('no npm on PATH');
}

let shims: string;
let called: string;
let env: NodeJS.ProcessEnv;
before(() => {
  shims = mkdtempSync(path.join(tmpdir(), 'staygate-no-nginx-'));
  called = path.join(shims, 'called');
  for (const name of ['apt-get', 'apt', 'sudo']) {
    writeFileSync(path.join(shims, name), `#!/bin/sh\necho "${name} $*" >> '${called}'\nexit 1\n`);
    chmodSync(path.join(shims, name), 0o755);
  }
  // /usr/bin and /bin for the shell npm runs scripts with (they hold no nginx: Debian puts it in
  // /usr/sbin); node's own folder first, so the commands run on the Node the tests run on.
  env = { ...process.env, PATH: [shims, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter) };
  assert.ok(nginxMissing('a test needs it', env) !== null, `no nginx on ${env.PATH}: the commands meet a machine without it`);
});
after(() => rmSync(shims, { recursive: true, force: true }));

function npm(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(npmOnPath(), args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const MESSAGE = /^nginx is missing: there is no nginx on PATH, and (.+)\. Install it \(Debian\/Ubuntu, as root: apt-get install nginx\)/m;

describe('without nginx', () => {
  it('npm run cluster says what is missing and how to install it, exits 1, installs and starts nothing', async () => {
    const res = await npm('run', '--silent', 'cluster');
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    assert.match(res.stderr, MESSAGE);
    assert.match(res.stderr, /npm run cluster puts it in front of the gateways/);
    assert.doesNotMatch(res.stdout + res.stderr, /starting the simulator|ENOENT|\n\s+at /);
    assert.ok(!existsSync(called), `nothing was installed: ${existsSync(called) ? readFileSync(called, 'utf8') : ''}`);
  });

  it('npm run bench -- scale-out says the same before any benchmark runs, exit 1', async () => {
    const res = await npm('run', '--silent', 'bench', '--', 'scale-out');
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    assert.match(res.stderr, MESSAGE);
    assert.match(res.stderr, /the scale-out benchmark measures gateways behind it/);
    assert.doesNotMatch(res.stdout + res.stderr, /## scale-out|ENOENT|\n\s+at /);
  });
});
