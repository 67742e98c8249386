// Measures the map on a running gateway (web/README.md, "Figures"): time to first clusters on a
// cold load (a fresh browser profile each run: nothing cached), median of the runs, and the bytes
// each page transfers. Not a test: its numbers depend on the machine.
//   npx tsx web/measure.ts http://127.0.0.1:3000 [runs=5]
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const runs = Number(process.argv[3] ?? 5);
const MAP = `${base}/map?lat=48.8566&lng=2.3522&zoom=6`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(MAP);
  await page.waitForFunction(() => performance.getEntriesByName('first-clusters').length > 0, undefined, { timeout: 60_000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('first-clusters')[0].startTime);
  const bytes = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => r.name.includes('/assets/'))
      .map((r) => [r.name.split('/assets/')[1], r.transferSize, r.encodedBodySize] as const),
  );
  times.push(ms);
  console.log(`run ${i + 1}: first clusters after ${Math.round(ms)} ms; assets ${bytes.map(([n, , e]) => `${n} ${e} B`).join(', ')}`);
  await context.close();
}
times.sort((a, b) => a - b);
console.log(
  `median time to first clusters, cold: ${Math.round(times[Math.floor(times.length / 2)])} ms (runs: ${times.map(Math.round).join(', ')})`,
);
await browser.close();
