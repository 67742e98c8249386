// The browser rig fails at once, saying what is missing, on a machine without Chromium: it used to
// start a gateway first and leave it running when the launch failed, so the test process hung.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { onThisMachine, startBrowserRig } from './browser.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MISSING = path.join(ROOT, '.scratch', 'no-such-chromium');

describe('the browser rig without Chromium', () => {
  it('refuses before starting anything, naming the path and what to do', async () => {
    await assert.rejects(startBrowserRig({ executablePath: MISSING }), (error: Error) => {
      assert.match(error.message, /Chromium is missing at .*no-such-chromium/);
      assert.match(error.message, /apt-get install -y chromium/);
      assert.match(error.message, /STAYGATE_CHROMIUM/);
      return true;
    });
  });

  // The real map test, as `npm test` runs it, on a machine whose Chromium is elsewhere: it ends
  // (the test's own timeout is the hang it used to be) with a failure carrying the reason.
  it('ends the map browser test with the reason instead of hanging', { timeout: 120_000 }, async (t) => {
    const env: NodeJS.ProcessEnv = { ...process.env, STAYGATE_CHROMIUM: MISSING };
    delete env.NODE_TEST_CONTEXT; // a test runner of its own, not a child of this one
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', 'web/map.browser.test.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => child.kill()); // should it hang after all, it is not left behind
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 1, output);
    assert.match(output, /Chromium is missing at .*no-such-chromium/, 'the reason is in the output');
  });
});

describe('what the rig lets a page ask for', () => {
  it('lets every loopback host through (127.0.0.0/8, ::1, localhost) and nothing else', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.255.0.9', 'localhost', '[::1]'])
      assert.equal(onThisMachine(host), true, `${host} is this machine`);
    for (const host of ['10.0.0.1', '128.0.0.1', '127.0.0.1.example.com', 'example.com', 'localhost.example', '[::2]'])
      assert.equal(onThisMachine(host), false, `${host} is off the machine`);
  });
});
