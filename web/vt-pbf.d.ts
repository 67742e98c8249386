// vt-pbf ships no types: the one function web/basemap-build.ts calls (geojson-vt tiles in, MVT bytes out).
declare module 'vt-pbf' {
  import type { LegacyTile } from 'geojson-vt';
  const vtpbf: { fromGeojsonVt(layers: Record<string, LegacyTile | null>, options?: { version?: number; extent?: number }): Uint8Array };
  export default vtpbf;
}
