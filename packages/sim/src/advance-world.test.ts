import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { SUPPLIER_IDS } from './types.ts';
import { advanceWorld, ADVANCE_LIST_CAP } from './advance-world.ts';
import { generateWorld, type World } from './generate-world.ts';
import { simQuote } from './price-stay.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers } from './start-sim-suppliers.ts';

const listingCount = (world: World) => SUPPLIER_IDS.reduce((n, s) => n + world.listings[s].length, 0);
const snapshot = (world: World) => JSON.stringify(SUPPLIER_IDS.map((s) => world.listings[s]));

test('the world moves on at realistic daily rates, the same way for the same seed and days', () => {
  const world = generateWorld({ seed: 3, stays: 20_000 });
  const before = listingCount(world);
  const result = advanceWorld(world, 30);
  assert.equal(result.day, 30);
  assert.equal(world.day, 30);
  // Per day well under 1% open or close; a few percent change.
  const perDay = (n: number) => n / before / 30;
  assert.ok(perDay(result.counts.added) > 0 && perDay(result.counts.added) < 0.01, `added ${result.counts.added}`);
  assert.ok(perDay(result.counts.removed) > 0 && perDay(result.counts.removed) < 0.01, `removed ${result.counts.removed}`);
  assert.ok(perDay(result.counts.changed) > 0.005 && perDay(result.counts.changed) < 0.06, `changed ${result.counts.changed}`);
  assert.equal(listingCount(world), before + result.counts.added - result.counts.removed);
  // Feeds stay in id order; closed listings are gone from them and kept aside.
  for (const s of SUPPLIER_IDS) {
    const ids = world.listings[s].map((l) => l.supplierStayId);
    const keys = ids.map(Number);
    assert.ok(
      keys.every((k, i) => i === 0 || keys[i - 1] < k),
      `${s} in id order`,
    );
  }
  const open = new Set(SUPPLIER_IDS.flatMap((s) => world.listings[s].map((l) => `${s}:${l.supplierStayId}`)));
  for (const r of result.removed) assert.ok(!open.has(`${r.supplier}:${r.id}`), '!open.has(`${r.supplier}:${r.id}`)');
  for (const a of result.added) assert.ok(open.has(`${a.supplier}:${a.id}`), 'open.has(`${a.supplier}:${a.id}`)');
  // Some openings are existing properties newly listed on another supplier.
  const added = new Set(result.added.map((a) => `${a.supplier}:${a.id}`));
  const crossListed = SUPPLIER_IDS.flatMap((s) => world.listings[s]).filter(
    (l) => added.has(`${l.supplier}:${l.supplierStayId}`) && l.propertyId < 20_000,
  );
  assert.ok(crossListed.length > 0, 'an existing property gained a listing');

  const again = generateWorld({ seed: 3, stays: 20_000 });
  advanceWorld(again, 10);
  advanceWorld(again, 20);
  assert.equal(snapshot(again), snapshot(world), '10 + 20 days = 30 days');
  // The feeds after the month, pinned: the openings are filed once a day now, not one by one
  // (a 10M advance was quadratic), and the month must come out as it did when they were.
  assert.equal(
    createHash('sha256').update(snapshot(world)).digest('hex'),
    'a02d74ea19d66ee89cc8b04ffa6557d78da99275a156c795aa9ff5eaa6f7f6b5',
    'the same feeds as before',
  );
});

test('days outside 1..365 are refused; each list is capped with its count beside it', () => {
  const world = generateWorld({ seed: 3, stays: 20_000 });
  for (const days of [0, -1, 366, 1.5]) assert.throws(() => advanceWorld(world, days), RangeError);
  const year = advanceWorld(world, 365);
  assert.ok(year.counts.changed > ADVANCE_LIST_CAP, 'year.counts.changed > ADVANCE_LIST_CAP');
  assert.equal(year.changed.length, ADVANCE_LIST_CAP);
});

test('POST /world/advance moves the served feeds, and a closed listing no longer quotes nor lands', async () => {
  const world = generateWorld({ seed: 5, stays: 3_000 });
  const sim = await startSimSuppliers({ world, latencyMs: 0 });
  try {
    const bad = await fetch(`${sim.controlUrl}/world/advance?days=0`, { method: 'POST' });
    assert.equal(bad.status, 400);
    const res = await fetch(`${sim.controlUrl}/world/advance?days=60`, { method: 'POST' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      day: number;
      added: unknown[];
      removed: { supplier: string; id: string }[];
      changed: unknown[];
      counts: { removed: number };
    };
    assert.equal(body.day, 60);
    assert.ok(
      body.removed.length > 0 && body.counts.removed === body.removed.length,
      'body.removed.length > 0 && body.counts.removed === body.removed.length',
    );
    const gone = body.removed.find((r) => r.supplier === 'supplier_d') ?? body.removed[0];
    const request = { checkin: '2027-03-10', checkout: '2027-03-12', adults: 1, children: 0, childrenAges: [], rooms: 1, currency: 'USD' };
    assert.deepEqual(simQuote(world, gone.supplier as 'supplier_a', gone.id, request), { available: false });
    // supplier_d speaks Expedia Rapid: its content by signed pages, following each `Link`.
    const { key, secret } = SIM_CREDENTIALS['expedia-rapid'];
    const ids: string[] = [];
    for (
      let next: string | null = `${sim.urls.supplier_d}/properties/content?language=en-US&supply_source=vrbo&include=name`;
      next !== null;
    ) {
      const seconds = Math.floor(Date.now() / 1_000);
      const signature = createHash('sha512').update(`${key}${secret}${seconds}`).digest('hex');
      const page: Response = await fetch(next, {
        headers: { authorization: `EAN APIKey=${key},Signature=${signature},timestamp=${seconds}` },
      });
      ids.push(...Object.keys((await page.json()) as object));
      next = /<([^>]*)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    assert.deepEqual(
      ids,
      world.listings.supplier_d.map((l) => l.supplierStayId),
    );
  } finally {
    await sim.close();
  }
});
