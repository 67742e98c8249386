// The simulator is its own package (packages/sim) with its own definitions of the supplier ids and
// stay types it speaks; the adapters read its feeds with the gateway's. The two lists must be the
// same, in the same order.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as sim from '@staygate/sim';
import { RENTAL_TYPES, STAY_TYPES, SUPPLIER_IDS } from './types.ts';

it("the simulator speaks the gateway's supplier ids and stay types, in the same order", () => {
  assert.deepEqual(sim.SUPPLIER_IDS, SUPPLIER_IDS);
  assert.deepEqual(sim.RENTAL_TYPES, RENTAL_TYPES);
  assert.deepEqual(sim.STAY_TYPES, STAY_TYPES);
});
