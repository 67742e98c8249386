import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { Violations } from '../../errors/api-error.ts';
import { compileQuery, type RawQuery } from './compile-query.ts';

const parse = compileQuery(
  Type.Partial(
    Type.Object({
      lat: Type.Number({ minimum: -90, maximum: 90, expected: 'a number from -90 to 90' }),
      pageSize: Type.Integer({ minimum: 1, maximum: 100, expected: 'an integer from 1 to 100' }),
      provider: Type.Array(Type.String()),
      lang: Type.String({ pattern: '^[a-z]{2}$' }),
    }),
  ),
);

function run(raw: RawQuery): { value: Record<string, unknown>; violations: string[] } {
  const violations = new Violations();
  const value = parse(raw, violations) as Record<string, unknown>;
  return { value, violations: violations.list.map((v) => `${v.param}: ${v.message}`) };
}

describe('compileQuery', () => {
  it('reads decimal numbers as a person writes them', () => {
    for (const [text, number] of [
      ['12', 12],
      ['-0.5', -0.5],
      ['+3', 3],
      ['.5', 0.5],
      ['1e1', 10],
      [' 7 ', 7],
    ] as const) {
      assert.deepEqual(run({ lat: text }), { value: { lat: number }, violations: [] }, text);
    }
  });

  it('reports what was expected for anything else, without guessing a number', () => {
    for (const text of ['0x10', '1,5', 'true', 'NaN', 'Infinity', '1e400', '12abc', '--1']) {
      const { value, violations } = run({ lat: text });
      assert.deepEqual(value, {}, text);
      assert.deepEqual(violations, ['lat: lat: expected a number from -90 to 90'], text);
    }
  });

  it('does not truncate a fraction given for an integer', () => {
    assert.deepEqual(run({ pageSize: '1.5' }).violations, ['pageSize: pageSize: expected an integer from 1 to 100']);
    assert.deepEqual(run({ pageSize: '20' }).value, { pageSize: 20 });
  });

  it('collects every failure, drops the failed values and keeps the good ones', () => {
    const { value, violations } = run({ lat: '91', pageSize: '0', lang: 'english', provider: ['a'] });
    assert.deepEqual(value, { provider: ['a'] });
    assert.equal(violations.length, 3);
  });

  it('ignores unknown and empty parameters, takes arrays repeated and refuses a scalar given twice', () => {
    assert.deepEqual(run({ other: 'x', lang: '', provider: ['a', 'b'] }), { value: { provider: ['a', 'b'] }, violations: [] });
    assert.deepEqual(run({ lat: ['1', '2'] }).violations, ['lat: lat was given 2 times; give it once']);
  });
});
