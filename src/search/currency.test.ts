import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveCurrency, fromUsd, ratePerUsd, roundMoney, toUsd } from './currency.ts';

test('a currency we hold no rate for falls back to USD; one we hold is kept', () => {
  assert.equal(effectiveCurrency('EUR'), 'EUR');
  assert.equal(effectiveCurrency('USD'), 'USD');
  assert.equal(effectiveCurrency('XTS'), 'USD');
  assert.equal(ratePerUsd('XTS'), undefined);
});

test('amounts convert through USD at the table rate', () => {
  assert.equal(toUsd(86.2, 'EUR'), 100);
  assert.equal(toUsd(5, 'XTS'), null, 'no rate, no USD amount');
  assert.equal(fromUsd(100, 'EUR'), 86.2);
  assert.equal(fromUsd(100, 'JPY'), 15_320);
});

test("money is rounded to the currency's minor unit", () => {
  assert.equal(roundMoney(1.236, 'EUR'), 1.24);
  assert.equal(roundMoney(153.6, 'JPY'), 154, 'the yen has no minor unit');
  assert.equal(fromUsd(1.003, 'USD'), 1);
});
