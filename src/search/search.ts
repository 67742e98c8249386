import { clusteredSearch, clusterModeOf } from './clustered-search.ts';
import { datedSearch } from './dated-search.ts';
import { flatSearch } from './flat-search.ts';
import type { SearchDeps } from './search-deps.ts';
import type { Search } from './search-result.ts';

export type { ClusteringSettings, SearchDeps } from './search-deps.ts';

/**
 * The one search pipeline behind every API version: a viewport clustered when asked (unless
 * `cluster=auto` finds a flat list more useful), otherwise a flat list, dated or static.
 */
export function createSearch(shared: SearchDeps): Search {
  return async function search(query) {
    // This search's heavy steps go before those of searches that started after it (work-slicer.ts).
    const deps: SearchDeps = { ...shared, slicer: shared.slicer.session() };
    const offset = (query.page - 1) * query.pageSize;
    const mode = clusterModeOf(query);
    if (mode !== null) {
      const result = await clusteredSearch(deps, query, mode, offset);
      if (result !== null) return result;
    }
    if (query.dates !== null) return datedSearch(deps, query, query.dates, offset);
    return flatSearch(deps, query, offset);
  };
}
