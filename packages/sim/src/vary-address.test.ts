import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitAddress } from './split-address.ts';
import { varyAddress } from './vary-address.ts';

describe('varyAddress', () => {
  const address = '12 Via della Scala, Rome, IT';
  const variants = Array.from({ length: 400 }, (_, propertyId) => varyAddress(address, propertyId, 'supplier_b'));

  it('is the same for the same listing, and keeps the city and country', () => {
    assert.equal(varyAddress(address, 3, 'supplier_c'), varyAddress(address, 3, 'supplier_c'));
    for (const variant of variants) {
      const { city, countryCode } = splitAddress(variant);
      assert.deepEqual([city, countryCode], ['Rome', 'IT']);
    }
  });

  it('writes each kind of variation, and leaves about two in five as they were', () => {
    const seen = new Set(variants);
    for (const expected of [
      '12 Via della Scala, Rome, IT',
      '12 V. della Scala, Rome, IT',
      'Via della Scala 12, Rome, IT',
      'Via della Scala, 12, Rome, IT',
      'Via della Scala, Rome, IT',
      '12 VIA DELLA SCALA, Rome, IT',
    ]) {
      assert.ok(seen.has(expected), expected);
    }
    const unchanged = variants.filter((v) => v === address).length / variants.length;
    assert.ok(unchanged > 0.3 && unchanged < 0.5, `${unchanged}`);
  });

  it('abbreviates fused German and Dutch street types', () => {
    const german = new Set(Array.from({ length: 100 }, (_, id) => varyAddress('5 Hauptstraße, Berlin, DE', id, 'supplier_c')));
    assert.ok(german.has('5 Hauptstr., Berlin, DE'), [...german].join(' | '));
    const dutch = new Set(Array.from({ length: 100 }, (_, id) => varyAddress('5 Kerkstraat, Utrecht, NL', id, 'supplier_c')));
    assert.ok(dutch.has('5 Kerkstr., Utrecht, NL'), [...dutch].join(' | '));
  });
});
