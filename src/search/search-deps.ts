import type { Geocoder } from '../geo/geocoder.ts';
import type { CellPyramid } from '../inventory/cell-pyramid.ts';
import type { StayCache } from '../inventory/stay-cache.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import type { Store } from '../store/store.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import type { SupplierId } from '../types.ts';
import type { WorkSlicer } from './work-slicer.ts';

/** The clustering rules' figures (README, "Clustering"); the composition root passes the configured ones (compose/search.ts' clusteringSettings). */
export interface ClusteringSettings {
  /** A viewport's resolution is the one whose average cell makes it hold about this many cells. */
  targetCells: number;
  /** Deepest resolution of `cluster=auto`/`true`. */
  maxResolution: number;
  /** Deepest resolution `cluster=top` chooses by itself (`precision` may go further). */
  topMaxResolution: number;
  /** A `precision` that cuts the viewport into more cells than this is refused. */
  maxPrecisionCells: number;
  /** `cluster=auto` answers a flat list for viewports with a shorter diagonal. */
  autoFlatDiagonalMeters: number;
  /** `cluster=auto` makes a cell a cluster from this many stays (`true`: from 2). */
  autoMinStays: number;
}

/** Everything a search reads: one content version's index and stays, the services, and every setting. */
export interface SearchDeps {
  index: StayIndex;
  /** Cells per resolution for clustering, built with `index` (inventory/cell-pyramid.ts). */
  pyramid: CellPyramid;
  stays: StayCache;
  /** The content version this search serves (its id lookups); never another one. */
  store: Pick<Store, 'resolveHotelIds'>;
  geocoder: Geocoder;
  /** Where CPU-heavy steps take turns with everything else; one per process, shared by every content version's search. */
  slicer: WorkSlicer;
  /** Where `meta.total` saturates. */
  totalCap: number;
  /** Live prices: one quote service per configured supplier. */
  quotes: ReadonlyMap<SupplierId, QuoteService>;
  /** Dated searches price at most this many best-ranked candidates (docs/decisions.md 11). */
  pricedCandidates: number;
  /** Overall deadline for the suppliers' quotes of one search. */
  quoteBudgetMs: number;
  clustering: ClusteringSettings;
}
