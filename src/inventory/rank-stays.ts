import type { Rating, Settings } from '../types.ts';

/**
 * The ranking prior: `rankPriorMean`, the rating a stay is assumed to have before its reviews say
 * otherwise, and `rankPriorCount`, how many reviews that assumption is worth.
 */
export type RankSettings = Pick<Settings, 'rankPriorMean' | 'rankPriorCount'>;

/**
 * The score stays are ranked by (docs/decisions.md 10): a Bayesian average of the guest rating.
 * Reviews pull the score from the prior mean towards the stay's own rating, so 10/10 from two
 * reviews ranks below 9.1 from 3,000, and a stay without reviews sits at the prior mean. So does
 * a stay without a guest rating (value null): no evidence either way, neither a 0 nor a 10
 * (docs/decisions.md 136).
 */
export function rankScore(rating: Rating, settings: RankSettings): number {
  if (rating.value === null) return settings.rankPriorMean;
  const count = Math.max(0, rating.count);
  return (rating.value * count + settings.rankPriorMean * settings.rankPriorCount) / (count + settings.rankPriorCount);
}

/**
 * The global rank of each stay (0 = best), aligned with the input: best score first, ties by
 * service id ascending so that pages are stable across requests and re-ingests.
 */
export function rankStays(stays: readonly { id: string; averageRating: Rating }[], settings: RankSettings): Uint32Array {
  const n = stays.length;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = rankScore(stays[i].averageRating, settings);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => scores[b] - scores[a] || (stays[a].id < stays[b].id ? -1 : stays[a].id > stays[b].id ? 1 : 0));
  const ranks = new Uint32Array(n);
  for (let r = 0; r < n; r++) ranks[order[r]] = r;
  return ranks;
}
