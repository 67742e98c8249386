import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { advanceWorld } from './advance-world.ts';
import { dayCached, dropDayCaches } from './day-cache.ts';
import { generateWorld } from './generate-world.ts';

v8.setFlagsFromString('--expose-gc');
/** A full garbage collection on demand (what --expose-gc gives, without the command-line flag). */
const collectGarbage = vm.runInNewContext('gc') as () => void;

test('a lookup is built once a day, again when the day or the world moves, and never served stale', () => {
  const world = generateWorld({ seed: 5, stays: 2_000 });
  let builds = 0;
  const look = () => dayCached(world, 'count', () => ({ build: ++builds, listings: world.listings.supplier_a.length }));
  const first = look();
  assert.equal(look(), first, 'the same day: the same lookup');
  assert.equal(builds, 1);

  world.listings.supplier_a.pop(); // a world changed in place (as tests do) is another world
  assert.equal(look().listings, first.listings - 1);
  assert.equal(builds, 2);

  advanceWorld(world, 1);
  const advanced = look();
  assert.equal(builds, 3, 'an advance makes every lookup of the day before stale');
  assert.equal(advanced.listings, world.listings.supplier_a.length);

  assert.equal(
    dayCached(world, 'other', () => 'other'),
    'other',
    'lookups are held by name',
  );
  assert.equal(look(), advanced);
  dropDayCaches(world);
  assert.notEqual(look(), advanced, 'dropped: built anew');
  assert.equal(builds, 4);
});

/** In a frame of its own: no register of the test's frame holds the target. */
const weakRefTo = (get: () => object): WeakRef<object> => new WeakRef(get());

test('a lookup of an earlier day is no longer held while its successor is built', async () => {
  const world = generateWorld({ seed: 5, stays: 2_000 });
  const dayZero = weakRefTo(() => dayCached(world, 'a', () => ({ day: 0 })));
  // A WeakRef holds its target until the job that made it ends.
  await new Promise(setImmediate);
  world.day++;
  let heldDuringBuild = true;
  dayCached(world, 'a', () => {
    collectGarbage();
    heldDuringBuild = dayZero.deref() !== undefined;
    return { day: 1 };
  });
  assert.equal(heldDuringBuild, false);
});
