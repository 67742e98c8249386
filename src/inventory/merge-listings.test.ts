import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaults } from '../defaults.ts';
import { generateWorld, type SimListing } from '@staygate/sim';
import { SUPPLIER_IDS, type Listing, type StayType, type SupplierId } from '../types.ts';
import { mergeListings } from './merge-listings.ts';

const METRES_PER_DEGREE = 111_320;

/** A listing `north`/`east` metres from a point in Paris. */
function listing(
  supplier: SupplierId,
  id: string,
  name: string,
  options: { north?: number; east?: number; type?: StayType; address?: string } = {},
): Listing {
  const lat = 48.8566 + (options.north ?? 0) / METRES_PER_DEGREE;
  const lng = 2.3522 + (options.east ?? 0) / (METRES_PER_DEGREE * Math.cos((48.8566 * Math.PI) / 180));
  const type = options.type ?? 'hotel';
  return {
    supplier,
    supplierStayId: id,
    name,
    typeLabel: type,
    type,
    address: options.address ?? '12 Rue Lafayette, Paris, FR',
    lat,
    lng,
    rating: { value: 8, hotelStars: 3, count: 10 },
    capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: '', logoSquare: '' },
  };
}

const ids = (groups: Listing[][]): string[][] => groups.map((group) => group.map((l) => `${l.supplier}:${l.supplierStayId}`));

describe('mergeListings on hand-made cases', () => {
  it('merges one property written differently by several suppliers', () => {
    const groups = mergeListings(
      [
        listing('supplier_a', '1', 'Hôtel Lumière'),
        listing('supplier_b', 'HB1', 'LUMIERE HOTEL', { north: 20 }),
        listing('supplier_c', '1', 'Lumière Hotel - Paris', { east: -35 }),
        listing('supplier_d', '9', 'hotel lumiere paris', { north: 40, east: 10 }),
      ],
      defaults,
    );
    assert.deepEqual(ids(groups), [['supplier_a:1', 'supplier_b:HB1', 'supplier_c:1', 'supplier_d:9']]);
  });

  it('keeps at most one listing per supplier in a group', () => {
    const groups = mergeListings(
      [
        listing('supplier_a', '1', 'Hotel Aurora'),
        listing('supplier_a', '2', 'Hotel Aurora', { north: 10 }),
        listing('supplier_b', 'HB1', 'Aurora Hotel', { north: 5 }),
      ],
      defaults,
    );
    assert.equal(groups.length, 2);
    assert.ok(
      groups.every((group) => new Set(group.map((l) => l.supplier)).size === group.length),
      'groups.every((group) => new Set(group.map((l) => l.supplier)).size === group.length)',
    );
    assert.equal(groups.flat().length, 3);
  });

  it('never merges listings further apart than the maximum distance', () => {
    const far = defaults.mergeMaxDistanceMeters + 20;
    const groups = mergeListings(
      [listing('supplier_a', '1', 'Hotel Aurora'), listing('supplier_b', 'HB1', 'Hotel Aurora', { north: far })],
      defaults,
    );
    assert.equal(groups.length, 2);
  });

  it('never merges a hotel with a rental, nor names that are not alike', () => {
    const groups = mergeListings(
      [
        listing('supplier_a', '1', 'Villa Aurora', { type: 'hotel' }),
        listing('supplier_d', '1', 'Villa Aurora', { type: 'villa', north: 5 }),
        listing('supplier_b', 'HB1', 'Grand Hotel Metropole', { north: 10 }),
        listing('supplier_c', '7', 'Sunrise Suites', { north: 12 }),
      ],
      defaults,
    );
    assert.equal(groups.length, 4);
  });

  it('pairs each chain branch with its own copy, not with the look-alike next door', () => {
    // Two branches of a chain 120 m apart, each sold by two suppliers with jittered coordinates.
    const groups = mergeListings(
      [
        listing('supplier_a', '1', 'Ibis Paris Centre', { address: '3 Rue de Rivoli, Paris, FR' }),
        listing('supplier_a', '2', 'Ibis Paris Gare', { north: 120, address: '40 Rue de la Gare, Paris, FR' }),
        listing('supplier_b', 'HB1', 'IBIS PARIS CENTRE', { north: 50, address: '3 Rue de Rivoli, Paris, FR' }),
        listing('supplier_b', 'HB2', 'Ibis Gare', { north: 75, address: '40 Rue de la Gare, Paris, FR' }),
      ],
      defaults,
    );
    assert.deepEqual(ids(groups), [
      ['supplier_a:1', 'supplier_b:HB1'],
      ['supplier_a:2', 'supplier_b:HB2'],
    ]);
  });

  it('takes the street as written any way for one property, and another door for another', () => {
    const medici = (address: string) => [
      listing('supplier_a', '1', 'Albergo Medici', { address: '33 Via Tornabuoni, Florence, IT' }),
      listing('supplier_b', 'HB1', 'Albergo Medici Atlas', { north: 73, address }),
    ];
    for (const same of ['33 Via Tornabuoni, Florence, IT', 'V. Tornabuoni, 33, Florence, IT', 'VIA TORNABUONI, Florence, IT']) {
      assert.equal(mergeListings(medici(same), defaults).length, 1, same);
    }
    for (const other of ['31 Via Tornabuoni, Florence, IT', '33 Via Cavour, Florence, IT']) {
      assert.equal(mergeListings(medici(other), defaults).length, 2, other);
    }
  });

  it('does not chain A~B and B~C into a group where A and C are too far apart', () => {
    const groups = mergeListings(
      [
        listing('supplier_a', '1', 'Hotel Aurora'),
        listing('supplier_b', 'HB1', 'Hotel Aurora', { north: 100 }),
        listing('supplier_c', '1', 'Hotel Aurora', { north: 200 }),
      ],
      defaults,
    );
    assert.equal(groups.length, 2);
  });

  it('finds the same property across the antimeridian', () => {
    const west = { ...listing('supplier_a', '1', 'Hotel Aurora'), lat: -16.5, lng: 179.9999 };
    const east = { ...listing('supplier_b', 'HB1', 'Aurora Hotel'), lat: -16.5, lng: -179.9999 };
    assert.equal(mergeListings([west, east], defaults).length, 1);
  });

  it('is deterministic and keeps every listing exactly once', () => {
    const input = [
      listing('supplier_a', '1', 'Hotel Aurora'),
      listing('supplier_b', 'HB1', 'Aurora', { north: 30 }),
      listing('supplier_c', '5', 'Sunny flat near the park', { type: 'apartment', north: 400 }),
      listing('supplier_d', '5', 'Sunny flat near the park - Paris', { type: 'apartment', north: 420 }),
    ];
    const first = ids(mergeListings(input, defaults));
    assert.deepEqual(ids(mergeListings(input, defaults)), first);
    assert.deepEqual(first.flat().sort(), input.map((l) => `${l.supplier}:${l.supplierStayId}`).sort());
    assert.deepEqual(mergeListings([], defaults), []);
  });
});

/** Pairwise precision and recall of "same group" against the ground truth. */
function pairwiseQuality(
  listings: readonly SimListing[],
  groups: readonly Listing[][],
): { precision: number; recall: number; merged: number; truePairs: number } {
  let merged = 0;
  let correct = 0;
  for (const group of groups as SimListing[][]) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        merged++;
        if (group[i].propertyId === group[j].propertyId) correct++;
      }
    }
  }
  const perProperty = new Map<number, number>();
  for (const l of listings) perProperty.set(l.propertyId, (perProperty.get(l.propertyId) ?? 0) + 1);
  let truePairs = 0;
  for (const count of perProperty.values()) truePairs += (count * (count - 1)) / 2;
  return { precision: merged === 0 ? 1 : correct / merged, recall: truePairs === 0 ? 1 : correct / truePairs, merged, truePairs };
}

describe('mergeListings on the simulated world', () => {
  it('recovers the ground truth of the default world', (t) => {
    const world = generateWorld({ seed: defaults.simSeed, stays: defaults.simStays });
    const listings = SUPPLIER_IDS.flatMap((supplier) => world.listings[supplier]);
    const started = performance.now();
    const groups = mergeListings(listings, defaults);
    const ms = performance.now() - started;
    const { precision, recall, merged, truePairs } = pairwiseQuality(listings, groups);
    t.diagnostic(`${listings.length} listings of ${world.properties.length} properties -> ${groups.length} groups in ${Math.round(ms)} ms`);
    t.diagnostic(
      `pairwise precision ${precision.toFixed(5)}, recall ${recall.toFixed(5)} (${merged} merged pairs, ${truePairs} true pairs)`,
    );
    // Achieved on seed 42 / 160k: precision 1.0000, recall 0.9966. The margin absorbs simulator tweaks.
    assert.ok(precision >= 0.995, `precision ${precision}`);
    assert.ok(recall >= 0.99, `recall ${recall}`);
    for (const group of groups) assert.equal(new Set(group.map((l) => l.supplier)).size, group.length, 'one listing per supplier');
    assert.equal(groups.flat().length, listings.length, 'every listing in exactly one group');
  });

  it('holds on another seed', (t) => {
    const world = generateWorld({ seed: 7, stays: 40_000 });
    const listings = SUPPLIER_IDS.flatMap((supplier) => world.listings[supplier]);
    const { precision, recall } = pairwiseQuality(listings, mergeListings(listings, defaults));
    t.diagnostic(`seed 7, ${listings.length} listings: precision ${precision.toFixed(5)}, recall ${recall.toFixed(5)}`);
    assert.ok(precision >= 0.995, `precision ${precision}`);
    assert.ok(recall >= 0.99, `recall ${recall}`);
  });
});
