import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvLine, escapeFormula, unescapeFormula } from './transaction-csv.ts';
import { toRecord } from './transaction.ts';
import { row } from '../test-support/contracts/transaction-store-contract.ts';

// What a spreadsheet may run as a formula: the ASCII starters, tab, CR and LF, and the fullwidth
// forms of = + - @, which some spreadsheets (Excel in East Asian locales) read as the ASCII ones.
const STARTERS = ['=', '+', '-', '@', '\t', '\r', '\n', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

test('escapeFormula: every cell a spreadsheet could run as a formula gets a leading apostrophe', () => {
  for (const start of STARTERS) {
    const value = `${start}HYPERLINK("http://evil.example","x")`;
    assert.equal(escapeFormula(value), `'${value}`, JSON.stringify(start));
    assert.equal(unescapeFormula(escapeFormula(value)), value, JSON.stringify(start));
  }
  for (const value of ['spring-mail', 'Paris, FR', "'quoted", ' =1+1', '', 'A=B']) {
    assert.equal(escapeFormula(value), value, JSON.stringify(value));
    assert.equal(unescapeFormula(value), value, JSON.stringify(value));
  }
});

test('csvLine: a campaign starting with a line feed or a fullwidth ＝ comes back as written, escaped', () => {
  for (const campaign of ['\n=1+1', '\uFF1D1+1', '\uFF0Bcmd', '\uFF0D2', '\uFF20SUM(A1)']) {
    const [cells] = parse(csvLine(toRecord(row('X1', { campaign }))), { relax_column_count: true }) as string[][];
    const cell = cells[6];
    assert.equal(cell, `'${campaign}`, JSON.stringify(campaign));
    assert.equal(unescapeFormula(cell), campaign);
  }
});
