import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain-JS ESLint plugin without type declarations
import { folderImportsRule, parseMayImport, readFolderRules } from './folder-imports.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

describe('parseMayImport', () => {
  it('reads the backticked entries of the "May import:" paragraph, and only of it', () => {
    const readme =
      '# x/\n\nUses `inventory/` a lot.\n\nMay import: `../store/open-sqlite.ts`, `search/` (types),\n`types.ts` and packages (`kdbush`).\n\n`geo/` is not in the paragraph.\n';
    assert.deepEqual(parseMayImport(readme), [
      { name: 'store/open-sqlite.ts', typesOnly: false },
      { name: 'search/', typesOnly: true },
      { name: 'types.ts', typesOnly: false },
      { name: 'kdbush', typesOnly: false },
    ]);
  });
  it('lists only in its first sentence: "Never `http/`" after it allows nothing; `(types: why)` is types-only', () => {
    assert.deepEqual(parseMayImport('May import: `a/` (types: the interface), `b.ts`. Never `http/`; its tests also `c/`.'), [
      { name: 'a/', typesOnly: true },
      { name: 'b.ts', typesOnly: false },
    ]);
    assert.deepEqual(parseMayImport('May import: `a/`; its contract suite also `t/`.'), [{ name: 'a/', typesOnly: false }]);
  });
  it('`nothing` allows nothing; a README without the paragraph has no rules', () => {
    assert.deepEqual(parseMayImport('May import: `nothing`.'), []);
    assert.equal(parseMayImport('# y/\n\nImports nothing.\n'), null);
  });
  it('every folder of src/ has its paragraph', () => {
    const missing = [...readFolderRules(path.resolve('src'))].filter(([, rules]) => rules === null).map(([folder]) => folder);
    assert.deepEqual(missing, []);
  });
});

describe('folder-imports rule', () => {
  const srcDir = mkdtempSync(path.join(tmpdir(), 'staygate-lint-'));
  for (const [folder, readme] of Object.entries({
    low: 'May import: `types.ts`.',
    mid: 'May import: `low/`, `high/contract.ts` (types).',
    high: 'May import: `mid/`, `low/`.',
    bare: 'No rules here.',
  })) {
    mkdirSync(path.join(srcDir, folder));
    writeFileSync(path.join(srcDir, folder, 'README.md'), `# ${folder}/\n\n${readme}\n`);
  }
  const file = (name: string) => path.join(srcDir, name);
  const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });
  tester.run('folder-imports', folderImportsRule, {
    valid: [
      { filename: file('mid/a.ts'), code: "import { x } from '../low/x.ts'; import { y } from './y.ts';", options: [{ srcDir }] },
      { filename: file('mid/a.ts'), code: "import type { C } from '../high/contract.ts';", options: [{ srcDir }] },
      { filename: file('mid/a.ts'), code: "import { type C } from '../high/contract.ts';", options: [{ srcDir }] },
      { filename: file('low/a.ts'), code: "import { T } from '../types.ts'; import fastify from 'fastify';", options: [{ srcDir }] },
      {
        filename: file('low/a.test.ts'),
        code: "import { t } from '../support/t.ts';",
        options: [{ srcDir, testsMayImport: ['support/'] }],
      },
      { filename: path.join(srcDir, '..', 'elsewhere.ts'), code: "import { x } from './src/high/x.ts';", options: [{ srcDir }] },
    ],
    invalid: [
      { filename: file('low/a.ts'), code: "import { x } from '../mid/x.ts';", options: [{ srcDir }], errors: [{ messageId: 'forbidden' }] },
      {
        filename: file('low/a.ts'),
        code: "export { x } from '../high/x.ts';",
        options: [{ srcDir }],
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: file('low/a.ts'),
        code: "const m = await import('../high/x.ts');",
        options: [{ srcDir }],
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: file('low/a.ts'),
        code: "import { d } from '../defaults.ts';",
        options: [{ srcDir }],
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: file('mid/a.ts'),
        code: "import { make } from '../high/contract.ts';",
        options: [{ srcDir }],
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: file('mid/a.ts'),
        code: "import { other } from '../high/other.ts';",
        options: [{ srcDir }],
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: file('low/a.ts'),
        code: "import { t } from '../support/t.ts';",
        options: [{ srcDir, testsMayImport: ['support/'] }],
        errors: [{ messageId: 'forbidden' }],
      },
      { filename: file('bare/a.ts'), code: "import { x } from '../low/x.ts';", options: [{ srcDir }], errors: [{ messageId: 'noRules' }] },
    ],
  });
});
