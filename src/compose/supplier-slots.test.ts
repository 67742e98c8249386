// How each slot is run: configured (config.ts), or the simulator's slot of this data folder, with
// its booking page; and the gateway's refusal of a real slot that has no page to send a traveller to.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { VRBO_BOOKING_URL } from '../clicks/booking-page.ts';
import { readConfig } from '../config.ts';
import { bookingPageProblem, resolveSupplierSlots, type SimulatedSlot } from './supplier-slots.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

/** What a running simulator answers for each slot (its fixed credentials, its booking pages). */
const SIM: Record<SupplierId, SimulatedSlot> = {
  supplier_a: { api: 'booking-demand', url: 'http://127.0.0.1:4100', key: 'sim-a', secret: '', affiliateId: '1234567', bookingUrl: null },
  supplier_b: {
    api: 'hotelbeds',
    url: 'http://127.0.0.1:4101',
    key: 'sim-b',
    secret: 'sim-b-secret',
    affiliateId: 'staygate-sim',
    bookingUrl: 'http://127.0.0.1:4101/book/hotel?code={supplierStayId}&clickId={clickId}',
  },
  supplier_c: {
    api: 'liteapi',
    url: 'http://127.0.0.1:4102',
    key: 'sim-c',
    secret: '',
    affiliateId: 'staygate-sim',
    bookingUrl: 'http://127.0.0.1:4102/book?id={supplierStayId}&c={clickId}',
  },
  supplier_d: {
    api: 'expedia-rapid',
    url: 'http://127.0.0.1:4103',
    key: 'sim-d',
    secret: 'sim-d-secret',
    affiliateId: 'staygate-sim',
    bookingUrl: 'http://127.0.0.1:4103/vrbo/{supplierStayId}?clickId={clickId}',
  },
};

const REAL_A = {
  STAYGATE_SUPPLIER_A_URL: 'https://demandapi.booking.com/3.1',
  STAYGATE_SUPPLIER_A_KEY: 'live-token',
  STAYGATE_SUPPLIER_A_AFFILIATE_ID: '7654321',
};

describe('resolveSupplierSlots', () => {
  it('a real slot keeps its own URL and credentials; the others take the simulator’s', () => {
    const slots = resolveSupplierSlots(readConfig(REAL_A).suppliers, SIM);
    assert.deepEqual(slots[0], {
      id: 'supplier_a',
      api: 'booking-demand',
      baseUrl: 'https://demandapi.booking.com/3.1',
      key: 'live-token',
      secret: '',
      affiliateId: '7654321',
      bookingUrl: null,
      simulated: false,
    });
    for (const [i, id] of (['supplier_b', 'supplier_c', 'supplier_d'] as const).entries()) {
      const { url, key, secret, affiliateId, bookingUrl, api } = SIM[id];
      assert.deepEqual(slots[i + 1], { id, api, baseUrl: url, key, secret, affiliateId, bookingUrl, simulated: true });
    }
  });

  it("the operator's BOOKING_URL wins over the simulator's page and over the API's default", () => {
    const mine = 'https://book.example/h?id={supplierStayId}&c={clickId}';
    const slots = resolveSupplierSlots(
      readConfig({
        STAYGATE_SUPPLIER_B_BOOKING_URL: mine,
        STAYGATE_SUPPLIER_D_URL: 'https://test.ean.com/v3',
        STAYGATE_SUPPLIER_D_KEY: 'k',
        STAYGATE_SUPPLIER_D_SECRET: 's',
        STAYGATE_SUPPLIER_D_BOOKING_URL: mine,
      }).suppliers,
      SIM,
    );
    assert.equal(slots[1].bookingUrl, mine, 'simulated slot');
    assert.equal(slots[3].bookingUrl, mine, 'real slot');
  });

  it("a real slot's default booking page is its API's: Vrbo's for Rapid, the stays' own for Booking.com", () => {
    const slots = resolveSupplierSlots(
      readConfig({
        ...REAL_A,
        STAYGATE_SUPPLIER_D_URL: 'https://test.ean.com/v3',
        STAYGATE_SUPPLIER_D_KEY: 'k',
        STAYGATE_SUPPLIER_D_SECRET: 's',
      }).suppliers,
      SIM,
    );
    assert.equal(slots[0].bookingUrl, null);
    assert.equal(slots[3].bookingUrl, VRBO_BOOKING_URL);
  });

  it('a simulator that speaks another API than the slot is configured with is refused (restart it), as is no simulator', () => {
    assert.throws(
      () => resolveSupplierSlots(readConfig({ STAYGATE_SUPPLIER_C_API: 'expedia-rapid' }).suppliers, SIM),
      (error: Error) => error.message === 'the simulator speaks liteapi on supplier_c, configured as expedia-rapid: restart it',
    );
    assert.throws(
      () => resolveSupplierSlots(readConfig(REAL_A).suppliers, null),
      /supplier_b has no STAYGATE_SUPPLIER_B_URL and no simulator/,
    );
    assert.equal(
      resolveSupplierSlots(
        readConfig(
          Object.fromEntries(
            SUPPLIER_IDS.flatMap((id) => [
              [`STAYGATE_${id.toUpperCase()}_API`, 'liteapi'],
              [`STAYGATE_${id.toUpperCase()}_URL`, 'https://api.liteapi.travel/v3.0'],
              [`STAYGATE_${id.toUpperCase()}_KEY`, 'k'],
            ]),
          ),
        ).suppliers,
        null,
      ).every((slot) => !slot.simulated && slot.api === 'liteapi'),
      true,
      'every slot real: no simulator needed',
    );
  });
});

describe('a real slot whose API has no page per stay', () => {
  const hotelbeds = {
    STAYGATE_SUPPLIER_B_URL: 'https://api.test.hotelbeds.com',
    STAYGATE_SUPPLIER_B_KEY: 'k',
    STAYGATE_SUPPLIER_B_SECRET: 's',
  };

  it('needs STAYGATE_SUPPLIER_<X>_BOOKING_URL (Hotelbeds, LiteAPI); Booking.com and Rapid, simulated slots too, do not', () => {
    const problem = bookingPageProblem('supplier_b', readConfig(hotelbeds).suppliers.supplier_b);
    assert.match(
      problem ?? '',
      /^STAYGATE_SUPPLIER_B_URL points supplier_b at a real hotelbeds API, .* set STAYGATE_SUPPLIER_B_BOOKING_URL /,
    );
    const liteapi = readConfig({ STAYGATE_SUPPLIER_C_URL: 'https://api.liteapi.travel/v3.0', STAYGATE_SUPPLIER_C_KEY: 'k' }).suppliers
      .supplier_c;
    assert.match(bookingPageProblem('supplier_c', liteapi) ?? '', /set STAYGATE_SUPPLIER_C_BOOKING_URL/);
    const set = readConfig({ ...hotelbeds, STAYGATE_SUPPLIER_B_BOOKING_URL: 'https://book.example/h?id={supplierStayId}' }).suppliers;
    assert.equal(bookingPageProblem('supplier_b', set.supplier_b), null);
    const others = readConfig({
      ...REAL_A,
      STAYGATE_SUPPLIER_D_URL: 'https://test.ean.com/v3',
      STAYGATE_SUPPLIER_D_KEY: 'k',
      STAYGATE_SUPPLIER_D_SECRET: 's',
    }).suppliers;
    for (const id of SUPPLIER_IDS) assert.equal(bookingPageProblem(id, others[id]), null, id);
  });

  it('is refused when the gateway starts, before anything listens, with the message naming the variable', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-refused-'));
    try {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/server.ts'],
          {
            cwd: fileURLToPath(new URL('../..', import.meta.url)),
            env: { ...process.env, ...hotelbeds, STAYGATE_DATA_DIR: dataDir, PORT: '0' },
          },
          (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number), stderr }),
        );
      });
      assert.notEqual(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /STAYGATE_SUPPLIER_B_URL points supplier_b at a real hotelbeds API, .* set STAYGATE_SUPPLIER_B_BOOKING_URL/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
