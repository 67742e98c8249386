import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCalendarDay, utcDay } from './calendar-day.ts';

test('isCalendarDay: every real day of years 0000 to 9999, the ends and the first century included', () => {
  for (const day of [
    '0000-01-01',
    '0000-02-29',
    '0001-01-01',
    '0050-06-15',
    '0099-12-31',
    '0100-02-28',
    '1900-02-28',
    '2000-02-29',
    '2026-11-21',
    '9999-12-31',
  ]) {
    assert.equal(isCalendarDay(day), true, day);
  }
});

test('isCalendarDay: no day that does not exist, nothing not written YYYY-MM-DD', () => {
  for (const text of [
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '1900-02-29',
    '0100-02-29',
    '0001-00-01',
    '2026-1-01',
    '10000-01-01',
    '+010000-01-01',
    '-000001-01-01',
    '2026-11-21T00:00:00Z',
    ' 2026-11-21',
    '2026/11/21',
    '',
  ]) {
    assert.equal(isCalendarDay(text), false, text);
  }
});

test('utcDay: the UTC day of a time', () => {
  assert.equal(utcDay(Date.parse('2026-11-21T23:59:59.999Z')), '2026-11-21');
  assert.equal(utcDay(Date.parse('0050-06-15T12:00:00Z')), '0050-06-15');
});
