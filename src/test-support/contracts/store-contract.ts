// The behaviour every Store implementation must have. Each implementation's test file calls
// runStoreContract with a factory that returns a fresh, empty store.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { HotelIdRef, Listing, Stay, SupplierId } from '../../types.ts';
import { defaults } from '../../defaults.ts';
import { decodeIndexChunk } from '../../store/index-chunk.ts';
import type { ContentStoreSettings, IndexRow, RankedStay, Store } from '../../store/store.ts';

function listing(supplier: SupplierId, supplierStayId: string, overrides: Partial<Listing> = {}): Listing {
  return {
    supplier,
    supplierStayId,
    name: `Listing ${supplierStayId}`,
    typeLabel: 'Hotel',
    type: 'hotel',
    address: '1 Main Street, Springfield, US',
    lat: 40,
    lng: -75,
    rating: { value: 8, hotelStars: 3, count: 10 },
    capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: 'https://img/t.jpg', logoSquare: 'https://img/l.png' },
    ...overrides,
  };
}

function stay(idx: number, rank: number, id: string, listings: Listing[], overrides: Partial<Stay> = {}): RankedStay {
  const first = listings[0];
  return {
    idx,
    rank,
    id,
    name: first.name,
    type: first.type,
    typeLabel: first.typeLabel,
    address: first.address,
    lat: first.lat,
    lng: first.lng,
    h3: '8f2a1072b59ffff',
    capacity: first.capacity,
    averageRating: first.rating,
    listings,
    ...overrides,
  };
}

const BOOKING_PAGE = 'https://www.booking.com/hotel/fr/saint-eloi.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!';

/**
 * Four stays whose supplier ids overlap the way the real feeds do: supplier_a and supplier_c
 * both use 1001 (for different stays), supplier_d uses 1001 too, and one stay is cross-listed.
 */
function fixture(): RankedStay[] {
  return [
    // Its page as Booking.com's content gives it, placeholders and all: /go fills them (clicks/booking-com-url.ts).
    stay(0, 2, 'staaaaaaaaaaaa', [listing('supplier_a', '1001', { name: 'Hôtel Saint-Éloi', url: BOOKING_PAGE })], {
      name: 'Hôtel Saint-Éloi',
      averageRating: { value: 8.4, hotelStars: 4, count: 120 },
    }),
    stay(
      1,
      0,
      'stbbbbbbbbbbbb',
      [
        listing('supplier_a', '2002', { name: 'Grand Plaza' }),
        listing('supplier_b', 'HB0002002', { name: 'The Grand Plaza Hotel' }),
        listing('supplier_c', '1001', { name: 'Grand Plaza' }),
      ],
      {
        name: 'Grand Plaza',
        lat: 40.001,
        lng: -75.002,
        h3: '8f2a1072b5affff',
        averageRating: { value: 9.1, hotelStars: 4.5, count: 3000 },
      },
    ),
    stay(
      2,
      3,
      'stcccccccccccc',
      [
        listing('supplier_d', '1001', {
          name: 'Sunny Villa',
          type: 'villa',
          typeLabel: 'Entire villa',
          rating: { value: 9.6, hotelStars: null, count: 4 },
          capacity: { guests: 6, bedrooms: 3, beds: null, bathrooms: 2.5 },
        }),
      ],
      { name: 'Sunny Villa', type: 'villa', typeLabel: 'Entire villa', averageRating: { value: 9.6, hotelStars: null, count: 4 } },
    ),
    // Sold only where the API has no guest rating (Hotelbeds): no rating at all (docs/decisions.md 135).
    stay(
      3,
      1,
      'stdddddddddddd',
      [listing('supplier_b', 'HB0000004', { name: 'Budget Inn', rating: { value: null, hotelStars: 2, count: 0 } })],
      {
        name: 'Budget Inn',
        averageRating: { value: null, hotelStars: 2, count: 0 },
      },
    ),
  ];
}

function withoutRank(stays: RankedStay[]): Stay[] {
  return stays.map(({ rank: _rank, ...rest }) => rest);
}

function stripRank(stays: Stay[]): Stay[] {
  return stays.map((s) => {
    const { rank: _rank, ...rest } = s as Stay & { rank?: number };
    return rest;
  });
}

/** The served version's index rows, read back from its chunks; `chunks`, each chunk's first idx and rows. */
async function allRows(store: Store): Promise<{ chunks: [number, number][]; rows: IndexRow[] }> {
  const chunks: [number, number][] = [];
  const rows: IndexRow[] = [];
  for await (const chunk of store.indexChunks()) {
    chunks.push([chunk.firstIdx, chunk.rowCount]);
    decodeIndexChunk(chunk, (row) => rows.push(row));
  }
  return { chunks, rows };
}

function bare(id: string): HotelIdRef {
  return { raw: id, supplier: null, id };
}

function prefixed(supplier: SupplierId, id: string): HotelIdRef {
  return { raw: `${supplier}:${id}`, supplier, id };
}

/** One database (a file, a schema) that a contract run opens store handles on. */
export interface StoreDatabase {
  /** A new handle on this database; every handle of one database sees the same content. */
  open(options: { settings: ContentStoreSettings }): Promise<Store>;
  /** Removes the database (after every handle was closed). */
  drop(): Promise<void>;
}

/** Every stay of a version, through allStays. */
async function everyStay(store: Store, no: number, batch?: number): Promise<Stay[]> {
  const stays: Stay[] = [];
  for await (const part of store.version(no).allStays(batch)) stays.push(...part);
  return stays;
}

/** A one-stay inventory named `name`, for the version tests. */
function single(name: string, supplierStayId = '500'): RankedStay[] {
  return [stay(0, 0, `st${name.padEnd(12, 'x').slice(0, 12)}`, [listing('supplier_a', supplierStayId, { name })], { name })];
}

/** `n` stays of one listing each, their names marked with `round`: every round's content differs, its size does not. */
function many(n: number, round: number): RankedStay[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `Stay ${String(i).padStart(5, '0')} of round ${String(round).padStart(3, '0')}`;
    return stay(i, i, `st${i.toString(32).padStart(12, '0')}`, [listing('supplier_a', String(10_000 + i), { name })], { name });
  });
}

/**
 * `shared`: whether a database may be opened more than once (a file, a server; not ':memory:'),
 * which adds the two-handle tests.
 */
export function runStoreContract(name: string, makeDatabase: () => Promise<StoreDatabase>, { shared }: { shared: boolean }): void {
  describe(`Store contract: ${name}`, () => {
    let database: StoreDatabase;
    let store: Store;
    let handles: Store[];
    /** Another handle on the same database, closed after the test. */
    const open = async (settings: Partial<ContentStoreSettings> = {}): Promise<Store> => {
      const handle = await database.open({ settings: { ...defaults, ...settings } });
      handles.push(handle);
      return handle;
    };
    beforeEach(async () => {
      database = await makeDatabase();
      handles = [];
      store = await open();
    });
    afterEach(async () => {
      for (const handle of handles) await handle.close();
      await database.drop();
    });

    it('starts empty: no version, no rows, nothing resolves', async () => {
      assert.equal(await store.currentContent(), null);
      assert.deepEqual((await allRows(store)).rows, []);
      assert.deepEqual(await store.getStays([0, 1]), []);
      assert.deepEqual(await store.resolveHotelIds([bare('1001')]), [[]]);
    });

    it('records the version of the inventory it holds', async () => {
      await store.publishContent(fixture(), 'v1', {});
      assert.equal((await store.currentContent())?.label, 'v1');
    });

    it('yields index chunks in idx order, each starting where the last ended', async () => {
      // Handed over out of order: idx, not array position, decides.
      await store.publishContent(fixture().reverse(), 'v1', {});
      const { chunks, rows } = await allRows(store);
      assert.deepEqual(
        rows.map((row) => row.idx),
        [0, 1, 2, 3],
      );
      let next = 0;
      for (const [firstIdx, rowCount] of chunks) {
        assert.equal(firstIdx, next, `chunks ${JSON.stringify(chunks)}`);
        next += rowCount;
      }
      assert.deepEqual(rows[1], {
        idx: 1,
        rank: 0,
        lat: 40.001,
        lng: -75.002,
        h3: '8f2a1072b5affff',
        type: 'hotel',
        suppliers: ['supplier_a', 'supplier_b', 'supplier_c'],
        stars: 4.5,
        rating: 9.1,
        reviewCount: 3000,
        listingRatings: ['supplier_a', 'supplier_b', 'supplier_c'].map((supplier) => ({ supplier, value: 8, hotelStars: 3 })),
        searchName: 'grand plaza',
      });
      assert.deepEqual(rows[2].listingRatings, [{ supplier: 'supplier_d', value: 9.6, hotelStars: null }]);
      assert.equal(rows[3].rating, null, 'a stay without a guest rating reads back as null');
      assert.deepEqual(rows[3].listingRatings, [{ supplier: 'supplier_b', value: null, hotelStars: 2 }]);
      assert.equal(rows[0].searchName, 'hotel saint eloi');
      assert.deepEqual(rows[2].suppliers, ['supplier_d']);
      assert.equal(rows[2].type, 'villa');
      assert.equal(rows[2].stars, null);
      assert.deepEqual(
        rows.map((row) => row.rank),
        [2, 0, 3, 1],
      );
    });

    it('keeps with each chunk the bytes cellsOf made of its stays, and none when a version was published without', async () => {
      const stays = many(40_000, 1); // three chunks
      await store.publishContent(stays, 'with cells', {}, [], (chunk) => Uint8Array.from(chunk, (s) => (s.idx * 7) % 251));
      let rows = 0;
      for await (const chunk of store.indexChunks()) {
        const want = Array.from({ length: chunk.rowCount }, (_, i) => ((chunk.firstIdx + i) * 7) % 251);
        assert.deepEqual([...(chunk.cells ?? [])], want, `chunk at ${chunk.firstIdx}`);
        rows += chunk.rowCount;
      }
      assert.equal(rows, stays.length);
      await store.publishContent(many(3, 2), 'without', {});
      for await (const chunk of store.indexChunks()) assert.equal(chunk.cells, null);
    });

    it('returns full stays in the order asked, skipping unknown idx', async () => {
      const stays = fixture();
      await store.publishContent(stays, 'v1', {});
      const expected = withoutRank(stays);
      assert.deepEqual(stripRank(await store.getStays([2, 99, 0, -1, 1.5])), [expected[2], expected[0]]);
      assert.deepEqual(stripRank(await store.getStays([0, 1, 2, 3])), expected);
      assert.deepEqual(await store.getStays([]), []);
    });

    it('resolves a bare id to the service id or any supplier id, possibly several stays', async () => {
      await store.publishContent(fixture(), 'v1', {});
      const [byService, shared, bOnly, unknown] = await store.resolveHotelIds([
        bare('stbbbbbbbbbbbb'),
        bare('1001'),
        bare('HB0000004'),
        bare('nope'),
      ]);
      assert.deepEqual(byService, [1]);
      assert.deepEqual(shared, [0, 1, 2], 'supplier_a, supplier_c and supplier_d all use 1001');
      assert.deepEqual(bOnly, [3]);
      assert.deepEqual(unknown, []);
    });

    it("resolves a prefixed id within that supplier's listings only", async () => {
      await store.publishContent(fixture(), 'v1', {});
      assert.deepEqual(
        await store.resolveHotelIds([
          prefixed('supplier_a', '1001'),
          prefixed('supplier_c', '1001'),
          prefixed('supplier_d', '1001'),
          prefixed('supplier_b', '1001'),
          prefixed('supplier_b', 'HB0002002'),
          prefixed('supplier_a', 'stbbbbbbbbbbbb'),
        ]),
        [[0], [1], [2], [], [1], []],
      );
    });

    it('answers one entry per ref, in the order given, duplicates included', async () => {
      await store.publishContent(fixture(), 'v1', {});
      assert.deepEqual(await store.resolveHotelIds([bare('HB0000004'), bare('HB0000004'), bare('stcccccccccccc')]), [[3], [3], [2]]);
      assert.deepEqual(await store.resolveHotelIds([]), []);
    });

    it('replaces the whole inventory: old stays and ids are gone', async () => {
      await store.publishContent(fixture(), 'v1', {});
      const next = [
        stay(0, 0, 'steeeeeeeeeeee', [listing('supplier_c', '77', { name: 'Harbour Lodge', type: 'lodge' })], {
          name: 'Harbour Lodge',
          type: 'lodge',
        }),
      ];
      await store.publishContent(next, 'v2', {});
      assert.equal((await store.currentContent())?.label, 'v2');
      const { rows } = await allRows(store);
      assert.deepEqual(
        rows.map((row) => [row.idx, row.searchName, row.type]),
        [[0, 'harbour lodge', 'lodge']],
      );
      assert.deepEqual(await store.resolveHotelIds([bare('1001'), bare('stbbbbbbbbbbbb'), bare('77')]), [[], [], [0]]);
      assert.deepEqual(stripRank(await store.getStays([0, 1])), withoutRank(next));
    });

    it('accepts an empty inventory', async () => {
      await store.publishContent(fixture(), 'v1', {});
      await store.publishContent([], 'empty', {});
      assert.equal((await store.currentContent())?.label, 'empty');
      assert.deepEqual((await allRows(store)).rows, []);
    });

    it('rejects idx or rank that are not dense, keeping what it had', async () => {
      await store.publishContent(fixture(), 'v1', {});
      const gap = fixture();
      gap[3] = { ...gap[3], idx: 7 };
      await assert.rejects(store.publishContent(gap, 'bad', {}), /idx/);
      const twice = fixture();
      twice[3] = { ...twice[3], rank: 0 };
      await assert.rejects(store.publishContent(twice, 'bad', {}), /rank/);
      assert.equal((await store.currentContent())?.label, 'v1');
      assert.equal((await allRows(store)).rows.length, 4);
    });

    it('publishes content versions with their info, each readable as it was', async () => {
      const v1 = await store.publishContent(fixture(), 'one', { suppliers: { supplier_a: { state: 'ok' } } });
      const v2 = await store.publishContent(single('Second'), 'two', { n: 2 });
      assert.ok(v2 > v1, `versions are numbered upwards: ${v1}, ${v2}`);
      assert.deepEqual(await store.currentContent(), { no: v2, label: 'two', info: { n: 2 } });
      assert.equal((await store.currentContent())?.label, 'two');
      // The one before stays readable (a gateway that has not swapped yet still serves it).
      assert.deepEqual(
        (await everyStay(store, v1)).map((s) => s.id),
        fixture().map((s) => s.id),
      );
      assert.deepEqual(await store.version(v1).resolveHotelIds([bare('HB0000004')]), [[3]]);
      assert.deepEqual(
        (await everyStay(store, v2)).map((s) => s.name),
        ['Second'],
      );
      assert.deepEqual(await store.resolveHotelIds([bare('HB0000004')]), [[]], 'the store itself reads the served version');
    });

    it('yields every stay of a version in idx order, in batches', async () => {
      const no = await store.publishContent(fixture().reverse(), 'v', {});
      const batches: number[] = [];
      const stays: Stay[] = [];
      for await (const part of store.version(no).allStays(3)) {
        batches.push(part.length);
        stays.push(...part);
      }
      assert.deepEqual(batches, [3, 1]);
      assert.deepEqual(stripRank(stays), withoutRank(fixture()));
    });

    it('keeps the stay id map across versions, the last entry of a listing winning', async () => {
      await store.publishContent(fixture(), 'one', {}, [
        { supplier: 'supplier_a', supplierStayId: '1001', stayId: 'staaaaaaaaaaaa' },
        { supplier: 'supplier_c', supplierStayId: '1001', stayId: 'stbbbbbbbbbbbb' },
      ]);
      await store.publishContent(fixture(), 'two', {}, [
        { supplier: 'supplier_c', supplierStayId: '1001', stayId: 'stold' },
        { supplier: 'supplier_c', supplierStayId: '1001', stayId: 'stnew' },
        { supplier: 'supplier_d', supplierStayId: 'a\\b\tc\nd', stayId: 'stcccccccccccc' }, // COPY's escapes
      ]);
      const ids = await store.stayIds();
      const keys = ['supplier_a:1001', 'supplier_c:1001', 'supplier_d:a\\b\tc\nd', 'supplier_b:1001'];
      assert.deepEqual(
        keys.map((key) => ids.get(key)),
        ['staaaaaaaaaaaa', 'stnew', 'stcccccccccccc', undefined],
      );
      assert.equal(ids.size, 3);
    });

    it('drops versions older than the newest two that nobody holds', async () => {
      const v1 = await store.publishContent(single('One'), 'one', {});
      const v2 = await store.publishContent(single('Two'), 'two', {});
      const v3 = await store.publishContent(single('Three'), 'three', {});
      assert.deepEqual(await store.holdVersions([v1, v2, v3]), [v2, v3], 'the first is gone');
      await assert.rejects(async () => store.version(v1).getStays([0]));
      assert.deepEqual(
        (await everyStay(store, v2)).map((s) => s.name),
        ['Two'],
      );
    });

    it('keeps every version a reader holds however many are published, and drops it once released', async () => {
      const v1 = await store.publishContent(single('One'), 'one', {});
      assert.deepEqual(await store.holdVersions([v1]), [v1]);
      for (const n of ['Two', 'Three', 'Four']) await store.publishContent(single(n), n, {});
      assert.deepEqual(
        (await everyStay(store, v1)).map((s) => s.name),
        ['One'],
        'held: still readable',
      );
      const v4 = (await store.currentContent())!.no;
      assert.deepEqual(await store.holdVersions([v4]), [v4]);
      await store.publishContent(single('Five'), 'five', {});
      assert.deepEqual(await store.holdVersions([v1]), [], 'released, then pruned by the next publish');
    });

    it("publishes nothing for the served version's stays: same number and label, its info replaced, the ids recorded, nothing dropped", async () => {
      const v1 = await store.publishContent(single('One'), 'one', {});
      const v2 = await store.publishContent(fixture(), 'two', { n: 1 }, [
        { supplier: 'supplier_a', supplierStayId: '1001', stayId: 'staaaaaaaaaaaa' },
      ]);
      const again = await store.publishContent(fixture(), 'three', { n: 2 }, [
        { supplier: 'supplier_b', supplierStayId: 'HB0000004', stayId: 'stdddddddddddd' },
      ]);
      assert.equal(again, v2, 'the served version');
      assert.deepEqual(await store.currentContent(), { no: v2, label: 'two', info: { n: 2 } });
      assert.equal((await store.currentContent())?.label, 'two');
      assert.deepEqual(await store.holdVersions([v1, v2]), [v1, v2], 'no version dropped: none was published');
      assert.equal((await store.stayIds()).get('supplier_b:HB0000004'), 'stdddddddddddd');
      // The same stays handed over in another order are the same content (idx decides, not position).
      assert.equal(await store.publishContent(fixture().reverse(), 'four', { n: 3 }), v2);
      await store.publishContent(fixture(), 'five', {});
      assert.equal((await store.currentContent())?.label, 'two');
    });

    it('publishes a version for stays that differ from the served ones in anything stored: a field, a rank', async () => {
      const v1 = await store.publishContent(fixture(), 'one', {});
      const renamed = fixture();
      renamed[2] = { ...renamed[2], name: 'Sunny Villa II' };
      const v2 = await store.publishContent(renamed, 'two', {});
      assert.ok(v2 > v1, `a new version for a new name: ${v1}, ${v2}`);
      const reranked = renamed.map((s) => ({ ...s, rank: s.rank === 0 ? 1 : s.rank === 1 ? 0 : s.rank }));
      const v3 = await store.publishContent(reranked, 'three', {});
      assert.ok(v3 > v2, `a new version for new ranks: ${v2}, ${v3}`);
      // A listing's page alone is content too: a stay whose page moved is a new version, served with it.
      const moved = reranked.map((s) => (s.idx === 0 ? { ...s, listings: [{ ...s.listings[0], url: `${BOOKING_PAGE}&lang=fr` }] } : s));
      const v3b = await store.publishContent(moved, 'three-b', {});
      assert.ok(v3b > v3, `a new version for a new page: ${v3}, ${v3b}`);
      assert.equal((await everyStay(store, v3b))[0].listings[0].url, `${BOOKING_PAGE}&lang=fr`);
      // Only the served version counts: the content of an older one comes back as a new version.
      const v4 = await store.publishContent(fixture(), 'four', {});
      assert.ok(v4 > v3b, `a new version for an older version's content: ${v3b}, ${v4}`);
      assert.deepEqual(
        (await everyStay(store, v4)).map((s) => s.name),
        fixture().map((s) => s.name),
      );
    });

    it("uses the space of dropped versions again: after ten publishes the store is no bigger than after three (a quarter of a version's margin)", async (t) => {
      const empty = await store.diskBytes();
      const sizes: number[] = [];
      for (let round = 1; round <= 10; round++) {
        await store.publishContent(many(2_000, round), `round ${round}`, {});
        sizes.push(await store.diskBytes());
      }
      const version = sizes[0] - empty;
      t.diagnostic(`bytes after each publish: ${sizes.join(', ')} (empty: ${empty})`);
      assert.ok(version > 0, `one version takes room: ${empty} -> ${sizes[0]} bytes`);
      // Kept, at most: the served version and the one before, plus the one being written. Were
      // dropped versions' space not used again, rounds 4-10 would add seven versions; what may grow
      // is the id map (never pruned; none here) and pages left part-filled, far under a quarter.
      assert.ok(sizes[9] <= sizes[2] + version / 4, `bytes after each publish: ${sizes.join(', ')} (one version: ${version} bytes)`);
    });

    it('rejects a version that is not dense without touching the served one or the id map', async () => {
      const v1 = await store.publishContent(fixture(), 'v1', {}, [
        { supplier: 'supplier_a', supplierStayId: '1001', stayId: 'staaaaaaaaaaaa' },
      ]);
      const gap = fixture();
      gap[0] = { ...gap[0], idx: 9 };
      await assert.rejects(
        store.publishContent(gap, 'bad', {}, [{ supplier: 'supplier_a', supplierStayId: '1001', stayId: 'stzzz' }]),
        /idx/,
      );
      assert.equal((await store.currentContent())?.no, v1);
      assert.equal((await store.stayIds()).get('supplier_a:1001'), 'staaaaaaaaaaaa');
    });

    // Two handles on one database: what two gateways (or a gateway and the CLI) share.
    const twoHandles = (title: string, test: () => Promise<void>) => {
      if (shared) it(`two handles: ${title}`, test);
    };
    twoHandles('one publishes, the other sees the new version and reads its own until it is pruned', async () => {
      const other = await open();
      const v1 = await store.publishContent(fixture(), 'one', { n: 1 });
      assert.deepEqual(await other.currentContent(), { no: v1, label: 'one', info: { n: 1 } });
      assert.deepEqual(await other.holdVersions([v1]), [v1]);
      assert.deepEqual(await other.resolveHotelIds([bare('1001')]), [[0, 1, 2]]);
      const v2 = await store.publishContent(single('Two'), 'two', {});
      const v3 = await store.publishContent(single('Three'), 'three', {});
      assert.deepEqual(await other.currentContent(), { no: v3, label: 'three', info: {} }, 'the new version, seen at once');
      assert.deepEqual(
        (await other.version(v1).getStays([3])).map((s) => s.name),
        ['Budget Inn'],
        'its own version, held, still readable',
      );
      assert.deepEqual(await other.holdVersions([v1, v3]), [v1, v3], 'v2 was neither held nor among the newest two');
      assert.ok(v2 < v3, 'v2 < v3');
      // Swapped: v1 released; the next publish drops it.
      assert.deepEqual(await other.holdVersions([v3]), [v3]);
      await store.publishContent(single('Four'), 'four', {});
      assert.deepEqual(await other.holdVersions([v1, v3]), [v3]);
      assert.deepEqual(
        (await other.version(v3).getStays([0])).map((s) => s.name),
        ['Three'],
      );
    });

    twoHandles('a reader whose heartbeat is older than the TTL (a killed gateway) keeps nothing', async () => {
      const v1 = await store.publishContent(single('One'), 'one', {});
      const reader = await open();
      assert.deepEqual(await reader.holdVersions([v1]), [v1]);
      // The publisher counts every heartbeat older than now as dead: the reader's record is one.
      const publisher = await open({ contentReaderTtlMs: 0 });
      await publisher.publishContent(single('Two'), 'two', {});
      await publisher.publishContent(single('Three'), 'three', {});
      assert.deepEqual(await reader.holdVersions([v1]), []);
    });

    twoHandles('closing a handle releases its holds at once', async () => {
      const v1 = await store.publishContent(single('One'), 'one', {});
      const reader = await open();
      assert.deepEqual(await reader.holdVersions([v1]), [v1]);
      await reader.close();
      await store.publishContent(single('Two'), 'two', {});
      await store.publishContent(single('Three'), 'three', {});
      assert.deepEqual(await store.holdVersions([v1]), []);
    });

    twoHandles('the stay id map written by one is read by the other', async () => {
      const other = await open();
      await store.publishContent(fixture(), 'one', {}, [{ supplier: 'supplier_b', supplierStayId: 'HB0000004', stayId: 'stdddddddddddd' }]);
      const ids = await other.stayIds();
      assert.equal(ids.get('supplier_b:HB0000004'), 'stdddddddddddd');
      assert.equal(ids.size, 1);
      const { rows } = await allRows(other);
      assert.deepEqual(
        rows.map((row) => row.searchName),
        ['hotel saint eloi', 'grand plaza', 'sunny villa', 'budget inn'],
      );
    });
  });
}
