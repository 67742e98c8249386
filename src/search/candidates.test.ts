// Where a search's stays come from (candidates.ts): a box, a radius, an address, a cell, hotelids.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cellToLatLng, latLngToCell } from 'h3-js';
import { ApiError } from '../errors/api-error.ts';
import { distanceMeters } from '../geo/distance.ts';
import { GeocoderError } from '../geo/geocoder-error.ts';
import { baseQuery, searchWorld, tableGeocoder, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import type { HotelIdRef } from '../types.ts';
import { boxCentre, filterCell, locate, lookup } from './candidates.ts';

const N = 2_000;
let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(N, 3), { geocoder: tableGeocoder({ 'Paris, France': { lat: 48.8566, lng: 2.3522 } }) });
});
after(() => world.close());

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('candidates of a location', () => {
  it('the centre of a box, across the antimeridian too', () => {
    assert.deepEqual(boxCentre({ south: 10, west: 0, north: 20, east: 10 }), { lat: 15, lng: 5 });
    assert.deepEqual(boxCentre({ south: -20, west: 170, north: -10, east: -170 }), { lat: -15, lng: 180 });
    assert.deepEqual(boxCentre({ south: -20, west: 175, north: -10, east: -165 }), { lat: -15, lng: -175 });
  });

  it('a box gives the stays inside it, edges included, across 180 too', async () => {
    for (const box of [
      { south: 48.8, west: 2.2, north: 48.9, east: 2.4 },
      { south: -18.5, west: 179.5, north: -17, east: -179.5 },
    ]) {
      const { candidates, centre, radius } = await locate(world.deps, baseQuery({ location: { kind: 'box', ...box } }));
      const inside = world.stays.filter(
        (s) =>
          s.lat >= box.south &&
          s.lat <= box.north &&
          (box.west <= box.east ? s.lng >= box.west && s.lng <= box.east : s.lng >= box.west || s.lng <= box.east),
      );
      assert.ok(inside.length > 10, `${inside.length} stays in ${JSON.stringify(box)}`);
      assert.deepEqual(
        sorted(candidates),
        inside.map((s) => s.idx),
      );
      assert.deepEqual(centre, boxCentre(box));
      assert.equal(radius, null);
    }
    const edge = world.stays[7];
    const exact = await locate(
      world.deps,
      baseQuery({ location: { kind: 'box', south: edge.lat, west: edge.lng, north: edge.lat, east: edge.lng } }),
    );
    assert.ok(exact.candidates.includes(7), 'a stay on the edges is inside');
  });

  it("a point's candidates hold every stay within its radius (the filter then measures each)", async () => {
    const location = { kind: 'point' as const, lat: 48.8566, lng: 2.3522, radius: 3_000 };
    const { candidates, centre, radius } = await locate(world.deps, baseQuery({ location }));
    const within = world.stays.filter((s) => distanceMeters(location.lat, location.lng, s.lat, s.lng) <= 3_000).map((s) => s.idx);
    assert.ok(within.length > 10, `${within.length} stays within 3 km`);
    assert.ok(
      within.every((idx) => candidates.includes(idx)),
      'every stay within the radius is a candidate',
    );
    assert.deepEqual([centre.lat, centre.lng], [location.lat, location.lng]);
    assert.equal(radius, 3_000);
  });

  it('an address is geocoded to its centre; no match is a 400 on address, a geocoder outage a 502 or 504', async () => {
    const found = await locate(world.deps, baseQuery({ location: { kind: 'address', address: 'Paris, France', radius: 1_000 } }));
    assert.deepEqual([found.centre.lat, found.centre.lng], [48.8566, 2.3522]);
    assert.equal(found.radius, 1_000);
    await assert.rejects(
      locate(world.deps, baseQuery({ location: { kind: 'address', address: 'Nowhere', radius: 1_000 } })),
      (e) => e instanceof ApiError && e.statusCode === 400 && /Nowhere/.test(e.message),
    );
    for (const [failure, code] of [
      ['timeout', 'UPSTREAM_TIMEOUT'],
      ['network', 'BAD_GATEWAY'],
    ] as const) {
      const geocoder = {
        geocode: () => Promise.reject(new GeocoderError(failure, 'Paris')),
      };
      await assert.rejects(
        locate({ ...world.deps, geocoder }, baseQuery({ location: { kind: 'address', address: 'Paris', radius: 1 } })),
        (e) => e instanceof ApiError && e.code === code,
      );
    }
  });

  it('a cell alone gives the stays whose coordinates lie in it, measured from its centre; with a box, those inside both', async () => {
    const stay = world.stays[42];
    for (const res of [3, 8, 11]) {
      const cell = latLngToCell(stay.lat, stay.lng, res);
      const inCell = world.stays.filter((s) => latLngToCell(s.lat, s.lng, res) === cell).map((s) => s.idx);
      const alone = await locate(world.deps, baseQuery({ cell }));
      assert.deepEqual(sorted(alone.candidates), inCell, `r${res}`);
      const [lat, lng] = cellToLatLng(cell);
      assert.deepEqual(alone.centre, { lat, lng });
      const box = { south: stay.lat - 0.001, west: stay.lng - 0.001, north: stay.lat + 0.001, east: stay.lng + 0.001 };
      const both = await locate(world.deps, baseQuery({ cell, location: { kind: 'box', ...box } }));
      assert.deepEqual(
        sorted(both.candidates),
        inCell.filter(
          (idx) =>
            world.stays[idx].lat >= box.south &&
            world.stays[idx].lat <= box.north &&
            world.stays[idx].lng >= box.west &&
            world.stays[idx].lng <= box.east,
        ),
      );
    }
    assert.deepEqual(filterCell(baseQuery({ cell: latLngToCell(stay.lat, stay.lng, 5) }))?.res, 5);
    assert.equal(filterCell(baseQuery()), null);
  });
});

describe('stays named by hotelids', () => {
  const ref = (raw: string): HotelIdRef => {
    const at = raw.indexOf(':');
    return at < 0 ? { raw, supplier: null, id: raw } : { raw, supplier: raw.slice(0, at) as HotelIdRef['supplier'], id: raw.slice(at + 1) };
  };
  const sellers = (idx: number) => world.stays[idx].listings.map((l) => l.supplier);

  it('in the order asked, each stay once, entries matching nothing unresolved', async () => {
    const a = world.stays[5],
      b = world.stays[900];
    const { candidates, unresolved } = await lookup(
      world.deps,
      baseQuery({ hotelIds: [ref(b.id), ref('nothing-here'), ref(a.id), ref(b.id)] }),
    );
    assert.deepEqual(candidates, [900, 5]);
    assert.deepEqual(unresolved, ['nothing-here']);
  });

  it('a bare supplier id names every stay holding it in any namespace, best-ranked first; a prefixed one only its supplier’s', async () => {
    const holdersOf = (id: string) => world.stays.filter((s) => s.listings.some((l) => l.supplierStayId === id)).map((s) => s.idx);
    const id = world.stays.map((s) => s.listings[0].supplierStayId).find((x) => holdersOf(x).length >= 2)!;
    const holders = holdersOf(id);
    assert.ok(holders.length >= 2, `id ${id} is held by ${holders.length} stays`);
    const bare = await lookup(world.deps, baseQuery({ hotelIds: [ref(id)] }));
    assert.deepEqual(
      bare.candidates,
      [...holders].sort((x, y) => world.stays[x].rank - world.stays[y].rank),
    );
    const supplier = sellers(holders[0])[0];
    const prefixed = await lookup(world.deps, baseQuery({ hotelIds: [ref(`${supplier}:${id}`)] }));
    assert.deepEqual(
      prefixed.candidates,
      holders.filter((idx) => world.stays[idx].listings.some((l) => l.supplier === supplier && l.supplierStayId === id)),
    );
  });

  it("with a single provider, a bare id is read in that supplier's namespace, or as a service id", async () => {
    const stay = world.stays.find((s) => s.listings.length === 1)!;
    const own = stay.listings[0];
    const other = (['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] as const).find((s) => s !== own.supplier)!;
    const inOwn = await lookup(world.deps, baseQuery({ providers: [own.supplier], hotelIds: [ref(own.supplierStayId)] }));
    assert.deepEqual(inOwn.candidates, [stay.idx]);
    const inOther = await lookup(world.deps, baseQuery({ providers: [other], hotelIds: [ref(own.supplierStayId)] }));
    assert.ok(!inOther.candidates.includes(stay.idx), "another supplier's namespace does not hold it");
    const byService = await lookup(world.deps, baseQuery({ providers: [other], hotelIds: [ref(stay.id)] }));
    assert.deepEqual(byService.candidates, [stay.idx], 'a service id names its stay whatever provider says');
  });

  it('a cell filter keeps the named stays inside the cell; those outside are filtered, not unresolved', async () => {
    const a = world.stays[5],
      b = world.stays[900];
    const cell = latLngToCell(a.lat, a.lng, 4);
    assert.notEqual(latLngToCell(b.lat, b.lng, 4), cell, 'the two stays lie in different r4 cells');
    const { candidates, unresolved } = await lookup(world.deps, baseQuery({ cell, hotelIds: [ref(a.id), ref(b.id)] }));
    assert.deepEqual(candidates, [5]);
    assert.deepEqual(unresolved, []);
  });
});
