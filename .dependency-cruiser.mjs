// The shape of the import graph (issue 23), checked by `npm test` (depcruise): no circles, type-only
// imports included, and production code never importing test code. The layering of src/'s folders
// is the folder-imports ESLint rule's (lint/), read from each folder's README.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file must not reach itself through its imports (type-only ones too): a circle hides which room stands above the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-production',
      severity: 'error',
      comment: 'Production code never imports test code (*.test.ts, test-support/): tests sit above the product.',
      // write-openapi.ts is the one left until `staygate openapi` replaces it (issue 23).
      from: { pathNot: ['\\.test\\.ts$', '(^|/)test-support/', '^packages/client/scripts/write-openapi\\.ts$'] },
      to: { path: ['\\.test\\.ts$', '(^|/)test-support/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '^web/dist/', '^packages/client/dist/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
