// What a rating `value` of null means, said once: the OpenAPI document (every `rating` and
// `averageRatings`) and the MCP tools' descriptions use this constant; docs/api.md and the agent
// skill (docs/agent-skills/accommodation-search/SKILL.md) hold the same sentence, and
// null-rating.test.ts fails when any of the four says it differently (docs/decisions.md 135).

/** The meaning of `value: null` in a `rating` (v1, v2, v3 supplier entries) or `averageRatings` (v3). */
export const NULL_RATING_MEANING =
  'A rating `value` of null means there is no guest rating: the supplier publishes none for this stay (Hotelbeds has no guest ratings), or, in `averageRatings` and v2\'s `rating`, none of the stay\'s suppliers does (its `count` is then 0): show "no rating", never 0; `minguestrating` above 0 leaves such stays out.';
