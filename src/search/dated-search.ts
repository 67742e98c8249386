// Dated searches: live prices for the best-ranked candidates (docs/decisions.md 11), a page of
// the survivors. Clustered dated searches price through `price` and answer through `pricedResult` too.
import { buildResult, hitsOf } from './build-result.ts';
import type { Centre } from './candidates.ts';
import { effectiveCurrency } from './currency.ts';
import { findPage, type Page } from './flat-search.ts';
import { priceStays, type PricedStay, type PricingOutcome } from './price-stays.ts';
import type { SearchDeps } from './search-deps.ts';
import type { SearchQuery, StayDates } from './search-query.ts';
import type { SearchResult } from './search-result.ts';

/**
 * A dated search prices the best-ranked candidates (at most `pricedCandidates`), keeps those
 * that survive availability and the price filter, and pages over the survivors: `total` counts
 * survivors, so it agrees with `hasMore` and `_links.next`.
 */
export async function datedSearch(deps: SearchDeps, query: SearchQuery, dates: StayDates, offset: number): Promise<SearchResult> {
  const { pageIdx, unresolved, centre } = await pricedCandidates(deps, query);
  const pricing = await price(deps, query, dates, pageIdx);
  return pricedResult(deps, query, pricing.priced, pricing, centre, unresolved, offset);
}

/** The best-ranked candidates a dated search prices (docs/decisions.md 11). */
export function pricedCandidates(deps: SearchDeps, query: SearchQuery): Promise<Page> {
  return findPage(deps, { ...query, page: 1, pageSize: deps.pricedCandidates }, 0);
}

/** Live prices for the stays with these idx, in that order. */
export async function price(deps: SearchDeps, query: SearchQuery, dates: StayDates, idxs: readonly number[]): Promise<PricingOutcome> {
  const currency = effectiveCurrency(query.currency);
  return priceStays(await deps.stays.get(idxs), query, dates, { services: deps.quotes, budgetMs: deps.quoteBudgetMs, currency });
}

/** A page of priced stays (`priced`, all of them or the sparse ones of a clustered answer) as a dated result: `total` counts them all. */
export function pricedResult(
  deps: SearchDeps,
  query: SearchQuery,
  priced: readonly PricedStay[],
  pricing: PricingOutcome,
  centre: Centre | null,
  unresolved: string[],
  offset: number,
  extra: Pick<SearchResult, 'clusters' | 'clustering'> = { clusters: null, clustering: null },
): SearchResult {
  const page = priced.slice(offset, offset + query.pageSize);
  const hits = hitsOf(
    page.map((p) => p.stay),
    centre,
    (_stay, i) => page[i].offers,
  );
  return buildResult(query, { hits, matched: priced.length, offset, unresolved, pricing, ...extra }, deps.totalCap);
}
