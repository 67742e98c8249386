import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.bench/', '.scratch/', 'web/dist/', '.screenshots/'] },
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
    // Layering: nothing below http/ may import Fastify.
    files: ['src/**/*.ts'],
    ignores: ['src/http/**', 'src/app.ts', 'src/server.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['fastify', '@fastify/*', '**/http/**'] }],
    },
  },
);
