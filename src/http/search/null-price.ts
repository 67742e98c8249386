// What a `price` of null means, said once: the OpenAPI document (the v2 and v3 supplier entries'
// `price`) and the MCP tools' descriptions use this constant; docs/api.md and the agent skill
// (docs/agent-skills/accommodation-search/SKILL.md) hold the same sentence, and
// null-price.test.ts fails when any of the four says it differently.

/** The meaning of `price: null` on a dated v2/v3 search (paged-response.ts `priceOf`, search/price-stays.ts). */
export const NULL_PRICE_MEANING =
  'A `price` of null means this supplier\'s price for these dates is unknown (it failed, did not answer in time or could not be asked; `meta.unavailableSuppliers` names it with the reason): show "no price right now", never 0 or "sold out"; a supplier with no availability for these dates has no entry at all.';
