// The booking pages /go sends travellers to, end to end: a booted test gateway on the simulated
// suppliers, each slot's page as the simulator gives it (SimSlot.bookingUrl, or the stay's own page
// where the API's content has one) or as an operator's STAYGATE_SUPPLIER_<X>_BOOKING_URL names it,
// and the landing the simulator's booking ledger records (<sim data dir>/landings.jsonl).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSqliteClickStore } from '../../clicks/sqlite-click-store.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { SUPPLIER_IDS, type SupplierId } from '../../types.ts';

const DATED = 'lat=48.8566&lng=2.3522&radius=50000&pageSize=100&checkin=2026-12-04&checkout=2026-12-07';

interface Landing {
  supplier: string;
  clickId: string;
  supplierStayId: string;
  affiliate: string | null;
  checkin: string | null;
  checkout: string | null;
}

/** A gateway on its own simulator, whose landings are kept in a folder of their own. */
async function gateway(options: Parameters<typeof startTestApp>[0] = {}) {
  const simDir = mkdtempSync(path.join(tmpdir(), 'staygate-landings-'));
  const t = await startTestApp({ stays: 2_000, sim: { dataDir: simDir }, app: { geocoder: { geocode: async () => null } }, ...options });
  const clicks = createSqliteClickStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
  return {
    t,
    clicks,
    /** The landing the simulator recorded for a click id. */
    landing(clickId: string): Landing | undefined {
      return readFileSync(path.join(simDir, 'landings.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Landing)
        .find((l) => l.clickId === clickId);
    },
    async close() {
      await clicks.close();
      await t.close();
      rmSync(simDir, { recursive: true, force: true });
    },
  };
}

type Gateway = Awaited<ReturnType<typeof gateway>>;

/** One supplier entry's link per supplier, from a dated search. */
async function supplierLinks(t: TestApp, query: string): Promise<Record<SupplierId, string>> {
  const res = await t.get(`/v3/accommodations?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const links: Partial<Record<SupplierId, string>> = {};
  for (const result of res.body.results as { suppliers: Record<SupplierId, { link: string }> }[])
    for (const [supplier, entry] of Object.entries(result.suppliers)) links[supplier as SupplierId] ??= entry.link;
  for (const id of SUPPLIER_IDS) assert.ok(links[id], `a result sold by ${id}`);
  return links as Record<SupplierId, string>;
}

/** Follows a deeplink as a browser would: the redirect, then the page; the click it recorded. */
async function follow(g: Gateway, link: string) {
  const url = new URL(link);
  const res = await g.t.app.http.inject({ url: url.pathname + url.search, remoteAddress: '198.51.100.7' });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(String(res.headers.location));
  const [click] = await g.clicks.recent(1);
  const page = await fetch(location);
  assert.equal(page.status, 200, `${location.href}: ${await page.text()}`);
  return { location, click, landing: g.landing(click.id) };
}

describe("the simulator's own booking pages", () => {
  let g: Gateway;
  before(async () => {
    g = await gateway();
  });
  after(() => g.close());

  it('dated links carry the party priced, the defaults (2 adults, 1 room) when the search named none', async () => {
    const named = new URL((await supplierLinks(g.t, `${DATED}&adults=3&rooms=2`)).supplier_b);
    assert.equal(named.searchParams.get('adults'), '3');
    assert.equal(named.searchParams.get('rooms'), '2');
    const unnamed = new URL((await supplierLinks(g.t, DATED)).supplier_b);
    assert.equal(unnamed.searchParams.get('adults'), '2');
    assert.equal(unnamed.searchParams.get('rooms'), '1');
  });

  it("each slot's click lands on its simulated page: the click id, the stay and the link's dates recorded", async () => {
    const links = await supplierLinks(g.t, `${DATED}&adults=3&rooms=2&aid=partner-9`);
    for (const supplier of SUPPLIER_IDS) {
      const { location, click, landing } = await follow(g, links[supplier]);
      assert.equal(location.origin, new URL(g.t.sim.slots[supplier].url).origin, `${supplier}: the slot's own site`);
      assert.equal(click.supplier, supplier);
      assert.ok(landing, `${supplier}: the simulator recorded the landing of ${click.id}`);
      assert.deepEqual(
        { supplier: landing.supplier, stay: landing.supplierStayId, checkin: landing.checkin, checkout: landing.checkout },
        { supplier, stay: click.supplierStayId, checkin: '2026-12-04', checkout: '2026-12-07' },
      );
    }
    // Hotelbeds' page (the operator's own site) gets the party and the operator's agency code too.
    const { location } = await follow(g, links.supplier_b);
    assert.deepEqual(
      ['adults', 'rooms', 'agency'].map((name) => location.searchParams.get(name)),
      ['3', '2', g.t.sim.slots.supplier_b.affiliateId],
    );
  });
});

describe("an operator's booking pages", () => {
  let g: Gateway;
  before(async () => {
    g = await gateway({
      // Each page as the simulator's, with the operator's own affiliate id where the simulator's
      // page reads its affiliate parameter and the party added; supplier_b given no page at all,
      // as a gateway made without server.ts (which refuses a real Hotelbeds slot without one).
      slots: (simulated) =>
        simulated.map((slot) => ({
          ...slot,
          bookingUrl:
            slot.id === 'supplier_b' || slot.bookingUrl === null
              ? null
              : `${slot.bookingUrl.replaceAll('{aid}', '{affiliateId}')}&party={adults}x{rooms}`,
        })),
    });
  });
  after(() => g.close());

  it("the slot's affiliate id and the click id land on the simulated page, and the party reaches it", async () => {
    const links = await supplierLinks(g.t, `${DATED}&adults=3&rooms=2&aid=partner-9`);
    for (const supplier of ['supplier_a', 'supplier_c', 'supplier_d'] as const) {
      const { location, click, landing } = await follow(g, links[supplier]);
      assert.ok(landing, `${supplier}: the simulator recorded the landing of ${click.id}`);
      assert.equal(
        landing.affiliate,
        g.t.sim.slots[supplier].affiliateId,
        `${supplier}: the operator's affiliate id, not the partner's aid`,
      );
      assert.equal(landing.supplierStayId, click.supplierStayId);
      assert.equal(click.aid, 'partner-9', "the partner's aid stays with the click, for its reports");
      const values = [...location.searchParams.values()];
      assert.ok(values.includes('3x2') || (values.includes('3') && values.includes('2')), `${supplier}: the party in ${location.href}`);
    }
  });

  it('a slot with no page for the stay: a 503 naming the supplier, and no click counted', async () => {
    const links = await supplierLinks(g.t, DATED);
    const before = (await g.clicks.recent(1_000)).length;
    const url = new URL(links.supplier_b);
    const res = await g.t.app.http.inject({ url: url.pathname + url.search, remoteAddress: '198.51.100.8' });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers.location, undefined);
    assert.equal(res.json().code, 'SERVICE_UNAVAILABLE');
    assert.match(res.json().message, /^supplier_b has no booking page for this stay/);
    assert.equal((await g.clicks.recent(1_000)).length, before);
  });
});
