// End to end, through a booted gateway: supplier_b's listings carry no guest rating (as the
// Hotelbeds API gives none), republished into the gateway's store at the Listing level, so this
// holds whichever format the simulated supplier_b speaks. A stay sold only there has no rating
// anywhere (v1, v2, v3, MCP); a cross-listed one is rated by its other suppliers alone; the ranking
// reads null as no evidence, and minguestrating leaves unrated stays out (docs/decisions.md 135-137).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defaults } from '../../defaults.ts';
import { republishContent } from '../../test-support/republish-content.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

const PARIS = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';

interface RatingJson {
  value: number | null;
  hotelStars: number | null;
  count: number;
}

/** The ranking's score (inventory/rank-stays.ts) of an answer's averageRatings. */
const score = ({ value, count }: RatingJson) =>
  value === null
    ? defaults.rankPriorMean
    : (value * count + defaults.rankPriorMean * defaults.rankPriorCount) / (count + defaults.rankPriorCount);

let t: TestApp;
before(async () => {
  t = await startTestApp({ stays: 4_000, settings: { contentPollMs: 20 } });
  await republishContent(t, 'supplier_b unrated', (listing) =>
    listing.supplier === 'supplier_b' ? { ...listing, rating: { ...listing.rating, value: null, count: 0 } } : listing,
  );
});
after(async () => {
  await t.close();
});

async function v3(query: string): Promise<any[]> {
  const res = await t.get(`/v3/accommodations?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results;
}

const onlyB = (stay: any) => Object.keys(stay.suppliers).join() === 'supplier_b';

describe('a supplier without guest ratings', () => {
  it('v3: a stay sold only there has averageRatings null with count 0; a cross-listed one is averaged over its rated suppliers', async () => {
    const stays = await v3(`${PARIS}&pageSize=100`);
    const solo = stays.filter(onlyB);
    const shared = stays.filter((s) => s.suppliers.supplier_b !== undefined && !onlyB(s));
    assert.ok(
      solo.length > 0 && shared.length > 0,
      `stays sold only by supplier_b (${solo.length}) and cross-listed with it (${shared.length})`,
    );
    for (const stay of solo) {
      assert.equal(stay.suppliers.supplier_b.rating.value, null, stay.id);
      assert.deepEqual({ value: stay.averageRatings.value, count: stay.averageRatings.count }, { value: null, count: 0 }, stay.id);
    }
    for (const stay of shared) {
      assert.equal(stay.suppliers.supplier_b.rating.value, null, stay.id);
      const rated = Object.values(stay.suppliers as Record<string, { rating: RatingJson }>)
        .map((e) => e.rating)
        .filter((r) => r.value !== null);
      const count = rated.reduce((sum, r) => sum + r.count, 0);
      const mean =
        count > 0
          ? rated.reduce((sum, r) => sum + r.value! * r.count, 0) / count
          : rated.reduce((sum, r) => sum + r.value!, 0) / rated.length;
      assert.deepEqual(
        { value: stay.averageRatings.value, count: stay.averageRatings.count },
        { value: Math.round(mean * 10) / 10, count },
        `${stay.id}: the average of its rated suppliers only`,
      );
    }
  });

  it('ranks an unrated stay as no evidence: between good and poor ratings, by the same score as every other stay', async () => {
    const stays = await v3(`${PARIS}&pageSize=100`);
    const scores = stays.map((s) => score(s.averageRatings));
    for (let i = 1; i < scores.length; i++)
      assert.ok(scores[i] <= scores[i - 1] + 1e-9, `${stays[i].id} (${scores[i]}) after ${stays[i - 1].id} (${scores[i - 1]})`);
    const firstUnrated = stays.findIndex((s) => s.averageRatings.value === null);
    assert.ok(firstUnrated > 0 && firstUnrated < stays.length - 1, `unrated stays are neither first nor last (first at ${firstUnrated})`);
  });

  it('minguestrating above 0 leaves out every stay without a rating, and only those', async () => {
    const all = await t.get(`/v3/accommodations?${PARIS}&pageSize=100&provider=supplier_b`);
    const rated = await t.get(`/v3/accommodations?${PARIS}&pageSize=100&provider=supplier_b&minguestrating=0.1`);
    assert.ok(rated.body.results.length > 0 && rated.body.results.every((s: any) => s.averageRatings.value !== null), 'only rated stays');
    assert.equal(all.body.meta.hasMore, false, 'one page holds every stay, so its unrated ones are all of them');
    const unrated = all.body.results.filter((s: any) => s.averageRatings.value === null).length;
    assert.ok(unrated > 0, 'unrated stays without the bound');
    assert.equal(rated.body.meta.total, all.body.meta.total - unrated, 'the bound drops the unrated stays and nothing else');
    const none = await t.get(`/v3/accommodations?${PARIS}&pageSize=100&provider=supplier_b&minguestrating=0`);
    assert.equal(none.body.meta.total, all.body.meta.total, '0 is no filter');
  });

  it("v2: the stay's rating is null for a stay sold only there", async () => {
    const res = await t.get(`/v2/accommodations?${PARIS}&pageSize=100`);
    assert.equal(res.status, 200);
    const solo = res.body.results.filter(onlyB);
    assert.ok(solo.length > 0, 'stays sold only by supplier_b');
    for (const stay of solo) assert.deepEqual({ value: stay.rating.value, count: stay.rating.count }, { value: null, count: 0 }, stay.id);
  });

  it("v1: supplier_b's own rating is null, and a minguestrating leaves none of its stays", async () => {
    const res = await t.get('/v1/accommodations?provider=supplier_b&address=Paris&limit=20');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.results.length > 0, 'priced supplier_b stays');
    for (const r of res.body.results) assert.equal(r.rating.value, null, r.id);
    const bounded = await t.get('/v1/accommodations?provider=supplier_b&address=Paris&limit=20&minguestrating=1');
    assert.equal(bounded.status, 200);
    assert.deepEqual(bounded.body.results, []);
  });

  it('MCP: get_accommodation answers the unrated stay, null rating and all, within its output schema', async () => {
    const [solo] = (await v3(`${PARIS}&pageSize=100`)).filter(onlyB);
    const base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'missing-guest-rating-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      // The SDK client checks structuredContent against the tool's outputSchema.
      const result = (await client.callTool({ name: 'get_accommodation', arguments: { id: solo.id } })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const stay = result.structuredContent as any;
      assert.equal(stay.id, solo.id);
      assert.equal(stay.averageRatings.value, null);
      assert.equal(stay.suppliers.supplier_b.rating.value, null);
    } finally {
      await client.close();
    }
  });
});
