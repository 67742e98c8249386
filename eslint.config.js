import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import staygate from './lint/folder-imports.js';

/** An import of src/defaults.ts: a figure read where it should be handed down. */
const noDefaultsImport = {
  meta: {
    type: 'problem',
    docs: { description: 'product modules take their figures as parameters (Config.settings), never from defaults.ts' },
    schema: [],
    messages: {
      defaults:
        'do not import defaults.ts here: take the figures as a parameter (`settings: Pick<Settings, ...>`), handed down from Config.settings',
    },
  },
  create(context) {
    const check = (node, source) => {
      if (typeof source === 'string' && /(^|\/)defaults(\.ts)?$/.test(source)) context.report({ node, messageId: 'defaults' });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : null),
    };
  },
};

/** The product modules that still read defaults.ts, each on a branch of issue 23 that changes it. */
export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.bench/', '.scratch/', 'packages/client/dist/', 'web/dist/', '.screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON bodies whose shape is what they assert; typing each would restate the presenter.
    files: ['**/*.test.ts', 'src/test-support/**', 'web/test-support/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A failing assert.ok(x) without a message makes Node 20 derive one from the source file at the
    // call's position; under tsx that position is of the transpiled code, the parse never succeeds,
    // and Node's findColumn recurses until the stack overflows, one acorn parse per frame: minutes
    // of a blocked event loop (reporting-routes.test.ts hung 162 s, and its next test lost its
    // keep-alive connections). Every assert.ok says what it checks.
    files: ['**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='assert'][callee.property.name='ok'][arguments.length<2]",
          message: 'give assert.ok a message: without one, Node reads the (TypeScript) source to make one, which can take minutes',
        },
        {
          selector: "CallExpression[callee.name='assert'][arguments.length<2]",
          message: 'give assert() a message: without one, Node reads the (TypeScript) source to make one, which can take minutes',
        },
      ],
    },
  },
  {
    // Layering: nothing below http/ may import Fastify. The composition (app.ts, compose/) builds the
    // HTTP app, and config.ts checks addresses with http/access/address-allow-list.ts.
    files: ['src/**/*.ts'],
    ignores: ['src/http/**', 'src/app.ts', 'src/server.ts', 'src/cli/**', 'src/compose/**', 'src/config.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['fastify', '@fastify/*', '**/http/**'] }],
    },
  },
  {
    // The simulator is its own package (packages/sim/README.md): it stands in for the upstream
    // suppliers, so it never imports the gateway (it leaves its folder only for packages), nor Fastify.
    files: ['packages/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['../../*', 'staygate', 'staygate/*', 'fastify', '@fastify/*'] }],
    },
  },
  {
    // The gateway, its tests and benchmarks reach the simulator through its package entry points
    // only (@staygate/sim, @staygate/sim/main; docs/decisions.md 63), never its files. A separate rule
    // name from no-restricted-imports, so that the layering rules above and below still apply.
    files: ['src/**/*.ts', 'bench/**/*.ts', 'web/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: ['**/packages/sim/**', '@staygate/sim/src/*'] }],
    },
  },
  {
    // Inside the gateway only the process that starts the simulator (server.ts for the embedded
    // default, `staygate sim`) and the test support and tests import it: the gateway itself talks to
    // suppliers over HTTP only.
    files: ['src/**/*.ts'],
    ignores: ['src/server.ts', 'src/cli/sim-command.ts', 'src/test-support/**', 'src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: ['**/packages/sim/**', '@staygate/sim', '@staygate/sim/*'] }],
    },
  },
  {
    // The CLI is an entry point beside server.ts: `staygate mcp` serves the MCP tools of http/mcp
    // over stdio. It still never imports Fastify itself.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['fastify', '@fastify/*'] }],
    },
  },
  {
    // Layering: each src/ folder imports only what its README's "May import:" paragraph lists
    // (lint/folder-imports.js). Tests may also use the test support.
    files: ['src/**/*.ts'],
    plugins: { staygate },
    rules: {
      'staygate/folder-imports': [
        'error',
        {
          srcDir: 'src',
          testsMayImport: ['test-support/', 'app.ts', 'cli/', 'store/', 'search/', 'compose/', 'defaults.ts'],
        },
      ],
    },
  },
  {
    // Settings are resolved once (issue 23): config.ts overlays defaults.ts with the environment and
    // every module is handed the figures it needs (Config.settings). So no product module reads
    // defaults.ts: only config.ts (the values) and types.ts (the Settings type); tests, the test
    // support and the benchmarks may.
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts', 'src/types.ts', 'src/**/*.test.ts', 'src/test-support/**'],
    plugins: { settings: { rules: { 'no-defaults-import': noDefaultsImport } } },
    rules: { 'settings/no-defaults-import': 'error' },
  },
);
