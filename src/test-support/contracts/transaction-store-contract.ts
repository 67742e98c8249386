// The behaviour every TransactionStore must have; each implementation's test calls
// runTransactionStoreContract (a PostgreSQL store joins by calling it with its own factory).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { TransactionRow } from '../../reporting/transaction.ts';
import { TRANSACTION_FIELDS } from '../../reporting/transaction.ts';
import { CSV_HEADER, csvLine, unescapeFormula } from '../../reporting/transaction-csv.ts';
import type { TransactionQuery, TransactionStore } from '../../reporting/transaction-store.ts';
import type { TwoHandles } from '../two-handles.ts';

export function row(bookingId: string, overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    supplier: 'supplier_a',
    bookingId,
    clickId: `ck-${bookingId}`,
    aid: 'aff-1',
    partnerId: 'p1',
    campaign: 'spring-mail',
    device: 'mobile',
    bookedAt: '2026-03-01T10:00:00.000Z',
    startDate: '2026-04-01',
    endDate: '2026-04-04',
    status: 'Pending',
    commissionCents: 1234,
    quantity: 3,
    information: 'Hotel Lumière, 3 nights, 1 room',
    destination: 'Paris, FR',
    userCountry: 'DE',
    lastUpdated: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const SYNC = { syncedThrough: '2026-11-21T10:00:00.000Z', syncedAt: '2026-11-21T10:00:01.000Z' };

function query(overrides: Partial<TransactionQuery> = {}): TransactionQuery {
  return {
    partnerId: 'p1',
    dateFilter: 'lastUpdatedDate',
    startDate: '2025-01-01',
    endDate: '2027-12-31',
    limit: 500,
    page: 0,
    ...overrides,
  };
}

async function csvText(store: TransactionStore, q: TransactionQuery): Promise<string> {
  let text = CSV_HEADER;
  for await (const chunk of store.csvPage(q)) text += chunk;
  return text;
}

async function csvRows(store: TransactionStore, q: TransactionQuery): Promise<Record<string, string>[]> {
  return parse(await csvText(store, q), { columns: true }) as Record<string, string>[];
}

/** Every permutation of a small list. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/**
 * `makeStore`: a fresh, empty store. `makeTwo`: two handles on one fresh database (absent for a
 * database only one handle can reach, such as SQLite's ':memory:').
 */
export function runTransactionStoreContract(
  name: string,
  makeStore: () => Promise<TransactionStore>,
  makeTwo?: () => Promise<TwoHandles<TransactionStore>>,
): void {
  describe(`TransactionStore contract: ${name}`, () => {
    let store: TransactionStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('keeps every field and tells new, updated and unchanged apart', async () => {
      const a = row('A1');
      assert.deepEqual(await store.applyReport('supplier_a', [a], SYNC), {
        received: 1,
        inserted: 1,
        updated: 0,
        unchanged: 0,
        changes: [{ bookingId: 'A1', lastUpdated: a.lastUpdated, kind: 'new' }],
      });
      assert.deepEqual(await store.get('supplier_a', 'A1'), a);
      const approved = row('A1', { status: 'Approved', lastUpdated: '2026-04-20T00:00:00.000Z' });
      assert.deepEqual(await store.applyReport('supplier_a', [approved, a], SYNC), {
        received: 2,
        inserted: 0,
        updated: 1,
        unchanged: 1,
        changes: [{ bookingId: 'A1', lastUpdated: approved.lastUpdated, kind: 'newer' }],
      });
      assert.deepEqual(await store.get('supplier_a', 'A1'), approved);
      assert.deepEqual(await store.applyReport('supplier_a', [approved], SYNC), {
        received: 1,
        inserted: 0,
        updated: 0,
        unchanged: 1,
        changes: [],
      });
    });

    it('ends in the same rows whatever order and however often the versions arrive', async () => {
      const versions = [
        row('B1', { supplier: 'supplier_b', lastUpdated: '2026-03-01T10:00:00.000Z' }),
        row('B1', { supplier: 'supplier_b', status: 'Canceled', commissionCents: 0, lastUpdated: '2026-03-05T10:00:00.000Z' }),
        // Same time as the one before, other content: the tie is settled by content, not by arrival.
        row('B1', { supplier: 'supplier_b', status: 'Approved', lastUpdated: '2026-03-05T10:00:00.000Z' }),
        row('B2', { supplier: 'supplier_b', lastUpdated: '2026-03-02T10:00:00.000Z' }),
      ];
      const outcomes = new Set<string>();
      for (const order of permutations(versions)) {
        const fresh = await makeStore();
        try {
          // Each version in a report of its own, then all of them replayed at once.
          for (const version of order) await fresh.applyReport('supplier_b', [version], SYNC);
          await fresh.applyReport('supplier_b', order, SYNC);
          outcomes.add(JSON.stringify([await fresh.get('supplier_b', 'B1'), await fresh.get('supplier_b', 'B2')]));
        } finally {
          await fresh.close();
        }
      }
      assert.equal(outcomes.size, 1, [...outcomes].join('\n'));
      const [b1] = JSON.parse([...outcomes][0]) as TransactionRow[];
      assert.equal(b1.lastUpdated, '2026-03-05T10:00:00.000Z');
    });

    it('applies a report all or nothing', async () => {
      await store.applyReport('supplier_a', [row('C1')], SYNC);
      await assert.rejects(
        store.applyReport('supplier_a', [row('C2'), row('C3', { supplier: 'supplier_b' })], {
          ...SYNC,
          syncedThrough: '2026-12-01T00:00:00.000Z',
        }),
      );
      assert.equal(await store.get('supplier_a', 'C2'), null);
      assert.equal((await store.syncState('supplier_a')).syncedThrough, SYNC.syncedThrough, 'the failed report did not move the period on');
    });

    it("moves a supplier's synced period only forward", async () => {
      assert.deepEqual(await store.syncState('supplier_c'), { syncedThrough: null, syncedAt: null });
      await store.applyReport('supplier_c', [], { syncedThrough: '2026-11-21T10:00:00.000Z', syncedAt: '2026-11-21T10:00:01.000Z' });
      await store.applyReport('supplier_c', [], { syncedThrough: '2026-11-20T10:00:00.000Z', syncedAt: '2026-11-21T10:05:00.000Z' });
      assert.deepEqual(await store.syncState('supplier_c'), {
        syncedThrough: '2026-11-21T10:00:00.000Z',
        syncedAt: '2026-11-21T10:05:00.000Z',
      });
    });

    it('applies an import as a report (newest wins, all or nothing), keeps it as the last import and moves no synced period', async () => {
      const run = { file: 'export-b.csv', importedAt: '2026-11-21T10:00:00.000Z', unattributed: 1 };
      const pending = row('I1', { supplier: 'supplier_b' });
      const approved = row('I1', { supplier: 'supplier_b', status: 'Approved', lastUpdated: '2026-04-20T00:00:00.000Z' });
      assert.deepEqual(await store.applyImport('supplier_b', [approved, pending, row('I2', { supplier: 'supplier_b' })], run), {
        received: 3,
        inserted: 2,
        updated: 0,
        unchanged: 1,
        changes: [
          { bookingId: 'I1', lastUpdated: approved.lastUpdated, kind: 'new' },
          { bookingId: 'I2', lastUpdated: pending.lastUpdated, kind: 'new' },
        ],
      });
      assert.deepEqual(await store.get('supplier_b', 'I1'), approved, 'the older row did not replace the newer state');
      // The same file again: nothing changes but the record of the import.
      const again = { ...run, importedAt: '2026-11-21T11:00:00.000Z' };
      const second = await store.applyImport('supplier_b', [approved, pending, row('I2', { supplier: 'supplier_b' })], again);
      assert.deepEqual([second.inserted, second.updated, second.unchanged, second.changes], [0, 0, 3, []]);
      // A report of the same booking meets the import's version like any other.
      assert.equal((await store.applyReport('supplier_b', [pending], SYNC)).unchanged, 1);
      await assert.rejects(store.applyImport('supplier_b', [row('I3', { supplier: 'supplier_b' }), row('I4')], run));
      assert.equal(await store.get('supplier_b', 'I3'), null, 'a failed import applied nothing');
      const stats = await store.stats();
      assert.deepEqual(stats.bySupplier.supplier_b.lastImport, { ...again, rows: 3, inserted: 0, updated: 0, unchanged: 3 });
      assert.equal(stats.bySupplier.supplier_b.transactions, 2);
      assert.equal(stats.bySupplier.supplier_b.syncedThrough, SYNC.syncedThrough, 'only the report moved the period');
      assert.equal(stats.bySupplier.supplier_a.lastImport, null);
      assert.deepEqual(await store.syncState('supplier_c'), { syncedThrough: null, syncedAt: null });
    });

    it("shows a partner its own transactions only, and gives unowned ones to an aid's new owner", async () => {
      await store.applyReport(
        'supplier_a',
        [
          row('P1'),
          row('P2', { partnerId: 'p2', aid: 'aff-2' }),
          row('U1', { partnerId: null, aid: 'aff-3' }),
          row('U2', { partnerId: null, aid: null, clickId: null }),
        ],
        SYNC,
      );
      assert.deepEqual(
        (await store.query(query())).records.map((r) => r.bookingId),
        ['P1'],
      );
      assert.deepEqual(
        (await store.query(query({ partnerId: 'p2' }))).records.map((r) => r.bookingId),
        ['P2'],
      );
      assert.equal((await store.stats()).unattributed, 2);
      assert.equal(
        await store.assignPartners(
          new Map([
            ['aff-3', 'p3'],
            ['aff-1', 'p9'],
          ]),
        ),
        1,
        'owned transactions keep their owner',
      );
      assert.deepEqual(
        (await store.query(query({ partnerId: 'p3' }))).records.map((r) => r.bookingId),
        ['U1'],
      );
      assert.deepEqual(
        (await store.query(query({ partnerId: 'p1' }))).records.map((r) => r.bookingId),
        ['P1'],
      );
      const stats = await store.stats();
      assert.equal(stats.total, 4);
      assert.equal(stats.unattributed, 1);
      assert.equal(stats.bySupplier.supplier_a.transactions, 4);
    });

    it("tallies a partner's bookings of whole booked UTC days by month, campaign, device and supplier, per status", async () => {
      await store.applyReport(
        'supplier_a',
        [
          row('T1', { bookedAt: '2026-01-31T23:59:59.999Z', commissionCents: 1000 }),
          row('T2', { bookedAt: '2026-02-01T00:00:00.000Z', commissionCents: 250, status: 'Approved', device: 'desktop', campaign: null }),
          row('T3', { bookedAt: '2026-02-03T00:00:00.000Z', commissionCents: 0, status: 'Canceled' }),
          row('T4', { bookedAt: '2026-03-01T00:00:00.000Z', commissionCents: 999 }),
          row('X1', { bookedAt: '2026-02-02T00:00:00.000Z', partnerId: 'p2', aid: 'aff-2', commissionCents: 777 }),
        ],
        SYNC,
      );
      await store.applyReport(
        'supplier_c',
        [row('T5', { supplier: 'supplier_c', bookedAt: '2026-02-27T00:00:00.000Z', commissionCents: 5 })],
        SYNC,
      );
      const tally = async (by: 'month' | 'campaign' | 'device' | 'supplier', partnerId = 'p1') =>
        (await store.tally({ partnerId, startDate: '2026-01-31', endDate: '2026-02-28', by }))
          .map((t) => `${t.key}|${t.status}|${t.bookings}|${t.commissionCents}`)
          .sort();
      assert.deepEqual(await tally('month'), [
        '2026-01|Pending|1|1000',
        '2026-02|Approved|1|250',
        '2026-02|Canceled|1|0',
        '2026-02|Pending|1|5',
      ]);
      assert.deepEqual(await tally('campaign'), ['null|Approved|1|250', 'spring-mail|Canceled|1|0', 'spring-mail|Pending|2|1005']);
      assert.deepEqual(await tally('device'), ['desktop|Approved|1|250', 'mobile|Canceled|1|0', 'mobile|Pending|2|1005']);
      assert.deepEqual(await tally('supplier'), [
        'supplier_a|Approved|1|250',
        'supplier_a|Canceled|1|0',
        'supplier_a|Pending|1|1000',
        'supplier_c|Pending|1|5',
      ]);
      assert.deepEqual(await tally('month', 'p2'), ['2026-02|Pending|1|777']);
      assert.deepEqual(await tally('month', 'nobody'), []);
      const latest = await store.latest({ partnerId: 'p1', startDate: '2026-01-31', endDate: '2026-02-28', limit: 3 });
      assert.deepEqual(
        latest.map((r) => r.bookingId),
        ['T5', 'T3', 'T2'],
      );
      assert.equal(latest[0].provider, 'supplier_c');
    });

    it('filters on the chosen date by whole UTC days, inclusive, and orders by it', async () => {
      await store.applyReport(
        'supplier_d',
        [
          row('D1', {
            supplier: 'supplier_d',
            bookedAt: '2026-01-31T23:59:59.000Z',
            startDate: '2026-03-01',
            endDate: '2026-03-03',
            lastUpdated: '2026-05-01T00:00:00.000Z',
          }),
          row('D2', {
            supplier: 'supplier_d',
            bookedAt: '2026-02-01T00:00:00.000Z',
            startDate: '2026-02-15',
            endDate: '2026-02-16',
            lastUpdated: '2026-02-01T00:00:00.000Z',
          }),
          row('D3', {
            supplier: 'supplier_d',
            bookedAt: '2026-02-28T12:00:00.000Z',
            startDate: '2026-03-01',
            endDate: '2026-03-31',
            lastUpdated: '2026-04-30T23:59:59.999Z',
          }),
        ],
        SYNC,
      );
      const ids = async (q: Partial<TransactionQuery>) => (await store.query(query(q))).records.map((r) => r.bookingId);
      assert.deepEqual(await ids({ dateFilter: 'bookedDate', startDate: '2026-02-01', endDate: '2026-02-28' }), ['D2', 'D3']);
      assert.deepEqual(await ids({ dateFilter: 'bookedDate', startDate: '2026-01-31', endDate: '2026-01-31' }), ['D1']);
      assert.deepEqual(await ids({ dateFilter: 'startDate', startDate: '2026-03-01', endDate: '2026-03-01' }), ['D1', 'D3']);
      assert.deepEqual(await ids({ dateFilter: 'endDate', startDate: '2026-02-16', endDate: '2026-03-03' }), ['D2', 'D1']);
      assert.deepEqual(await ids({ dateFilter: 'lastUpdatedDate', startDate: '2026-04-30', endDate: '2026-04-30' }), ['D3']);
      assert.deepEqual(await ids({}), ['D2', 'D3', 'D1']);
    });

    it('takes the first and last days of the calendar like any other day (0000-01-01 .. 9999-12-31)', async () => {
      await store.applyReport(
        'supplier_d',
        [
          row('Z1', {
            supplier: 'supplier_d',
            bookedAt: '0001-01-01T00:00:00.000Z',
            startDate: '0001-01-02',
            endDate: '0050-06-15',
            lastUpdated: '0099-12-31T23:59:59.999Z',
          }),
          row('Z2', {
            supplier: 'supplier_d',
            bookedAt: '9999-12-30T10:00:00.000Z',
            startDate: '9999-12-30',
            endDate: '9999-12-31',
            lastUpdated: '9999-12-31T23:59:59.999Z',
          }),
          row('Z3', { supplier: 'supplier_d' }),
        ],
        SYNC,
      );
      const ids = async (q: Partial<TransactionQuery>) => (await store.query(query(q))).records.map((r) => r.bookingId);
      const csvIds = async (q: Partial<TransactionQuery>) => (await csvRows(store, query(q))).map((r) => r.bookingId);
      for (const dateFilter of ['bookedDate', 'startDate', 'endDate', 'lastUpdatedDate'] as const) {
        assert.deepEqual(await ids({ dateFilter, startDate: '0000-01-01', endDate: '9999-12-31' }), ['Z1', 'Z3', 'Z2'], dateFilter);
        assert.deepEqual(await csvIds({ dateFilter, startDate: '0000-01-01', endDate: '9999-12-31' }), ['Z1', 'Z3', 'Z2'], dateFilter);
        assert.deepEqual(await ids({ dateFilter, startDate: '2026-01-01', endDate: '9999-12-31' }), ['Z3', 'Z2'], dateFilter);
        assert.deepEqual(await ids({ dateFilter, startDate: '0001-01-01', endDate: '2026-12-31' }), ['Z1', 'Z3'], dateFilter);
      }
      assert.deepEqual(await ids({ dateFilter: 'endDate', startDate: '9999-12-31', endDate: '9999-12-31' }), ['Z2']);
      assert.deepEqual(await ids({ dateFilter: 'lastUpdatedDate', startDate: '0099-12-31', endDate: '0099-12-31' }), ['Z1']);
    });

    it('pages by limit and zero-indexed page, the same through CSV and JSON, also after the data changed', async () => {
      const rows = Array.from({ length: 23 }, (_, i) =>
        row(`E${String(i).padStart(2, '0')}`, {
          supplier: i % 2 === 0 ? 'supplier_a' : 'supplier_c',
          // Ties on the date, broken by supplier and booking id.
          lastUpdated: `2026-03-${String(1 + (i % 5)).padStart(2, '0')}T00:00:00.000Z`,
        }),
      );
      await store.applyReport(
        'supplier_a',
        rows.filter((r) => r.supplier === 'supplier_a'),
        SYNC,
      );
      await store.applyReport(
        'supplier_c',
        rows.filter((r) => r.supplier === 'supplier_c'),
        SYNC,
      );
      const all = (await store.query(query())).records;
      assert.equal(all.length, 23);
      const sortKey = (r: { lastUpdatedDate: string; provider: string; bookingId: string }) =>
        `${r.lastUpdatedDate}|${r.provider}|${r.bookingId}`;
      assert.deepEqual(all.map(sortKey), all.map(sortKey).sort());

      const paged: string[] = [];
      for (let page = 0; ; page++) {
        const { records, hasMore } = await store.query(query({ limit: 5, page }));
        const csv = await csvRows(store, query({ limit: 5, page }));
        assert.deepEqual(
          csv.map((c) => c.bookingId),
          records.map((r) => r.bookingId),
          `page ${page}`,
        );
        // Pages after the first continue from the previous page's end: the same bytes as rendered.
        assert.equal(await csvText(store, query({ limit: 5, page })), CSV_HEADER + records.map((r) => csvLine(r)).join(''), `page ${page}`);
        paged.push(...records.map((r) => r.bookingId));
        if (!hasMore) {
          assert.ok(records.length <= 5, 'records.length <= 5');
          break;
        }
      }
      assert.deepEqual(
        paged,
        all.map((r) => r.bookingId),
      );

      // Page 2 again after a row before it moved: what OFFSET would give, not a stale continuation.
      await store.applyReport('supplier_a', [row('E00', { supplier: 'supplier_a', lastUpdated: '2026-03-09T00:00:00.000Z' })], SYNC);
      const after = (await store.query(query())).records.map((r) => r.bookingId);
      await store.query(query({ limit: 5, page: 1 }));
      assert.deepEqual(
        (await store.query(query({ limit: 5, page: 2 }))).records.map((r) => r.bookingId),
        after.slice(10, 15),
      );
      assert.deepEqual(
        (await csvRows(store, query({ limit: 5, page: 2 }))).map((r) => r.bookingId),
        after.slice(10, 15),
      );
    });

    it('keeps the order in a page of several hundred rows, through CSV as through JSON', async () => {
      const rows = Array.from({ length: 620 }, (_, i) =>
        row(`K${String((i * 7919) % 620).padStart(4, '0')}`, {
          supplier: (['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] as const)[i % 4],
          lastUpdated: new Date(Date.UTC(2026, 2, 1) + (i % 97) * 3_600_000).toISOString(),
        }),
      );
      for (const supplier of ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'] as const) {
        await store.applyReport(
          supplier,
          rows.filter((r) => r.supplier === supplier),
          SYNC,
        );
      }
      for (const page of [0, 1]) {
        const records = (await store.query(query({ limit: 500, page }))).records;
        const json = records.map((r) => `${r.provider}/${r.bookingId}`);
        const csv = (await csvRows(store, query({ limit: 500, page }))).map((r) => `${r.provider}/${r.bookingId}`);
        assert.equal(json.length, page === 0 ? 500 : 120);
        assert.deepEqual(csv, json);
        // Byte for byte the lines rendered from the records, in order (issue 25: PostgreSQL now
        // concatenates a page's stored lines itself).
        assert.equal(await csvText(store, query({ limit: 500, page })), CSV_HEADER + records.map((r) => csvLine(r)).join(''));
      }
    });

    it('writes CSV cells with the JSON values (formula-escaped, campaignIds as JSON text)', async () => {
      await store.applyReport(
        'supplier_a',
        [
          row('F1', {
            campaign: '=HYPERLINK("http://evil.example","x")-y',
            information: 'A "quoted", name\r\nnext line',
            destination: '@Home, FR',
          }),
          row('F2', { campaign: null, userCountry: '', status: 'Canceled', commissionCents: 0, quantity: 14 }),
        ],
        SYNC,
      );
      const json = (await store.query(query())).records;
      const csv = await csvRows(store, query());
      assert.equal(csv.length, 2);
      for (const [i, record] of json.entries()) {
        for (const field of TRANSACTION_FIELDS) {
          const value = record[field];
          const cell = csv[i][field];
          const expected = Array.isArray(value) ? JSON.stringify(value) : String(value);
          assert.equal(unescapeFormula(cell), expected, `${record.bookingId}.${field}`);
        }
      }
      assert.equal(csv[0].campaignId, '\'=HYPERLINK("http://evil.example","x")-y');
      assert.equal(csv[0].destination, "'@Home, FR");
      assert.deepEqual(json[0].campaignIds, ['=HYPERLINK("http://evil.example","x")', 'y']);
      assert.deepEqual(json[1].campaignIds, []);
      assert.equal(json[1].commission, '0.00');
    });
  });

  if (makeTwo === undefined) return;
  describe(`TransactionStore contract, two handles on one database: ${name}`, () => {
    let two: TwoHandles<TransactionStore>;
    beforeEach(async () => {
      two = await makeTwo();
    });
    afterEach(async () => {
      await two.close();
    });

    it('a report one handle applies is read, paged and exported by the other', async () => {
      await two.first.applyReport(
        'supplier_a',
        Array.from({ length: 12 }, (_, i) => row(`M${String(i).padStart(2, '0')}`)),
        SYNC,
      );
      assert.deepEqual(await two.second.syncState('supplier_a'), { syncedThrough: SYNC.syncedThrough, syncedAt: SYNC.syncedAt });
      const json = (await two.second.query(query({ limit: 5, page: 1 }))).records.map((r) => r.bookingId);
      assert.deepEqual(json, ['M05', 'M06', 'M07', 'M08', 'M09']);
      // The second handle remembered where page 1 ended; a change by the first moves rows before page 2.
      await two.first.applyReport('supplier_a', [row('M00', { lastUpdated: '2026-03-09T00:00:00.000Z' })], SYNC);
      assert.deepEqual(
        (await csvRows(two.second, query({ limit: 5, page: 2 }))).map((r) => r.bookingId),
        ['M11', 'M00'],
      );
      assert.equal((await two.second.stats()).total, 12);
    });

    it('the same reports applied by both handles at once end in the same rows as one by one', async () => {
      const versions = Array.from({ length: 30 }, (_, i) =>
        row(`N${i % 10}`, {
          supplier: 'supplier_b',
          lastUpdated: `2026-03-0${1 + (i % 7)}T00:00:00.000Z`,
          commissionCents: i,
        }),
      );
      const results = await Promise.all([
        two.first.applyReport('supplier_b', versions, SYNC),
        two.second.applyReport('supplier_b', [...versions].reverse(), SYNC),
      ]);
      const fresh = await makeStore();
      try {
        await fresh.applyReport('supplier_b', versions, SYNC);
        for (let i = 0; i < 10; i++) {
          assert.deepEqual(await two.first.get('supplier_b', `N${i}`), await fresh.get('supplier_b', `N${i}`), `N${i}`);
        }
      } finally {
        await fresh.close();
      }
      // Every booking was new to exactly one of the two reports.
      assert.equal(results[0].inserted + results[1].inserted, 10);
    });
  });
}
