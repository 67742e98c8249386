// The map's offline basemap (web/README.md, "The offline basemap"), drawn when the operator set no
// STAYGATE_MAP_TILES_URL: Natural Earth outlines everywhere (world-atlas, on a Leaflet canvas), and
// at city zoom the streets, water, parks and names of the cities the build has OpenStreetMap tiles
// for (web/basemap-build.ts), drawn by protomaps-leaflet on canvas tiles (no GPU, no other host).
// Where the view has no street detail, a note on the map says so and names STAYGATE_MAP_TILES_URL.
import * as L from 'leaflet';
import {
  CenteredTextSymbolizer,
  LineLabelSymbolizer,
  LineSymbolizer,
  PolygonSymbolizer,
  leafletLayer,
  type Feature,
} from 'protomaps-leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { getJson } from '../shared/api.ts';
import './basemap.css';

/** From this zoom on the finer outlines are drawn (1:50m; 1:110m below). */
const FINE_ZOOM = 5;

/** web/basemap-build.ts StreetBasemap (the page imports nothing from the build). */
interface StreetBasemap {
  tiles: string;
  minZoom: number;
  maxDataZoom: number;
  attribution: string;
  regions: { name: string; bounds: [number, number, number, number] }[];
}

/** The colours the browser test looks for on the canvas (web/map.browser.test.ts). */
export const STREET_COLOURS = { water: '#9ec5e0', road: '#ffffff', major: '#f6cf8d', label: '#33404c' } as const;

const kind = (f: Feature) => String(f.props.kind ?? '');

function streetLayer(basemap: StreetBasemap, bounds: L.LatLngBounds) {
  const c = STREET_COLOURS;
  return leafletLayer({
    url: basemap.tiles,
    maxDataZoom: basemap.maxDataZoom,
    minZoom: basemap.minZoom,
    // Tiles are asked for inside the area only: elsewhere the gateway has none.
    bounds,
    attribution: basemap.attribution,
    pane: 'streets',
    paintRules: [
      { dataLayer: 'park', symbolizer: new PolygonSymbolizer({ fill: '#d7e8c6' }) },
      { dataLayer: 'water', symbolizer: new PolygonSymbolizer({ fill: c.water }) },
      { dataLayer: 'waterway', symbolizer: new LineSymbolizer({ color: c.water, width: (z) => (z >= 14 ? 3 : 1.5) }) },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'rail',
        symbolizer: new LineSymbolizer({ color: '#b3b7bc', width: 1, dash: [3, 3] }),
      },
      // A casing under each road, the road over it: streets read on a pale ground.
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'minor',
        symbolizer: new LineSymbolizer({ color: '#d9d3c7', width: (z) => (z >= 16 ? 4 : 2) }),
      },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'minor',
        symbolizer: new LineSymbolizer({ color: c.road, width: (z) => (z >= 16 ? 2.5 : 1) }),
      },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'street',
        symbolizer: new LineSymbolizer({ color: '#cfc8ba', width: (z) => (z >= 15 ? 6 : 3) }),
      },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'street',
        symbolizer: new LineSymbolizer({ color: c.road, width: (z) => (z >= 15 ? 4.5 : 2) }),
      },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'major',
        symbolizer: new LineSymbolizer({ color: '#d9a960', width: (z) => (z >= 14 ? 7 : 4) }),
      },
      {
        dataLayer: 'road',
        filter: (_z, f) => kind(f) === 'major',
        symbolizer: new LineSymbolizer({ color: c.major, width: (z) => (z >= 14 ? 5 : 2.5) }),
      },
    ],
    labelRules: [
      {
        dataLayer: 'place',
        symbolizer: new CenteredTextSymbolizer({
          labelProps: ['name'],
          fill: c.label,
          stroke: '#ffffff',
          width: 3,
          font: (_z, f) =>
            f !== undefined && ['city', 'town', 'suburb'].includes(kind(f)) ? '600 14px sans-serif' : '500 12px sans-serif',
        }),
      },
      {
        dataLayer: 'road_label',
        symbolizer: new LineLabelSymbolizer({
          labelProps: ['name'],
          fill: c.label,
          stroke: '#ffffff',
          width: 3,
          font: '500 11px sans-serif',
        }),
      },
    ],
  });
}

/**
 * Draws the offline basemap on `map` (panes 'basemap' and 'streets' must exist). `onError` tells
 * the page that the outlines could not be had.
 */
export function addOfflineBasemap(map: L.Map, onError: (message: string) => void): void {
  map.attributionControl.addAttribution('Outlines: Natural Earth');
  const renderer = L.canvas({ pane: 'basemap', padding: 0.3 });
  const style: L.PathOptions = { color: '#a3aeb7', weight: 0.8, fillColor: '#f3f0e8', fillOpacity: 1 };
  const layers = new Map<string, Promise<L.GeoJSON>>();
  const outlines = (file: string) => {
    let layer = layers.get(file);
    if (layer === undefined) {
      layer = getJson<Topology>(`/assets/${file}`).then((topo) =>
        L.geoJSON(
          feature(topo, topo.objects.countries as GeometryCollection),
          { style, interactive: false, renderer } as L.GeoJSONOptions, // each path gets the options: renderer too
        ),
      );
      layers.set(file, layer);
    }
    return layer;
  };
  let shown: L.GeoJSON | null = null;
  const drawOutlines = async () => {
    const layer = await outlines(map.getZoom() >= FINE_ZOOM ? 'countries-50m.json' : 'countries-110m.json');
    if (layer === shown) return;
    layer.addTo(map);
    shown?.remove();
    shown = layer;
  };
  map.on('zoomend', () => void drawOutlines().catch(() => onError('The basemap could not be loaded.')));
  void drawOutlines().catch(() => onError('The basemap could not be loaded.'));

  // Street detail, one layer per covered area; the note where the view has none.
  const note = new L.Control({ position: 'bottomleft' });
  note.onAdd = () => {
    const el = L.DomUtil.create('div', 'basemap-note');
    el.setAttribute('role', 'note');
    el.hidden = true;
    return el;
  };
  note.addTo(map);
  const noteEl = note.getContainer()!;
  getJson<StreetBasemap>('/assets/basemap.json').then(
    (basemap) => {
      const areas = basemap.regions.map((r) => {
        const bounds = L.latLngBounds([r.bounds[1], r.bounds[0]], [r.bounds[3], r.bounds[2]]);
        const layer = streetLayer(basemap, bounds);
        // For tests and measuring: how many street layers finished drawing their tiles.
        layer.on('load', () => (document.body.dataset.streetsLoaded = String(Number(document.body.dataset.streetsLoaded ?? 0) + 1)));
        layer.addTo(map);
        return { name: r.name, bounds };
      });
      const places = areas.map((a) => a.name).join(', ');
      const update = () => {
        const view = map.getBounds();
        const detailed = areas.some((a) => a.bounds.intersects(view));
        noteEl.hidden = map.getZoom() < basemap.minZoom || detailed;
        noteEl.textContent =
          `This offline map has no streets here (it has them for ${places}). ` +
          'The site operator can set STAYGATE_MAP_TILES_URL to a tile server for a full map.';
      };
      map.on('moveend', update);
      update();
    },
    () => onError('The street map could not be loaded.'),
  );
}
