// `staygate transactions import`, the installed command as an operator runs it, on the data folder
// of a running test gateway (SQLite) and on PostgreSQL (DATABASE_URL): the simulator's CSV export
// of real clicks' bookings, the operator's own export read through a mapping, a bad row, wrong
// usage, and what `transactions status` says afterwards.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { CliIo } from '../cli/cli-io.ts';
import { main } from '../cli/main.ts';
import { IMPORT_HELP } from '../cli/transactions-import-command.ts';
import { createTestSchema, skipWithoutPostgres, type TestSchema } from '../test-support/pg.ts';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';

const BIN = fileURLToPath(new URL('../../bin/staygate.js', import.meta.url));
const DAY = 86_400_000;
let t: TestApp;
let env: NodeJS.ProcessEnv;
let dir: string;
/** The simulator's export of supplier_b's bookings, and how many rows it has. */
let exported: string;
let rows: number;

/** The real command, as an operator runs it. */
function staygate(extra: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...env, ...extra } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
    );
  });
}

/** A file in the test's folder. */
function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const SUMMARY = /^supplier_b: (\d+) rows? of (\S+) imported: (\d+) new, (\d+) updated, (\d+) unchanged, (\d+) unattributed \(\d+ ms\)\n$/;

before(async () => {
  t = await startTestApp({ stays: 2_000, app: { geocoder: { geocode: async () => null } } });
  dir = mkdtempSync(path.join(tmpdir(), 'staygate-import-cli-'));
  const key = await t.createKey({ aid: 'aff-csv', thirdParties: ['shop'] });
  const cities: [number, number][] = [
    [48.8566, 2.3522],
    [51.5074, -0.1278],
    [41.9028, 12.4964],
    [40.7128, -74.006],
    [41.3874, 2.1686],
    [52.3676, 4.9041],
    [35.6762, 139.6503],
    [38.7223, -9.1393],
    [50.0755, 14.4378],
    [13.7563, 100.5018],
  ];
  // Which clicks book is a function of their random ids (about one in eight): the cities again,
  // round after round (each click a new id), until five have booked.
  for (let i = 0; i < cities.length * 5 && t.sim.ledger.bookings('supplier_b').length < 5; i++) {
    const [lat, lng] = cities[i % cities.length]!;
    const res = await t.get(`/v3/accommodations?lat=${lat}&lng=${lng}&pageSize=100`, { 'x-api-key': key });
    for (const stay of res.body.results as any[]) {
      const entry = (stay.suppliers as Record<string, { link: string }>).supplier_b;
      if (entry === undefined) continue;
      const url = new URL(entry.link);
      const go = await t.app.http.inject({ url: url.pathname + url.search, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' } });
      await (await fetch(String(go.headers.location))).arrayBuffer();
    }
  }
  t.clock.advance(60 * DAY);
  const res = await fetch(`${t.sim.controlUrl}/exports/transactions.csv?supplier=supplier_b&from=2020-01-01T00:00:00Z`);
  exported = await res.text();
  rows = exported.trimEnd().split('\r\n').length - 1;
  assert.ok(rows >= 5, `${rows} bookings to import (${t.sim.ledger.bookings('supplier_b').length} booked)`);
  env = { ...process.env, STAYGATE_DATA_DIR: t.dataDir };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('staygate transactions import', () => {
  it('imports the export once (exit 0, a summary line); again, nothing changes; status shows the last import', async () => {
    const csv = file('transactions-b.csv', exported);
    const first = await staygate({}, 'transactions', 'import', '--supplier', 'supplier_b', csv);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(SUMMARY.exec(first.stdout)?.slice(1), [String(rows), 'transactions-b.csv', String(rows), '0', '0', '0']);
    const again = await staygate({}, 'transactions', 'import', '--supplier', 'supplier_b', csv);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(SUMMARY.exec(again.stdout)?.slice(1), [String(rows), 'transactions-b.csv', '0', '0', String(rows), '0']);
    const status = await staygate({}, 'transactions', 'status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^${rows} transactions, 0 owned by no partner`));
    assert.match(
      status.stdout,
      new RegExp(
        `\\nsupplier_b: ${rows} transactions, never synced; last import \\S+Z of transactions-b\\.csv: ${rows} rows, 0 new, 0 updated, ${rows} unchanged, 0 unattributed\\n`,
      ),
    );
    assert.match(status.stdout, /\nsupplier_a: 0 transactions, never synced\n/);
  });

  it("reads the operator's own export through a mapping file, --map, --status and its delimiter: the same transactions", async () => {
    // The same bookings as a network writes them: its own headers, `;`, its own status words, a decimal comma.
    const theirs: Record<string, string> = { booking_id: 'Order ID', click_id: 'Sub ID', commission: 'Commission', status: 'State' };
    const words: Record<string, string> = { pending: 'Open', approved: 'Confirmed', canceled: 'Storno', no_show: 'No-Show' };
    const records = parse(exported, { columns: true }) as Record<string, string>[];
    const header = Object.keys(records[0]).map((c) => theirs[c] ?? c);
    const text = stringify(
      [
        header,
        ...records.map((r) =>
          Object.entries(r).map(([c, v]) => (c === 'status' ? words[v] : c === 'commission' || c === 'usd_rate' ? v.replace('.', ',') : v)),
        ),
      ],
      { delimiter: ';' },
    );
    const mapping = file(
      'mapping.json',
      JSON.stringify({ columns: { booking_id: 'Order ID', click_id: 'Sub ID' }, statuses: { storno: 'Canceled' } }),
    );
    const csv = file('their-export.csv', `\uFEFF${text}`);
    const result = await staygate(
      {},
      ...['transactions', 'import', '--supplier', 'supplier_b', '--mapping', mapping, '--map', 'commission=Commission,status=State'],
      ...['--status', 'confirmed=Approved', '--delimiter', ';', '--decimal-comma', csv],
    );
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(SUMMARY.exec(result.stdout)?.slice(1), [String(rows), 'their-export.csv', '0', '0', String(rows), '0']);
  });

  it('refuses a file with a bad row: exit 1, its line and column, nothing imported', async () => {
    const lines = exported.split('\r\n');
    // A booking not held yet, and on line 4 an update time that is no time.
    lines.splice(1, 0, lines[1].replace(/^[^,]+/, 'BK-NEW'));
    lines[3] = lines[3].replace(/,[^,]+$/, ',next tuesday');
    const result = await staygate({}, 'transactions', 'import', '--supplier', 'supplier_b', file('bad.csv', lines.join('\r\n')));
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      `staygate: ${path.join(dir, 'bad.csv')}: nothing imported, 1 problem:\n` +
        '  line 4, column updated_at: "next tuesday" is not an ISO 8601 time (2026-03-01T10:12:00Z)\n',
    );
    const status = await staygate({}, 'transactions', 'status');
    assert.match(status.stdout, new RegExp(`^${rows} transactions,`), 'BK-NEW not imported');
    assert.match(status.stdout, /of their-export\.csv/, 'the last import is still the previous one');
  });

  it('says what is wrong with the command line (exit 2) before it opens anything, and with a file it cannot read (exit 1)', async () => {
    const usage = await staygate({ STAYGATE_DATA_DIR: path.join(dir, 'nowhere') }, 'transactions', 'import', 'transactions-b.csv');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^staygate: transactions import needs --supplier <id>\n/);
    const out: string[] = [];
    const io: CliIo = { out: (line) => out.push(line), err: (line) => out.push(line) };
    const run = async (...args: string[]) => {
      out.length = 0;
      return [await main(['transactions', 'import', ...args], io, env), out[0]] as const;
    };
    const csv = path.join(dir, 'transactions-b.csv');
    assert.deepEqual(await run('--help'), [0, IMPORT_HELP]);
    assert.match(IMPORT_HELP, /^Usage: staygate transactions import --supplier <id> \[options\] FILE\.csv\n/);
    for (const [args, message] of [
      [['--supplier', 'supplier_x', csv], /--supplier must be one of supplier_a, supplier_b, supplier_c, supplier_d, not "supplier_x"/],
      [['--supplier', 'supplier_b'], /needs the CSV file/],
      [['--supplier', 'supplier_b', csv, csv], /takes one CSV file/],
      [['--supplier', 'supplier_b', '--map', 'booking=Order', csv], /--map: "booking" is not one of our columns/],
      [['--supplier', 'supplier_b', '--map', 'booking_id', csv], /--map takes <name>=<value> items, not "booking_id"/],
      [['--supplier', 'supplier_b', '--status', 'ok=Done', csv], /--status: "ok" must map to Pending, Approved or Canceled, not "Done"/],
      [['--supplier', 'supplier_b', '--delimiter', ':', csv], /--delimiter must be , ; \| or tab/],
      [['--supplier', 'supplier_b', '--currency', 'euro', csv], /--currency must be an ISO 4217 code/],
      [['--supplier', 'supplier_b', '--usd-rate', 'EUR=0', csv], /--usd-rate: "0" is not a rate above 0/],
      [['--supplier', 'supplier_b', '--colour', 'red', csv], /Unknown option '--colour'/],
    ] as const) {
      const [code, line] = await run(...args);
      assert.equal(code, 2, args.join(' '));
      assert.match(line, message);
    }
    assert.deepEqual(await run('--supplier', 'supplier_b', path.join(dir, 'missing.csv')), [
      1,
      `staygate: cannot read ${path.join(dir, 'missing.csv')}: ENOENT: no such file or directory, open '${path.join(dir, 'missing.csv')}'; nothing imported`,
    ]);
    const [code, line] = await run('--supplier', 'supplier_b', '--mapping', file('broken.json', '{"columns": []}'), csv);
    assert.deepEqual(
      [code, line],
      [1, `staygate: the mapping ${path.join(dir, 'broken.json')} is not usable: "columns" must be a JSON object; nothing imported`],
    );
  });
});

describe('staygate transactions import on PostgreSQL', { skip: await skipWithoutPostgres() }, () => {
  let schema: TestSchema;
  let pg: NodeJS.ProcessEnv;
  before(async () => {
    schema = await createTestSchema();
    // No SQLite file here: the command migrates the database of DATABASE_URL and writes there.
    pg = { STAYGATE_DATA_DIR: mkdtempSync(path.join(dir, 'pg-')), DATABASE_URL: schema.url };
  });
  after(async () => {
    await schema.drop();
  });

  it('imports once, then changes nothing; a bad row imports nothing; status shows the last import', async () => {
    const csv = file('transactions-b.csv', exported);
    const first = await staygate(pg, 'transactions', 'import', '--supplier', 'supplier_b', csv);
    assert.equal(first.code, 0, first.stderr);
    // The clicks are in the gateway's SQLite file, not in this database: nobody's transactions.
    assert.deepEqual(SUMMARY.exec(first.stdout)?.slice(1), [String(rows), 'transactions-b.csv', String(rows), '0', '0', String(rows)]);
    const again = await staygate(pg, 'transactions', 'import', '--supplier', 'supplier_b', csv);
    assert.deepEqual(SUMMARY.exec(again.stdout)?.slice(1), [String(rows), 'transactions-b.csv', '0', '0', String(rows), String(rows)]);
    const bad = exported.replace(/\r\n([^,]+),/, '\r\nBK-NEW,').replace(/,EUR,/, ',Euro,');
    const refused = await staygate(pg, 'transactions', 'import', '--supplier', 'supplier_b', file('bad.csv', bad));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /\n {2}line \d+, column currency: "Euro" is not an ISO 4217 currency code\n/);
    const status = await staygate(pg, 'transactions', 'status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^${rows} transactions, ${rows} owned by no partner`));
    assert.match(
      status.stdout,
      new RegExp(`last import \\S+Z of transactions-b\\.csv: ${rows} rows, 0 new, 0 updated, ${rows} unchanged, ${rows} unattributed\\n`),
    );
  });
});
