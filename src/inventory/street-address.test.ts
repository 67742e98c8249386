import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streetAddress } from './street-address.ts';

describe('streetAddress', () => {
  it('reads the street and its numbers, not the city and country', () => {
    assert.deepEqual(streetAddress('12 Rue Lafayette, Paris, FR'), { words: ['lafayette'], numbers: ['12'] });
    assert.deepEqual(streetAddress('Calle Mayor, 12, Madrid, ES'), { words: ['mayor'], numbers: ['12'] });
    assert.deepEqual(streetAddress('12-14a Main Street, Line Two, London, GB'), { words: ['main', 'line', 'two'], numbers: ['12', '14a'] });
  });

  it('reads an abbreviated street type as the type', () => {
    const same = [
      ['12 Main Street, X, GB', '12 MAIN ST., X, GB'],
      ['Via Roma 3, X, IT', '3 V. Roma, X, IT'],
      ['4 Piazza del Duomo, X, IT', '4 P.zza del Duomo, X, IT'],
      ['5 Hauptstraße, X, DE', 'Hauptstr. 5, X, DE'],
      ['5 Berliner Straße, X, DE', '5 Berliner Str., X, DE'],
      ['6 Kerkstraat, X, NL', '6 Kerkstr., X, NL'],
      ['7 Calle de la Luna, X, ES', '7 C/ de la Luna, X, ES'],
      ['8 Praça da República, X, PT', '8 Pç. da República, X, PT'],
    ];
    for (const [a, b] of same) assert.deepEqual(streetAddress(a), streetAddress(b), `${a} / ${b}`);
  });

  it('keeps the type when it is all the street has', () => {
    assert.deepEqual(streetAddress('1 Boulevard, X, FR'), { words: ['bd'], numbers: ['1'] });
  });

  it('gives nothing for an address without a street', () => {
    assert.deepEqual(streetAddress('Paris, FR'), { words: [], numbers: [] });
    assert.deepEqual(streetAddress(', Paris, FR'), { words: [], numbers: [] });
    assert.deepEqual(streetAddress(''), { words: [], numbers: [] });
  });
});
