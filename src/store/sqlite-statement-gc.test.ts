// better-sqlite3 12 and earlier wrap statements in Node's raw ObjectWrap; built against Node
// 24.19+ headers, a statement the garbage collector finalizes outside JavaScript (a GC step run as
// a platform task) aborts the whole process: "Assertion failed: (env) != nullptr" in
// RemoveEnvironmentCleanupHook (nodejs/node#65446). The stores prepare statements as they go, so a
// busy gateway died of it (the SQLite contract suite did, on Node 24). better-sqlite3 13 is a
// Node-API addon and is not affected (docs/decisions.md 99). This runs the pattern in a real process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

// Statements dropped as soon as they ran, while enough garbage is made across turns of the event
// loop for V8 to finish its marking in a task of its own (where no JavaScript context is entered).
const program = `
import Database from 'better-sqlite3';
const db = new Database(':memory:');
db.exec('CREATE TABLE t (x)');
let garbage = [];
for (let round = 0; round < 200; round++) {
  for (let i = 0; i < 50; i++) db.prepare('INSERT INTO t VALUES (?)').run(i);
  garbage.push(Array.from({ length: 20000 }, (_, i) => ({ i, s: 'x' + i })));
  if (garbage.length > 20) garbage = [];
  await new Promise((resolve) => setImmediate(resolve));
}
db.close();
`;

it('statements the garbage collector finalizes between queries do not abort the process', () => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
  });
  assert.equal(run.signal, null, `the process died of ${run.signal}: ${run.stderr.slice(0, 400)}`);
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr.slice(0, 400)}`);
});
