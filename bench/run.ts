// Runs the benchmarks named on the command line (all by default), each in its own process so
// that one's heap does not weigh on another's figures.
import { spawnSync } from 'node:child_process';

const all = ['timings', 'index-build', 'static-search', 'dated-search', 'clustering', 'reporting-export', 'gazetteer', 'worst-request', 'refresh', 'scale-out'];
const chosen = process.argv.slice(2).filter((a) => all.includes(a));
for (const name of chosen.length > 0 ? chosen : all) {
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', new URL(`./${name}.ts`, import.meta.url).pathname], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
