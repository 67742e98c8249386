// The embeddable stays map (web/README.md, "The map"). It searches the viewport with the v3 search
// (cluster=auto) at the map's own path, draws H3 clusters as bubbles with counts and, at street
// level, each stay as a marker with its price; the side list holds the best stays in view. Every
// booking link is the stay's tracked /go deeplink, carrying the page's aid and campaign.
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { ApiFailure, escapeHtml, formatCount, formatMoney, formatShort, getJson } from '../shared/api.ts';
import { addOfflineBasemap } from './basemap.ts';
import './map.css';

interface Settings {
  view: { lat: number; lng: number; zoom: number; label?: string } | null;
  message: string | null;
  searchPath: string;
  tiles: { url: string; attribution: string } | null;
  /** A dated search prices at most this many best-ranked stays of the view (defaults.pricedCandidates). */
  pricedCandidates: number;
}

interface SupplierEntry {
  link: string;
  media: { thumbnail: string; logoSquare: string };
  price?: { total: number } | null;
}

interface Stay {
  id: string;
  url: string;
  name: string;
  type: string;
  location: { address: string; coordinates: { lat: number; lng: number } };
  /** value null: no supplier of the stay has a guest rating (docs/decisions.md 135). */
  averageRatings: { value: number | null; hotelStars: number | null; count: number };
  suppliers: Record<string, SupplierEntry>;
}

interface Cluster {
  id: string;
  count: number;
  location: { coordinates: { lat: number; lng: number }; bounds: { ne: { lat: number; lng: number }; sw: { lat: number; lng: number } } };
}

interface SearchBody {
  meta: { total: number; currency: string; nights?: number };
  results: Stay[];
  clusters?: Cluster[];
}

/** The search parameters the page passes through from its own URL (the search's names). */
const PASSED = ['aid', 'campaign', 'checkin', 'checkout', 'adults', 'currency', 'type', 'provider', 'token'] as const;
/** Wait this long after the map settles before searching: a drag or a wheel spin is one search. */
const DEBOUNCE_MS = 250;
/** Stays drawn as markers, and listed. */
const MARKERS = 50;
const LISTED = 20;
/** Labels drawn at most at once. */
const MAX_LABELS = 80;

const settings = JSON.parse(document.getElementById('config')!.textContent!) as Settings;
const pageParams = new URLSearchParams(location.search);
const statusEl = document.getElementById('status')!;
const listEl = document.getElementById('list')!;
const bannerEl = document.getElementById('banner')!;

function banner(text: string | null): void {
  bannerEl.hidden = text === null;
  bannerEl.textContent = text ?? '';
}

const start = settings.view ?? { lat: 48.5, lng: 9, zoom: 4 };
const map = L.map('map', { worldCopyJump: true, minZoom: 2, maxZoom: 18, zoomSnap: 1 });
map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener">Leaflet</a>');
map.createPane('basemap').style.zIndex = '150';
const labelPane = map.createPane('labels');
labelPane.style.zIndex = '350';
labelPane.style.pointerEvents = 'none';

// --- the basemap ---------------------------------------------------------------------------------

if (settings.tiles !== null) {
  L.tileLayer(settings.tiles.url, { attribution: settings.tiles.attribution, maxZoom: 19, pane: 'basemap' }).addTo(map);
} else {
  // Offline: Natural Earth outlines, and streets where the build has them (basemap.ts).
  map.createPane('streets').style.zIndex = '160';
  addOfflineBasemap(map, banner);
}

// City labels from the gazetteer, the most populous first: fewer and bigger as the map zooms out.
let cities: [string, number, number, number][] = [];
const labelLayer = L.layerGroup().addTo(map);
function drawLabels(): void {
  labelLayer.clearLayers();
  const z = map.getZoom();
  const minPopulation = z <= 3 ? 5_000_000 : z <= 4 ? 2_000_000 : z <= 5 ? 1_000_000 : z <= 6 ? 500_000 : z <= 8 ? 200_000 : 100_000;
  const bounds = map.getBounds();
  let drawn = 0;
  for (const [name, lat, lng, population] of cities) {
    if (population < minPopulation || drawn >= MAX_LABELS) break;
    if (!bounds.contains([lat, lng])) continue;
    labelLayer.addLayer(
      L.marker([lat, lng], {
        pane: 'labels',
        interactive: false,
        keyboard: false,
        icon: L.divIcon({ className: 'city', html: `<span>${escapeHtml(name)}</span>`, iconSize: [0, 0] }),
      }),
    );
    drawn++;
  }
}
getJson<typeof cities>('/assets/cities.json').then(
  (list) => {
    cities = list;
    drawLabels();
  },
  () => undefined,
);

// --- searching -----------------------------------------------------------------------------------

const clusterLayer = L.layerGroup().addTo(map);
const stayLayer = L.layerGroup().addTo(map);
let controller: AbortController | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let searches = 0;

/**
 * Where this page is shown, for the map token's origin check (docs/decisions.md 91): `self` when
 * opened directly; framed, the origin of the page framing it (ancestorOrigins where the browser has
 * it, else the referrer, which the default Referrer-Policy gives as at least the origin).
 */
function embedder(): string {
  if (window.top === window) return 'self';
  const ancestors = location.ancestorOrigins;
  if (ancestors !== undefined && ancestors.length > 0) return ancestors[0];
  try {
    return new URL(document.referrer).origin;
  } catch {
    return 'unknown';
  }
}
const SEARCH_HEADERS = { 'X-Map-Embedder': embedder() };

const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/** The viewport as the search's box (latitudes clamped, longitudes wrapped; a box across the antimeridian is fine). */
function viewportParams(): URLSearchParams {
  const b = map.getBounds();
  const q = new URLSearchParams();
  for (const name of PASSED) {
    const value = pageParams.get(name);
    if (value !== null && value !== '') q.set(name, value);
  }
  let west = b.getWest();
  let east = b.getEast();
  if (east - west >= 360) {
    west = -180;
    east = 180;
  } else {
    west = wrapLng(west);
    east = wrapLng(east);
    if (east === -180) east = 180;
  }
  const round = (n: number) => String(Math.round(n * 1e5) / 1e5);
  q.set('nelat', round(Math.min(85, b.getNorth())));
  q.set('nelng', round(east));
  q.set('swlat', round(Math.max(-85, b.getSouth())));
  q.set('swlng', round(west));
  return q;
}

/** The lowest known price of a stay for the page's dates, or null (static search, or nobody could price it). */
function bestPrice(stay: Stay): number | null {
  let best: number | null = null;
  for (const entry of Object.values(stay.suppliers)) {
    const total = entry.price?.total;
    if (typeof total === 'number' && (best === null || total < best)) best = total;
  }
  return best;
}

function thumbnailOf(stay: Stay): string | null {
  for (const entry of Object.values(stay.suppliers)) if (entry.media.thumbnail) return entry.media.thumbnail;
  return null;
}

function priceLabel(stay: Stay, meta: SearchBody['meta']): string | null {
  const price = bestPrice(stay);
  return price === null ? null : formatMoney(price, meta.currency);
}

/** What a price is: the supplier's total for the stay's nights (the same on the pins, the list and the popups). */
const nightsText = (meta: SearchBody['meta']) => (meta.nights ? `for ${meta.nights} night${meta.nights === 1 ? '' : 's'}` : '');

function drawClusters(clusters: readonly Cluster[]): void {
  clusterLayer.clearLayers();
  for (const cluster of clusters) {
    const { lat, lng } = cluster.location.coordinates;
    const size = Math.round(30 + 9 * Math.log10(cluster.count));
    const marker = L.marker([lat, lng], {
      title: `${formatCount(cluster.count)} stays: zoom in`,
      zIndexOffset: 1_000, // a bubble stays above the stays around it: it is what a click zooms into
      riseOnHover: true,
      icon: L.divIcon({
        className: 'cluster',
        html: `<span style="width:${size}px;height:${size}px;line-height:${size}px">${formatShort(cluster.count)}</span>`,
        iconSize: [0, 0],
      }),
    });
    // A click zooms into the cell: its bounds, at least one level deeper.
    marker.on('click', () => {
      const { ne, sw } = cluster.location.bounds;
      const cell = L.latLngBounds([sw.lat, sw.lng], [ne.lat, ne.lng]);
      const zoom = Math.min(map.getMaxZoom(), Math.max(map.getZoom() + 1, map.getBoundsZoom(cell)));
      map.setView(cell.getCenter(), zoom);
    });
    clusterLayer.addLayer(marker);
  }
}

/** The stay's guest rating as the map writes it: "★ 8.4", or "no rating" when it has none (never 0 or NaN). */
function ratingText(stay: Stay): string {
  const { value } = stay.averageRatings;
  return value === null ? 'no rating' : `★ ${value.toFixed(1)}`;
}

function popupHtml(stay: Stay, meta: SearchBody['meta']): string {
  const price = priceLabel(stay, meta);
  return (
    `<div class="popup"><strong>${escapeHtml(stay.name)}</strong><br>${escapeHtml(stay.type)} · ${ratingText(stay)}` +
    `${price === null ? '' : `<br>${escapeHtml(price)} ${nightsText(meta)}`}` +
    `<br><a href="${escapeHtml(stay.url)}" target="_blank" rel="noopener">Book</a></div>`
  );
}

/**
 * The stays of the viewport: beside clusters (a wide view) as dots, so the few stays outside the
 * clusters do not bury the map in labels; at street level (no clusters) each with its price.
 */
function drawStays(stays: readonly Stay[], meta: SearchBody['meta'], asDots: boolean): void {
  stayLayer.clearLayers();
  for (const stay of stays.slice(0, MARKERS)) {
    const { lat, lng } = stay.location.coordinates;
    if (asDots) {
      stayLayer.addLayer(
        L.circleMarker([lat, lng], { radius: 5, color: '#fff', weight: 1.5, fillColor: '#0b6bcb', fillOpacity: 0.9 })
          .bindTooltip(escapeHtml(stay.name))
          .bindPopup(popupHtml(stay, meta)),
      );
      continue;
    }
    const price = priceLabel(stay, meta);
    const label = price ?? ratingText(stay);
    stayLayer.addLayer(
      L.marker([lat, lng], {
        title: price === null ? stay.name : `${stay.name}: ${price} ${nightsText(meta)}`,
        riseOnHover: true,
        icon: L.divIcon({ className: 'stay', html: `<span>${escapeHtml(label)}</span>`, iconSize: [0, 0] }),
      }).bindPopup(popupHtml(stay, meta)),
    );
  }
}

function drawList(stays: readonly Stay[], meta: SearchBody['meta']): void {
  listEl.replaceChildren(
    ...stays.slice(0, LISTED).map((stay) => {
      const li = document.createElement('li');
      li.className = 'card';
      const thumbnail = thumbnailOf(stay);
      const price = priceLabel(stay, meta);
      // The review count belongs to a rating; "no rating (0)" would say nothing more.
      const reviews = stay.averageRatings.value === null ? '' : ` <span class="count">(${formatCount(stay.averageRatings.count)})</span>`;
      const logos = Object.entries(stay.suppliers)
        .map(([supplier, e]) =>
          e.media.logoSquare
            ? `<img class="logo" src="${escapeHtml(e.media.logoSquare)}" alt="${escapeHtml(supplier)}" title="${escapeHtml(supplier)}" width="16" height="16">`
            : '',
        )
        .join('');
      li.innerHTML =
        `${thumbnail === null ? '<div class="thumb"></div>' : `<img class="thumb" src="${escapeHtml(thumbnail)}" alt="" width="96" height="60" loading="lazy">`}` +
        `<div class="body"><h2>${escapeHtml(stay.name)}</h2>` +
        `<p class="meta">${escapeHtml(stay.type)} · ${ratingText(stay)}${reviews}</p>` +
        `<p class="row">${logos}${price === null ? '' : `<span class="price">${escapeHtml(price)} <small>${nightsText(meta)}</small></span>`}` +
        `<a class="book" href="${escapeHtml(stay.url)}" target="_blank" rel="noopener">Book</a></p></div>`;
      // A picture that cannot be had (a supplier's host down) leaves a blank tile, not a broken icon.
      li.querySelector<HTMLImageElement>('img.thumb')?.addEventListener('error', (event) => {
        (event.target as HTMLImageElement).replaceWith(Object.assign(document.createElement('div'), { className: 'thumb' }));
      });
      return li;
    }),
  );
}

/** Keeps the view in the page's URL (a reload or a shared link opens the same place). */
function rememberView(): void {
  const c = map.getCenter();
  const url = new URL(location.href);
  url.searchParams.delete('address');
  url.searchParams.set('lat', c.lat.toFixed(5));
  url.searchParams.set('lng', wrapLng(c.lng).toFixed(5));
  url.searchParams.set('zoom', String(map.getZoom()));
  history.replaceState(null, '', url);
}

/**
 * The status line says what the map shows (docs/decisions.md 93). A dated search prices only the
 * best-ranked stays of the view (settings.pricedCandidates), so its count is of those: when the
 * count comes near that cap (at least half of it: the rest sold out), more stays may be in view.
 */
function statusText(total: number, meta: SearchBody['meta']): string {
  if (total === 0) return 'No stays here: zoom out or move the map.';
  const stays = `${formatCount(total)} ${total === 1 ? 'stay' : 'stays'}`;
  if (!meta.nights) return `${stays} in view`;
  const capped = total >= settings.pricedCandidates / 2;
  return (
    `${stays} with prices in view · prices are totals ${nightsText(meta)}` +
    (capped ? ` · prices for the ${formatCount(settings.pricedCandidates)} best-ranked; zoom in for more` : '')
  );
}

async function search(): Promise<void> {
  // A newer viewport wins: the search of the old one is cancelled, its answer never drawn.
  controller?.abort();
  const mine = new AbortController();
  controller = mine;
  const id = ++searches;
  statusEl.textContent = 'Searching…';
  document.body.dataset.searching = String(id);
  const q = viewportParams();
  try {
    const clustered = await getJson<SearchBody>(`${settings.searchPath}?${q}&cluster=auto&pageSize=${MARKERS}`, {
      signal: mine.signal,
      headers: SEARCH_HEADERS,
    });
    const clusters = clustered.clusters ?? [];
    drawClusters(clusters);
    drawStays(clustered.results, clustered.meta, clusters.length > 0);
    // For measuring (web/README.md): when the first viewport's clusters and stays are on the map.
    if (performance.getEntriesByName('first-clusters').length === 0) performance.mark('first-clusters');
    const inClusters = clusters.reduce((n, c) => n + c.count, 0);
    const total = clustered.meta.total + inClusters;
    statusEl.textContent = statusText(total, clustered.meta);
    // With clusters, results hold only the stays outside them: the list asks for the best of all.
    const best =
      clusters.length === 0
        ? clustered
        : await getJson<SearchBody>(`${settings.searchPath}?${q}&pageSize=${LISTED}`, { signal: mine.signal, headers: SEARCH_HEADERS });
    drawList(best.results, best.meta);
    banner(settings.message);
    document.body.dataset.searched = String(id);
  } catch (error) {
    if (mine.signal.aborted) return;
    if (error instanceof ApiFailure && error.status === 429) {
      const wait = error.retryAfter ?? 10;
      banner(`Too many searches from this address: trying again in ${wait} s.`);
      clearTimeout(timer);
      timer = setTimeout(() => void search(), wait * 1_000);
    } else {
      banner(error instanceof ApiFailure ? `The search failed: ${error.message}` : 'The search failed: the gateway could not be reached.');
    }
    statusEl.textContent = '';
  }
}

map.on('moveend', () => {
  rememberView();
  drawLabels();
  clearTimeout(timer);
  // The first view is searched at once; later ones once the map has settled.
  timer = setTimeout(() => void search(), searches === 0 ? 0 : DEBOUNCE_MS);
});
map.setView([start.lat, start.lng], start.zoom);
banner(settings.message);
