import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StayIdMap } from './stay-id-map.ts';

describe('StayIdMap', () => {
  it('maps listing keys to stay ids, a key set again taking the new id', () => {
    const map = new StayIdMap();
    map.set('supplier_a:1', 'st1');
    map.set('supplier_b:1', 'st1');
    map.set('supplier_c:1', 'st2');
    map.set('supplier_c:1', 'st3');
    assert.deepEqual(
      ['supplier_a:1', 'supplier_b:1', 'supplier_c:1', 'supplier_d:1', 'supplier_a:10'].map((k) => map.get(k)),
      ['st1', 'st1', 'st3', undefined, undefined],
    );
    assert.equal(map.size, 3);
  });

  it('numbers every stay id once, ever given even when no key has it any more', () => {
    const map = new StayIdMap();
    map.set('supplier_a:1', 'st-a');
    map.set('supplier_a:1', 'st-b');
    assert.equal(map.stayCount, 2);
    assert.equal(map.stayId(map.stayNumber('st-a')), 'st-a');
    assert.equal(map.stayOfKey('supplier_a:1'), map.stayNumber('st-b'));
    assert.equal(map.stayNumber('st-c'), -1);
    assert.equal(map.addStay('st-c'), 2);
    assert.equal(map.addStay('st-a'), 0, 'a given id keeps its number');
    assert.equal(map.stayOfKey('supplier_b:9'), -1);
  });

  it('holds what a Map holds past many growths, keys of any text', () => {
    const map = new StayIdMap();
    const reference = new Map<string, string>();
    // Keys alike but for one unit, in other scripts, empty ids and escapes: told apart all the same.
    for (let i = 0; i < 60_000; i++) {
      const key = i % 3 === 0 ? `supplier_a:${i}` : i % 3 === 1 ? `supplier_b:Ωx${i}\t` : `supplier_d:${'9'.repeat(i % 40)}-${i}`;
      const id = `st${(i * 7) % 45_000}`;
      map.set(key, id);
      reference.set(key, id);
    }
    assert.equal(map.size, reference.size);
    assert.equal(map.stayCount, new Set(reference.values()).size);
    for (const [key, id] of reference) assert.equal(map.get(key), id, key);
    for (let i = 0; i < 1_000; i++) assert.equal(map.get(`supplier_c:${i}`), undefined);
  });
});
