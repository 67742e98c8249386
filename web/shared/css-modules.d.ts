// Stylesheets are imported for their side effect only: esbuild (web/build.ts) bundles them into
// the page's CSS file. TypeScript 6 checks side-effect imports, so it is told they exist.
declare module '*.css';
