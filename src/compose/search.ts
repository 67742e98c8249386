// The search core and what it reads: the geocoder, the clustering rules' figures, and for each
// content version served, its index, pyramid and stays behind one search, swapped in whole.
import { createGazetteerGeocoder } from '../geo/gazetteer-geocoder.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import type { Services } from '../http/route-context.ts';
import type { CellPyramid } from '../inventory/cell-pyramid.ts';
import type { ServedVersion } from '../inventory/content-service.ts';
import { createStayCache } from '../inventory/stay-cache.ts';
import { suppliersWithoutStays, type StayIndex } from '../inventory/stay-index.ts';
import { createSearch, type ClusteringSettings } from '../search/search.ts';
import type { WorkSlicer } from '../search/work-slicer.ts';
import type { VersionReader } from '../store/store.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import type { Settings, SupplierId } from '../types.ts';

/** The clustering rules' figures of `settings`, as the search core names them (bench/clustering.ts uses them too). */
export function clusteringSettings(
  settings: Pick<
    Settings,
    | 'clusterTargetCells'
    | 'clusterMaxResolution'
    | 'topMaxResolution'
    | 'maxPrecisionCells'
    | 'autoFlatDiagonalMeters'
    | 'autoClusterMinStays'
  >,
): ClusteringSettings {
  return {
    targetCells: settings.clusterTargetCells,
    maxResolution: settings.clusterMaxResolution,
    topMaxResolution: settings.topMaxResolution,
    maxPrecisionCells: settings.maxPrecisionCells,
    autoFlatDiagonalMeters: settings.autoFlatDiagonalMeters,
    autoMinStays: settings.autoClusterMinStays,
  };
}

/**
 * The given geocoder, or the gazetteer. The gazetteer's lookup (~1 s of synchronous work, once per
 * process) is built now, before the server listens: built later it would hold the event loop while
 * /health and searches wait (the refresh bench saw /health answer in 1.5 s), and in the first
 * address search otherwise.
 */
export function createGeocoder(given: Geocoder | undefined): Geocoder {
  if (given !== undefined) return given;
  const gazetteer = createGazetteerGeocoder();
  gazetteer.warm();
  return gazetteer;
}

export interface SearchParts {
  settings: Pick<Settings, 'stayCacheSize' | 'totalCap' | 'pricedCandidates' | 'quoteBudgetMs'> & Parameters<typeof clusteringSettings>[0];
  geocoder: Geocoder;
  /** One slicer for the process: heavy steps take turns across content versions too. */
  slicer: WorkSlicer;
  quotes: ReadonlyMap<SupplierId, QuoteService>;
}

/** What a content version serves: its search, what /health says of it, and the suppliers it holds no stay of. */
export function servicesOf(
  parts: SearchParts,
  content: { index: StayIndex; pyramid: CellPyramid; version: VersionReader; label: string },
): Services {
  const { settings } = parts;
  const { index, pyramid, version } = content;
  return {
    search: createSearch({
      index,
      pyramid,
      stays: createStayCache(version, { capacity: settings.stayCacheSize }),
      store: version,
      geocoder: parts.geocoder,
      slicer: parts.slicer,
      totalCap: settings.totalCap,
      quotes: parts.quotes,
      pricedCandidates: settings.pricedCandidates,
      quoteBudgetMs: settings.quoteBudgetMs,
      clustering: clusteringSettings(settings),
    }),
    inventory: { stays: index.size, version: content.label },
    // docs/decisions.md 68: a dated search names the suppliers whose stays it cannot hold.
    contentUnavailable: suppliersWithoutStays(index),
  };
}

/** The content version served: its services, swapped whole when another is served. */
export interface Serving {
  /** The services of the version served, or null before the first. */
  services(): Services | null;
  /** When the version served was swapped in (ISO), '' before the first. */
  builtAt(): string;
  /** Swaps a version in, already held and loaded (the content service's sink; it logs the swap). */
  serve(version: ServedVersion): void;
}

export function createServing(parts: SearchParts, now: () => Date): Serving {
  let services: Services | null = null;
  let builtAt = '';
  return {
    services: () => services,
    builtAt: () => builtAt,
    serve(version) {
      // One assignment swaps everything a search reads: the index, its pyramid, the stays and ids
      // of that version. Searches already running finish on the version they started with.
      services = servicesOf(parts, version);
      builtAt = now().toISOString();
    },
  };
}
