// Pins the generated world byte for byte (issue 22): the generator was made compact (shared
// capacity and policy objects, flat strings, ids drawn against bitmaps, feed order sorted without an
// object per listing) and must answer exactly as before for a seed and size. Every feed writes
// what the world holds (the routes read nothing else), so the same world serialised is the same
// feeds. The digests were taken from the generator before that change; a deliberate change of the
// world updates them here, with the reason in the commit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateWorld } from './generate-world.ts';

const digest = (seed: number, stays: number): string => {
  const world = generateWorld({ seed, stays });
  return createHash('sha256')
    .update(JSON.stringify({ properties: world.properties, listings: world.listings }))
    .digest('hex');
};

describe('generateWorld: the same world for a seed and size as before it was made compact', () => {
  it('seed 42, 3,000 stays', () => {
    assert.equal(digest(42, 3_000), '71d3d19c003d111176b7a07e4965a5330d2ce0ba71ffe3f201c55f288fb196d1');
  });
  it('seed 7, 20,000 stays', () => {
    assert.equal(digest(7, 20_000), '79c39e37c2551c7a0fc3f29fc76cfcd6200826f5a14ccab9519e1e13e724055b');
  });
});
