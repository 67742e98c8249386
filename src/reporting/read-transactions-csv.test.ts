// Reading an affiliate network's CSV export of transactions (docs/transactions-import.md): the
// documented columns, the operator's mapping, the formats taken, and refusals that name the line
// and column of every problem.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommissionRecord } from '../suppliers/supplier.ts';
import { readImportMapping } from './import-mapping.ts';
import {
  describeProblem,
  detectDelimiter,
  IMPORT_COLUMNS,
  readTime,
  readTransactionsCsv,
  TransactionsCsvError,
  type CsvProblem,
  type CsvReading,
} from './read-transactions-csv.ts';

const HEADER = IMPORT_COLUMNS.join(',');

/** A row of the documented export, cells overridden by column. */
function line(cells: Partial<Record<(typeof IMPORT_COLUMNS)[number], string>> = {}): string {
  const base: Record<(typeof IMPORT_COLUMNS)[number], string> = {
    booking_id: 'BK1',
    click_id: 'click-1',
    property_id: '1048576',
    property_name: 'Hotel Lumière',
    city: 'Paris',
    country: 'FR',
    booked_at: '2026-03-01T10:12:00Z',
    checkin: '2026-04-01',
    checkout: '2026-04-04',
    rooms: '1',
    guest_country: 'DE',
    status: 'pending',
    commission: '12.34',
    currency: 'USD',
    usd_rate: '',
    updated_at: '2026-03-01T10:12:00Z',
  };
  return IMPORT_COLUMNS.map((c) => cells[c] ?? base[c]).join(',');
}

const RECORD: CommissionRecord = {
  bookingId: 'BK1',
  clickId: 'click-1',
  supplierStayId: '1048576',
  bookedAt: '2026-03-01T10:12:00.000Z',
  checkin: '2026-04-01',
  checkout: '2026-04-04',
  rooms: 1,
  status: 'Pending',
  commissionUsdCents: 1234,
  propertyName: 'Hotel Lumière',
  destination: 'Paris, FR',
  guestCountry: 'DE',
  updatedAt: '2026-03-01T10:12:00.000Z',
};

const read = (text: string, reading?: CsvReading) => readTransactionsCsv(text, reading);

function problems(text: string | Uint8Array, reading?: CsvReading): CsvProblem[] {
  try {
    readTransactionsCsv(text, reading);
  } catch (error) {
    if (error instanceof TransactionsCsvError) return error.problems;
    throw error;
  }
  assert.fail('the file was accepted');
}

describe('readTransactionsCsv', () => {
  it('reads the documented columns into the records a report gives', () => {
    assert.deepEqual(read(`${HEADER}\n${line()}\n`), { records: [RECORD], rows: 1 });
  });

  it('takes a BOM, CRLF, quoted cells (the delimiter, quotes and line breaks inside), padding, header case and extra columns', () => {
    const text =
      `\uFEFF Booking_ID ,Extra,${IMPORT_COLUMNS.slice(1).join(',')}\r\n` +
      line({ property_name: '"Hotel ""Lumière"", Paris\r\nRive gauche"', city: '  Paris  ' }).replace(/^BK1,/, 'BK1,ignored,') +
      '\r\n';
    const [record] = read(text).records;
    assert.equal(record.propertyName, 'Hotel "Lumière", Paris\r\nRive gauche');
    assert.equal(record.destination, 'Paris, FR');
    assert.equal(record.bookingId, 'BK1');
  });

  it("skips empty lines and rows of empty cells (a spreadsheet's trailing rows), and counts the rows read", () => {
    const empty = IMPORT_COLUMNS.map(() => '').join(',');
    const result = read(`${HEADER}\n\n${line()}\n${empty}\n${line({ booking_id: 'BK2' })}\n${empty}\n`);
    assert.deepEqual(
      result.records.map((r) => r.bookingId),
      ['BK1', 'BK2'],
    );
    assert.equal(result.rows, 2);
  });

  it('detects the delimiter from the header line (quotes aside), or takes the one given', () => {
    assert.equal(detectDelimiter('a;b;"c,d,e"\n1,2,3'), ';');
    assert.equal(detectDelimiter('\uFEFFa\tb\tc\n'), '\t');
    assert.equal(detectDelimiter('a|b|c'), '|');
    assert.equal(detectDelimiter('a'), ',');
    for (const delimiter of [';', '\t', '|']) {
      const text = `${HEADER}\n${line()}\n`.replaceAll(',', delimiter);
      assert.deepEqual(read(text).records, [RECORD], JSON.stringify(delimiter));
      assert.deepEqual(read(text, { delimiter }).records, [RECORD], JSON.stringify(delimiter));
    }
  });

  it('reads ISO 8601 times as UTC: a zone or none (UTC), a space for the T, a fraction, a bare date; refuses what is not a time', () => {
    assert.equal(readTime('2026-03-01T10:12:00Z'), '2026-03-01T10:12:00.000Z');
    assert.equal(readTime('2026-03-01T11:12:00+01:00'), '2026-03-01T10:12:00.000Z');
    assert.equal(readTime('2026-03-01 05:12:00-0500'), '2026-03-01T10:12:00.000Z');
    assert.equal(readTime('2026-03-01T12:12+02'), '2026-03-01T10:12:00.000Z');
    assert.equal(readTime('2026-03-01 10:12:00'), '2026-03-01T10:12:00.000Z');
    assert.equal(readTime('2026-03-01T10:12:00.123456Z'), '2026-03-01T10:12:00.123Z');
    assert.equal(readTime('2026-03-01'), '2026-03-01T00:00:00.000Z');
    for (const bad of [
      '2026-02-30T10:00:00Z',
      '2026-03-01T24:00:00Z',
      '1969-12-31T23:59:59Z',
      '01/03/2026 10:12',
      '1772359920',
      '9999-12-31T23:00:00-05:00',
      '',
    ])
      assert.equal(readTime(bad), null, bad);
  });

  it("maps every status word to Pending, Approved or Canceled (a no-show is Canceled), the operator's own words first", () => {
    const statuses = ['pending', 'Booked', 'APPROVED', 'stayed', 'Paid', 'cancelled', 'No-Show', 'no show', 'declined', 'confirmed'];
    const text = [HEADER, ...statuses.map((status, i) => line({ booking_id: `B${i}`, status }))].join('\n');
    assert.deepEqual(
      read(text, { statuses: { Confirmed: 'Approved', paid: 'Pending' } }).records.map((r) => r.status),
      ['Pending', 'Pending', 'Approved', 'Approved', 'Pending', 'Canceled', 'Canceled', 'Canceled', 'Canceled', 'Approved'],
    );
    const [unknown] = problems(text);
    assert.equal(unknown.line, 11);
    assert.equal(unknown.column, 'status');
    assert.match(
      unknown.message,
      /^"confirmed" is not a status word we know .*; map it: --status "confirmed=Pending\|Approved\|Canceled"$/,
    );
  });

  it("converts a commission to US cents exactly, half up: the row's usd_rate first, else the rate given, with a decimal point or comma", () => {
    const cents = (cells: Parameters<typeof line>[0], reading?: CsvReading) =>
      read(`${HEADER}\n${line(cells)}\n`, reading).records[0].commissionUsdCents;
    assert.equal(cents({ commission: '0.005' }), 1, 'half a cent rounds up');
    assert.equal(cents({ commission: '0.004999' }), 0);
    assert.equal(cents({ commission: '123456789012.99' }), 12_345_678_901_299);
    assert.equal(cents({ commission: '12.34', currency: 'eur', usd_rate: '1.1494252874' }), 1418);
    // 5.05 EUR at 1.1 is 5.555 USD exactly: a float product (5.5549999...) would round down.
    assert.equal(cents({ commission: '5.05', currency: 'EUR', usd_rate: '1.1' }), 556);
    assert.equal(cents({ commission: '5.05', currency: 'EUR' }, { usdRates: { EUR: '1.1' } }), 556);
    assert.equal(
      cents({ commission: '5.05', currency: 'EUR', usd_rate: '2' }, { usdRates: { EUR: '1.1' } }),
      1010,
      "the row's own rate wins",
    );
    assert.equal(cents({ commission: '9.99', usd_rate: '3' }), 999, 'a US dollar row needs no rate, and its usd_rate is not used');
    const comma = `${HEADER}\n${line({ commission: '"12,34"', currency: 'GBP', usd_rate: '"1,25"' })}\n`;
    assert.equal(read(comma, { decimalComma: true }).records[0].commissionUsdCents, 1543);
    assert.equal(
      read(comma.replaceAll(',', ';').replaceAll('"12;34"', '12,34').replaceAll('"1;25"', '1,25'), { decimalComma: true }).records[0]
        .commissionUsdCents,
      1543,
    );
  });

  it("reads an operator's export through a mapping of our columns to theirs, with one currency for a file without that column", () => {
    const theirs: Record<string, string> = {
      booking_id: 'Order ID',
      click_id: 'SubID',
      property_id: 'Hotel Code',
      property_name: 'Hotel',
      city: 'City',
      country: 'Country',
      booked_at: 'Order Date',
      checkin: 'Arrival',
      checkout: 'Departure',
      rooms: 'Rooms',
      guest_country: 'Customer Country',
      status: 'Order Status',
      commission: 'Commission (EUR)',
      updated_at: 'Last Modified',
    };
    const columns = IMPORT_COLUMNS.filter((c) => c !== 'currency' && c !== 'usd_rate');
    const text = `${columns.map((c) => theirs[c]).join(';')}\n${columns.map((c) => line().split(',')[IMPORT_COLUMNS.indexOf(c)]).join(';')}\n`;
    const reading: CsvReading = { columns: theirs, currency: 'EUR', usdRates: { EUR: '1.1' } };
    assert.deepEqual(read(text, reading).records, [{ ...RECORD, commissionUsdCents: 1357 }]);
    const missing = problems(text, { columns: { ...theirs, booking_id: 'Booking Ref' }, currency: 'EUR', usdRates: { EUR: '1.1' } });
    assert.deepEqual(missing, [
      {
        line: 1,
        column: 'booking_id',
        header: 'Booking Ref',
        message: 'the header has no column "Booking Ref" (map it: --map booking_id=<their column>)',
      },
    ]);
    const [noCurrency] = problems(text, { columns: theirs });
    assert.equal(noCurrency.column, 'currency');
    assert.match(noCurrency.message, /--currency <ISO 4217>/);
  });

  it('refuses the whole file over any bad row, naming the line (where a record starts) and column of every problem', () => {
    const text = [
      HEADER,
      line({ property_name: '"Two\nlines"' }),
      line({ booking_id: 'BK2', commission: '"12,5"', checkout: '2026-04-01', status: 'weird' }),
      line({ booking_id: 'BK3' }),
      line({ booking_id: '', booked_at: 'yesterday', rooms: '0', country: 'France', guest_country: 'xx1' }),
      line({ booking_id: 'BK5', currency: 'EUR' }),
      line({ booking_id: 'BK6', currency: 'EUR', usd_rate: '0' }),
      `${line({ booking_id: 'BK7' })},extra`,
    ].join('\n');
    let error: unknown;
    try {
      readTransactionsCsv(text);
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof TransactionsCsvError, 'refused');
    assert.deepEqual(
      error.problems.map((p) => `${p.line} ${p.column ?? '-'}`),
      [
        '4 checkout',
        '4 status',
        '4 commission',
        '6 booking_id',
        '6 country',
        '6 booked_at',
        '6 rooms',
        '6 guest_country',
        '7 usd_rate',
        '8 usd_rate',
        '9 -',
      ],
    );
    const lines = error.message.split('\n');
    assert.equal(lines.length, 11);
    assert.equal(lines[0], 'line 4, column checkout: 2026-04-01 is not after the check-in 2026-04-01');
    assert.equal(
      lines[2],
      'line 4, column commission: "12,5" is not an amount of 0 or more with a decimal point and no thousands separators (a decimal comma: --decimal-comma)',
    );
    assert.equal(
      lines[8],
      'line 7, column usd_rate: a commission in EUR needs its rate: a usd_rate column (US dollars per EUR) or --usd-rate EUR=<US dollars per EUR>',
    );
    assert.equal(lines[10], 'and 1 more', 'ten problems named in the message');
    assert.equal(
      describeProblem(error.problems[10]),
      `line 9: ${IMPORT_COLUMNS.length + 1} cells where the header has ${IMPORT_COLUMNS.length}`,
    );
    // The header's problems come first, alone.
    assert.deepEqual(problems(`${HEADER.replace('status', 'state')},booking_id\n${line()}\n`), [
      { line: 1, column: 'booking_id', header: undefined, message: 'the header names "booking_id" 2 times' },
      { line: 1, column: 'status', header: undefined, message: 'the header has no column "status" (map it: --map status=<their column>)' },
    ]);
  });

  it('reads UTF-8 bytes and UTF-16 with its BOM; refuses other bytes, an empty file and broken quoting', () => {
    const text = `${HEADER}\n${line()}\n`;
    assert.deepEqual(readTransactionsCsv(Buffer.from(text, 'utf8')).records, [RECORD]);
    assert.deepEqual(readTransactionsCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])).records, [RECORD]);
    assert.match(problems(Buffer.from(text, 'latin1'))[0].message, /not UTF-8 text/);
    assert.deepEqual(problems(''), [{ line: 1, message: 'the file is empty: a header row is needed' }]);
    const [quote] = problems(`${HEADER}\n${line()}\n${line({ property_name: '"open' })}\n`);
    assert.equal(quote.line, 3);
    assert.match(quote.message, /^not readable as CSV: /);
  });
});

describe('readImportMapping', () => {
  it('reads columns and statuses, and says what in a mapping is wrong', () => {
    assert.deepEqual(readImportMapping('{"columns": {"booking_id": " Order ID "}, "statuses": {"confirmed": "approved"}}'), {
      columns: { booking_id: 'Order ID' },
      statuses: { confirmed: 'Approved' },
    });
    assert.deepEqual(readImportMapping('{}'), { columns: {}, statuses: {} });
    for (const [json, message] of [
      ['[]', /the mapping must be a JSON object/],
      ['{"column": {}}', /unknown key "column"/],
      ['{"columns": {"booking": "Order"}}', /"booking" is not one of our columns/],
      ['{"columns": {"booking_id": 3}}', /columns\.booking_id must be a non-empty string/],
      ['{"statuses": {"ok": "Done"}}', /"ok" must map to Pending, Approved, Canceled, not "Done"/],
      ['{', /JSON/],
    ] as const)
      assert.throws(() => readImportMapping(json), message, json);
  });
});
