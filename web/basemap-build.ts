// The offline street basemap (web/README.md, "The offline basemap"), written by web/build.ts.
//
// Source: the real-world tiles of @mapbox/mvt-fixtures (OpenStreetMap data, ODbL 1.0, as the
// package's LICENSE-ODbL-1.0.md says): Mapbox Streets v7 tiles of Chicago, Bangkok, part of San
// Francisco and part of Bloemfontein, and OSM QA tiles (raw OSM tags) of Astana and Montevideo.
// It is the only street-level OSM extract of the default world's cities that the npm registry
// offers (docs/decisions.md 95). Each source tile is decoded, its features reduced to one small
// schema (water, waterway, park, road, road names, place names; no buildings, no OSM user data)
// and cut again into one pyramid of 512-px vector tiles (data zooms 10-13, drawn at map zooms
// 11-18) with geojson-vt and vt-pbf. Nothing here is committed: it is all made from the package.
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import type { Feature, FeatureCollection, Geometry } from 'geojson';

const require = createRequire(import.meta.url);

/** The areas with street detail: the package's real-world sets that are cities of the default world. */
export const STREET_REGIONS = [
  { set: 'chicago', name: 'Chicago' },
  { set: 'bangkok', name: 'Bangkok' },
  { set: 'osm-qa-astana', name: 'Astana' },
  { set: 'osm-qa-montevideo', name: 'Montevideo' },
  { set: 'sanfrancisco', name: 'San Francisco (Haight-Ashbury)' },
  { set: 'compressed', name: 'Bloemfontein (centre)' },
] as const;

/** Data zooms written; the page draws them one map zoom deeper (512-px tiles) and overzooms past the last. */
export const DATA_MIN_ZOOM = 10;
export const DATA_MAX_ZOOM = 13;

/**
 * The first data zoom of each kind of feature, as basemaps do: a city-wide view gets the main
 * roads and the water, the side streets come in as the map zooms in (and keep tiles small).
 */
const MIN_ZOOM: Record<string, Record<string, number>> = {
  water: { '': 10 },
  waterway: { river: 10, canal: 10, stream: 12 },
  park: { '': 12 },
  road: { major: 10, rail: 11, street: 12, minor: 13 },
  road_label: { major: 12, street: 13, minor: 99 },
  place: { city: 10, town: 10, suburb: 11, quarter: 11, neighbourhood: 12, village: 12, hamlet: 13 },
};

/** What web/dist/basemap.json holds: the page reads it to draw the tiles and to say where there are none. */
export interface StreetBasemap {
  /** `/assets/basemap/{version}/{z}/{x}/{y}.mvt`: the version changes with the content, so tiles are cached for good. */
  tiles: string;
  minZoom: number;
  maxDataZoom: number;
  attribution: string;
  regions: { name: string; bounds: [west: number, south: number, east: number, north: number] }[];
}

type Props = Record<string, string>;
type Layers = Record<'water' | 'waterway' | 'park' | 'road' | 'road_label' | 'place', Feature<Geometry, Props>[]>;

const MAJOR = new Set(['motorway', 'trunk', 'primary', 'secondary', 'motorway_link', 'trunk_link', 'primary_link', 'secondary_link']);
const STREET = new Set(['tertiary', 'tertiary_link', 'street', 'residential', 'unclassified', 'living_street', 'link']);
const MINOR = new Set(['street_limited', 'service', 'pedestrian', 'track', 'footway', 'path', 'cycleway', 'steps']);
const PARK = new Set(['park', 'grass', 'pitch', 'cemetery', 'wood', 'garden', 'forest', 'recreation_ground']);
const PLACE = new Set(['city', 'town', 'village', 'suburb', 'neighbourhood', 'quarter', 'hamlet']);

function roadKind(cls: unknown): string | null {
  if (typeof cls !== 'string') return null;
  if (MAJOR.has(cls)) return 'major';
  if (STREET.has(cls)) return 'street';
  if (MINOR.has(cls)) return 'minor';
  if (cls === 'major_rail' || cls === 'rail') return 'rail';
  return null;
}

const isLine = (g: Geometry) => g.type === 'LineString' || g.type === 'MultiLineString';
const isArea = (g: Geometry) => g.type === 'Polygon' || g.type === 'MultiPolygon';
const isPoint = (g: Geometry) => g.type === 'Point';

/** English name where the source has one (labels are drawn with the browser's fonts), else the local one. */
const nameOf = (p: Record<string, unknown>) => String(p.name_en ?? p['name:en'] ?? p.name ?? '').trim();

/** Mapbox Streets v7: one layer per theme, a `class` for the kind. */
function fromStreets(layer: string, p: Record<string, unknown>, g: Geometry, out: Layers): void {
  const f = (props: Props): Feature<Geometry, Props> => ({ type: 'Feature', geometry: g, properties: props });
  if (layer === 'water' && isArea(g)) out.water.push(f({}));
  else if (layer === 'waterway' && isLine(g)) out.waterway.push(f({ kind: String(p.class) }));
  else if (layer === 'landuse' && isArea(g) && PARK.has(String(p.class))) out.park.push(f({}));
  else if (layer === 'road' && isLine(g)) {
    const kind = roadKind(p.class);
    if (kind !== null) out.road.push(f({ kind }));
  } else if (layer === 'road_label' && isLine(g) && nameOf(p) !== '')
    out.road_label.push(f({ name: nameOf(p), kind: roadKind(p.class) ?? 'minor' }));
  else if (layer === 'place_label' && isPoint(g) && PLACE.has(String(p.type)) && nameOf(p) !== '')
    out.place.push(f({ name: nameOf(p), kind: String(p.type) }));
}

/** OSM QA tiles: every OSM object in one `osm` layer with its raw tags. */
function fromOsm(p: Record<string, unknown>, g: Geometry, out: Layers): void {
  const f = (props: Props): Feature<Geometry, Props> => ({ type: 'Feature', geometry: g, properties: props });
  const name = nameOf(p);
  if (isArea(g) && (p.natural === 'water' || p.waterway === 'riverbank' || p.landuse === 'reservoir' || p.landuse === 'basin'))
    out.water.push(f({}));
  else if (isLine(g) && typeof p.waterway === 'string' && ['river', 'canal', 'stream'].includes(p.waterway))
    out.waterway.push(f({ kind: p.waterway }));
  else if (isArea(g) && (PARK.has(String(p.leisure)) || PARK.has(String(p.landuse)) || p.natural === 'wood')) out.park.push(f({}));
  else if (isLine(g) && (p.highway !== undefined || p.railway === 'rail')) {
    const kind = roadKind(p.highway ?? p.railway);
    if (kind === null) return;
    out.road.push(f({ kind }));
    if (name !== '' && kind !== 'rail') out.road_label.push(f({ name, kind }));
  } else if (isPoint(g) && PLACE.has(String(p.place)) && name !== '') out.place.push(f({ name, kind: String(p.place) }));
}

const tileLng = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const tileLat = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
const lngTile = (lng: number, z: number) => Math.floor(((lng + 180) / 360) * 2 ** z);
const latTile = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};

export interface BuiltStreets {
  basemap: StreetBasemap;
  tiles: number;
  bytes: number;
  gzipBytes: number;
}

/**
 * Writes the tiles into `outDir/basemap/` (each with a .gz twin) and returns what basemap.json
 * holds, with the tiles' count and sizes for the build's report. Cutting them takes several
 * seconds of CPU, and every build (prestart, pretest, each browser test's own folder) needs the
 * same ones: they are cut once per version of the package and of this file, into
 * node_modules/.cache, and copied from there.
 */
export function buildStreetBasemap(outDir: string): BuiltStreets {
  const pkg = require.resolve('@mapbox/mvt-fixtures/package.json');
  const key = createHash('sha256')
    .update(readFileSync(pkg))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 16);
  const cache = path.join(path.dirname(pkg), '..', '..', '.cache', 'staygate-basemap', key);
  if (!existsSync(path.join(cache, 'built.json'))) {
    const temp = `${cache}.${process.pid}.tmp`;
    rmSync(temp, { recursive: true, force: true });
    const built = cutTiles(path.join(path.dirname(pkg), 'real-world'), path.join(temp, 'basemap'));
    writeFileSync(path.join(temp, 'built.json'), JSON.stringify(built));
    // Renamed into place whole: a build running beside this one never copies half a cache.
    try {
      renameSync(temp, cache);
    } catch {
      rmSync(temp, { recursive: true, force: true }); // another build got there first: same content
    }
    // Sets cut by an older version of this file or of the package are never read again.
    for (const old of readdirSync(path.dirname(cache)))
      if (old !== key && !old.endsWith('.tmp')) rmSync(path.join(path.dirname(cache), old), { recursive: true, force: true });
  }
  cpSync(path.join(cache, 'basemap'), path.join(outDir, 'basemap'), { recursive: true });
  return JSON.parse(readFileSync(path.join(cache, 'built.json'), 'utf8')) as BuiltStreets;
}

function cutTiles(root: string, dir: string): BuiltStreets {
  const layers: Layers = { water: [], waterway: [], park: [], road: [], road_label: [], place: [] };
  const regions: StreetBasemap['regions'] = [];
  const seenPlaces = new Set<string>();
  for (const region of STREET_REGIONS) {
    let [west, south, east, north] = [180, 90, -180, -90];
    for (const file of readdirSync(path.join(root, region.set)).sort()) {
      const m = /^(\d+)-(\d+)-(\d+)\.mvt(\.gz)?$/.exec(file);
      if (m === null) continue;
      const [z, x, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
      [west, east] = [Math.min(west, tileLng(x, z)), Math.max(east, tileLng(x + 1, z))];
      [south, north] = [Math.min(south, tileLat(y + 1, z)), Math.max(north, tileLat(y, z))];
      let data = readFileSync(path.join(root, region.set, file));
      if (m[4] !== undefined) data = gunzipSync(data);
      const tile = new VectorTile(new PbfReader(data));
      for (const [name, layer] of Object.entries(tile.layers)) {
        for (let i = 0; i < layer.length; i++) {
          const feature: VectorTileFeature = layer.feature(i);
          const g = feature.toGeoJSON(x, y, z).geometry;
          if (name === 'osm') fromOsm(feature.properties, g, layers);
          else fromStreets(name, feature.properties, g, layers);
        }
      }
    }
    regions.push({
      name: region.name,
      bounds: [west, south, east, north].map((n) => Math.round(n * 1e5) / 1e5) as [number, number, number, number],
    });
  }
  // A place is in every source tile whose buffer reaches it: one label each.
  layers.place = layers.place.filter((f) => {
    const [lng, lat] = (f.geometry as GeoJSON.Point).coordinates;
    const key = `${f.properties.name}|${lng.toFixed(3)}|${lat.toFixed(3)}`;
    if (seenPlaces.has(key)) return false;
    seenPlaces.add(key);
    return true;
  });

  const indexes = Object.entries(layers).map(
    ([name, features]) =>
      [
        name,
        new GeoJSONVT({ type: 'FeatureCollection', features } as FeatureCollection, {
          maxZoom: DATA_MAX_ZOOM,
          indexMaxZoom: 8,
          buffer: 64,
        }),
      ] as const,
  );
  const encoded: [string, Buffer][] = [];
  for (const region of regions) {
    const [west, south, east, north] = region.bounds;
    for (let z = DATA_MIN_ZOOM; z <= DATA_MAX_ZOOM; z++) {
      for (let x = lngTile(west, z); x <= lngTile(east - 1e-9, z); x++) {
        for (let y = latTile(north, z); y <= latTile(south + 1e-9, z); y++) {
          const parts: Record<string, ReturnType<GeoJSONVT['getTile']>> = {};
          let any = false;
          for (const [name, index] of indexes) {
            const features = (index.getTile(z, x, y)?.features ?? []).filter((f) => {
              const byKind = MIN_ZOOM[name];
              return (byKind[String(f.tags?.kind ?? '')] ?? byKind[''] ?? 99) <= z;
            });
            if (features.length > 0) {
              parts[name] = { features };
              any = true;
            }
          }
          if (any) encoded.push([`${z}-${x}-${y}.mvt`, Buffer.from(vtpbf.fromGeojsonVt(parts, { version: 2 }))]);
        }
      }
    }
  }
  const unique = new Map(encoded); // regions never share a tile today; if one did, the later wins
  const version = createHash('sha256');
  for (const [name, body] of [...unique].sort(([a], [b]) => a.localeCompare(b))) version.update(name).update(body);
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let gzipBytes = 0;
  for (const [name, body] of unique) {
    const gzip = gzipSync(body, { level: 9 });
    writeFileSync(path.join(dir, name), body);
    writeFileSync(path.join(dir, `${name}.gz`), gzip);
    bytes += body.length;
    gzipBytes += gzip.length;
  }
  const basemap: StreetBasemap = {
    tiles: `/assets/basemap/${version.digest('base64url').slice(0, 12)}/{z}/{x}/{y}.mvt`,
    minZoom: DATA_MIN_ZOOM + 1,
    maxDataZoom: DATA_MAX_ZOOM,
    attribution:
      'Streets: © <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a> contributors (ODbL)',
    regions,
  };
  return { basemap, tiles: unique.size, bytes, gzipBytes };
}
