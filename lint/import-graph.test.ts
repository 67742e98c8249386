// The import graph's rules (.dependency-cruiser.mjs; `npm run lint` and `npm test` run them over the
// tree): each is shown to fail on a small tree that breaks it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The violations `depcruise` finds under `roots` of `cwd`, run as `npm test` runs it. */
function violations(cwd: string, roots: string[]): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    const args = [...roots, '--config', path.join(ROOT, '.dependency-cruiser.mjs'), '--output-type', 'json'];
    execFile(DEPCRUISE, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      try {
        resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
      } catch {
        reject(error ?? new Error(`depcruise printed no JSON: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

describe('.dependency-cruiser.mjs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-graph-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: 'nodenext' } }));
  write('src/a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
  write('src/b.ts', "import type { A } from './types-of-a.ts';\nexport const b: A = 1;\n");
  write('src/types-of-a.ts', "import { a } from './a.ts';\nexport type A = typeof a;\n");
  write('src/product.ts', "import { helper } from './test-support/helper.ts';\nexport const p = helper;\n");
  write('src/test-support/helper.ts', 'export const helper = 1;\n');
  write(
    'src/product.test.ts',
    "import { helper } from './test-support/helper.ts';\nimport { p } from './product.ts';\nexport const t = [helper, p];\n",
  );

  it('refuses a circle, through a type-only import too', async () => {
    const found = await violations(dir, ['src']);
    const circles = found.filter((v) => v.rule.name === 'no-circular');
    assert.ok(circles.length > 0, JSON.stringify(found));
  });
  it('refuses production code importing test code, and lets tests import it', async () => {
    const found = (await violations(dir, ['src'])).filter((v) => v.rule.name === 'no-test-code-in-production');
    assert.deepEqual(
      found.map((v) => `${v.from} -> ${v.to}`),
      ['src/product.ts -> src/test-support/helper.ts'],
    );
  });
});
