// Runs the benchmarks named on the command line (all by default), each in its own process so
// that one's heap does not weigh on another's figures.
import { spawnSync } from 'node:child_process';
import { exitUnlessNginx } from '../ops/nginx-check.ts';

/**
 * A benchmark: its files, each run in a process of its own with extra environment, and what it needs
 * installed; `onlyWhenNamed`: not part of a bare `npm run bench` (it takes too long to run by default).
 */
const BENCHES: Record<string, { file: string; env?: NodeJS.ProcessEnv; needsNginx?: true; onlyWhenNamed?: true }[]> = {
  timings: [{ file: 'timings' }],
  'index-build': [{ file: 'index-build' }],
  'static-search': [{ file: 'static-search' }],
  'dated-search': [{ file: 'dated-search' }],
  clustering: [{ file: 'clustering' }],
  'reporting-export': [{ file: 'reporting-export' }],
  gazetteer: [{ file: 'gazetteer' }],
  'worst-request': [{ file: 'worst-request' }],
  refresh: [{ file: 'refresh' }],
  // Issue 22: the first start, warm start and searches at about 10M listings; many minutes, never in CI.
  'world-scale': [{ file: 'world-scale', onlyWhenNamed: true }],
  // Issue 14: the content side, the gateways side, and the CSV export with every store on PostgreSQL.
  'scale-out': [
    { file: 'scale-out' },
    { file: 'scale-out-gateways', needsNginx: true },
    { file: 'reporting-export', env: { BENCH_ENGINE: 'postgres' } },
  ],
};
const chosen = process.argv.slice(2).filter((a) => a in BENCHES);
const names = chosen.length > 0 ? chosen : Object.keys(BENCHES).filter((name) => !BENCHES[name].some((b) => b.onlyWhenNamed));
// Before any benchmark runs: not after minutes of the others, with a stack trace (issue 25).
const needingNginx = names.filter((name) => BENCHES[name].some((b) => b.needsNginx));
if (needingNginx.length > 0) exitUnlessNginx(`the ${needingNginx.join(', ')} benchmark measures gateways behind it`);
for (const name of names) {
  for (const { file, env } of BENCHES[name]) {
    console.log(
      `\n## ${name}${
        file === name
          ? ''
          : ` (${file}${
              env
                ? ` ${Object.entries(env)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(' ')}`
                : ''
            })`
      }`,
    );
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', new URL(`./${file}.ts`, import.meta.url).pathname], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    if (result.status !== 0) process.exitCode = 1;
  }
}
