// The behaviour every Geocoder promises, as one node:test suite each implementation runs from its
// own test file (one contract suite per interface, run by every implementation). A remote geocoder is
// run against a local fake that must know "Paris, France"; nothing here needs the internet.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { distanceMeters } from '../../geo/distance.ts';
import type { Geocoder } from '../../geo/geocoder.ts';

/** Paris, Île de la Cité: every source puts the city centre within a few km of it. */
const PARIS = { lat: 48.8566, lng: 2.3522 };
const TOLERANCE_METERS = 5_000;

export function runGeocoderContract(name: string, make: () => Promise<Geocoder>): void {
  describe(`Geocoder contract: ${name}`, () => {
    let geocoder: Geocoder;
    before(async () => {
      geocoder = await make();
    });

    it('resolves a known city to coordinates within a few km, with a label', async () => {
      const place = await geocoder.geocode('Paris, France');
      assert.ok(place, 'expected a match for "Paris, France"');
      const off = distanceMeters(place.lat, place.lng, PARIS.lat, PARIS.lng);
      assert.ok(off < TOLERANCE_METERS, `Paris resolved ${Math.round(off)} m from its centre`);
      assert.equal(typeof place.label, 'string');
      assert.match(place.label, /paris/i);
    });

    it('returns null for gibberish', async () => {
      assert.equal(await geocoder.geocode('qxzvbnw plkjhgf zzyzzv'), null);
    });

    it('returns null for an empty or blank address', async () => {
      assert.equal(await geocoder.geocode(''), null);
      assert.equal(await geocoder.geocode('   '), null);
    });
  });
}
