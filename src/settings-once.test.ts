// Settings are resolved once (issue 23): config.ts alone reads defaults.ts for values, and the
// lint rule of eslint.config.js refuses an import of it in any other product module. Linted here
// as eslint.config.js configures it, so the test fails when the rule or where it applies breaks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

/** The no-defaults-import messages of `code` linted as the file `filePath`. */
async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'settings/no-defaults-import').map((m) => m.message);
}

describe('no product module imports defaults.ts', () => {
  it('a module of src/ importing it, statically, as a re-export or dynamically, is refused', async () => {
    for (const code of [
      "import { defaults } from '../defaults.ts';\nexport const n = defaults.pageSize;\n",
      "export { defaults } from '../defaults.ts';\n",
      "export const load = () => import('../defaults.ts');\n",
    ])
      assert.equal((await refusals('src/search/any-module.ts', code)).length, 1, code);
    assert.equal(
      (await refusals('src/app-part.ts', "import { defaults } from './defaults.ts';\nvoid defaults;\n")).length,
      1,
      'a top-level module too',
    );
  });

  it('config.ts (the values), types.ts (the type), tests and the test support may', async () => {
    const code = "import { defaults } from './defaults.ts';\nvoid defaults;\n";
    assert.deepEqual(await refusals('src/config.ts', code), []);
    assert.deepEqual(
      await refusals('src/types.ts', "import type { defaults } from './defaults.ts';\nexport type S = typeof defaults;\n"),
      [],
    );
    assert.deepEqual(await refusals('src/search/any-module.test.ts', "import { defaults } from '../defaults.ts';\nvoid defaults;\n"), []);
    assert.deepEqual(await refusals('src/test-support/any-helper.ts', "import { defaults } from '../defaults.ts';\nvoid defaults;\n"), []);
  });

  it('a module taking its figures as parameters passes', async () => {
    const code =
      "import type { Settings } from '../types.ts';\nexport const size = (settings: Pick<Settings, 'pageSize'>) => settings.pageSize;\n";
    assert.deepEqual(await refusals('src/search/any-module.ts', code), []);
  });
});
