// `staygate suppliers check` (docs/decisions.md 148): for each slot as a gateway would run it (its
// configuration, or the simulator of this data folder for a slot without a URL), one content page
// and one quote through the slot's own driver, with the configured credentials, and one line per
// slot saying what came back. Exit 1 when a slot fails: refused credentials, unreachable, no
// content, a failed quote, or a real slot the gateway would refuse to start with (no booking page).
import { createSuppliers } from '../app.ts';
import type { Config } from '../config.ts';
import { count } from '../text/plural.ts';
import { readSimulatorAddress } from '../compose/simulator-address.ts';
import { SupplierError } from '../suppliers/supplier-error.ts';
import { needsBookingUrl } from '../clicks/booking-page.ts';
import { bookingPageProblem, needsSimulator, resolveSupplierSlot, type SupplierSlot } from '../compose/supplier-slots.ts';
import { SUPPLIER_IDS, type Listing, type Settings, type SupplierId } from '../types.ts';
import type { DriverSettings } from '../suppliers/supplier.ts';
import type { CliIo } from './cli-io.ts';

/** The check's figures: its page size, the quote's dates and party, its deadline. */
export type SuppliersCheckSettings = DriverSettings &
  Pick<
    Settings,
    'supplierCheckPageSize' | 'supplierCheckDaysAhead' | 'supplierCheckNights' | 'supplierCheckTimeoutMs' | 'adults' | 'rooms'
  >;

export interface SuppliersCheckOptions {
  /** The slots as configured (Config.suppliers). */
  slots: Config['suppliers'];
  settings: SuppliersCheckSettings;
  dataDir: string;
  io: CliIo;
  /** Today, for the quote's dates. */
  now?: () => Date;
}

const DAY_MS = 86_400_000;

/** YYYY-MM-DD, `days` after `from` (UTC). */
const dayAfter = (from: Date, days: number): string => new Date(from.getTime() + days * DAY_MS).toISOString().slice(0, 10);

/** A failure as the slot's line says it: without the supplier's name in front (the line starts with it). */
function reason(id: SupplierId, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith(`${id}: `) ? message.slice(id.length + 2) : message;
}

/** Whether the API refused the credentials: a 401 or 403 (SupplierError `auth`, or `http` with that status). */
const refusedCredentials = (error: unknown): boolean => error instanceof SupplierError && (error.status === 401 || error.status === 403);

/**
 * The slot's one line, and whether it passed. `bookingPageMissing`: a real slot the gateway would
 * refuse to start with (supplier-slots.ts' bookingPageProblem), its API checked all the same.
 */
async function checkSlot(
  settings: SuppliersCheckSettings,
  slot: SupplierSlot,
  bookingPageMissing: boolean,
  now: Date,
): Promise<{ line: string; ok: boolean }> {
  const head = `${slot.id} ${slot.api} ${slot.baseUrl}${slot.simulated ? ' (simulated)' : ''}`;
  const parts: string[] = [];
  // Said last on every line of a real Hotelbeds or LiteAPI slot, whatever its API answered.
  const bookingPage =
    slot.simulated || !needsBookingUrl(slot.api)
      ? []
      : bookingPageMissing
        ? [
            `booking page NOT SET: set STAYGATE_${slot.id.toUpperCase()}_BOOKING_URL (${slot.api} has no page per stay), without which the gateway refuses to start`,
          ]
        : ['booking page set'];
  const done = (ok: boolean) => ({ line: `${head}: ${[...parts, ...bookingPage].join('; ')}`, ok: ok && !bookingPageMissing });
  const [supplier] = createSuppliers([slot], settings);
  const signal = AbortSignal.timeout(settings.supplierCheckTimeoutMs);
  let page: Listing[] | null = null;
  let skipped = 0;
  let started = performance.now();
  try {
    for await (const listings of supplier.contentPages({ pageSize: settings.supplierCheckPageSize, signal, onSkipped: () => skipped++ })) {
      if (listings.length === 0) continue;
      page = listings;
      break;
    }
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    if (refusedCredentials(error)) parts.push(`auth FAILED: ${reason(slot.id, error).replace(/^auth: /, '')} (${ms} ms)`);
    else if (error instanceof SupplierError && error.kind === 'network') parts.push(`UNREACHABLE: ${reason(slot.id, error)} (${ms} ms)`);
    else parts.push(`content FAILED: ${reason(slot.id, error)} (${ms} ms)`);
    if (slot.simulated && error instanceof SupplierError && error.kind === 'network')
      parts.push('the simulated suppliers run with the server: is it running (npm start) on this data folder?');
    return done(false);
  }
  const contentMs = Math.round(performance.now() - started);
  parts.push('auth ok');
  if (page === null) {
    parts.push(`content FAILED: no stay listed (${contentMs} ms)`);
    return done(false);
  }
  parts.push(
    `content ${count(page.length, 'stay')}, first ${page[0].supplierStayId}${skipped > 0 ? `, ${count(skipped, 'malformed record')} skipped` : ''} (${contentMs} ms)`,
  );
  const ids = page.slice(0, supplier.maxIdsPerQuote).map((listing) => listing.supplierStayId);
  const checkin = dayAfter(now, settings.supplierCheckDaysAhead);
  const checkout = dayAfter(now, settings.supplierCheckDaysAhead + settings.supplierCheckNights);
  started = performance.now();
  let ok = true;
  try {
    const quotes = await supplier.quote(
      {
        supplierStayIds: ids,
        checkin,
        checkout,
        adults: settings.adults,
        children: 0,
        childrenAges: null,
        rooms: settings.rooms,
        currency: 'USD',
      },
      signal,
    );
    const priced = [...quotes.values()].filter((quote) => quote.available).length;
    parts.push(`quote ${checkin} to ${checkout}: ${ids.length} asked, ${priced} priced (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    parts.push(`quote FAILED: ${reason(slot.id, error)} (${Math.round(performance.now() - started)} ms)`);
    ok = false;
  }
  return done(ok);
}

/** Masks the slot's credentials wherever a line would show them (an API echoing a key in its error). */
function masked(line: string, slot: SupplierSlot | null): string {
  if (slot === null) return line;
  return [slot.key, slot.secret].filter((value) => value.length >= 4).reduce((text, value) => text.replaceAll(value, '***'), line);
}

/** Prints a line per slot and a summary; resolves with the exit code (0 every slot passed, 1 otherwise). */
export async function runSuppliersCheck({ slots, settings, dataDir, io, now = () => new Date() }: SuppliersCheckOptions): Promise<number> {
  const simulator = needsSimulator(slots) ? readSimulatorAddress(dataDir) : null;
  const today = now();
  const results = await Promise.all(
    SUPPLIER_IDS.map(async (id) => {
      let slot: SupplierSlot;
      try {
        slot = resolveSupplierSlot(id, slots[id], simulator?.slots[id]);
      } catch (error) {
        // A simulated slot with no simulator to ask: the server has not run on this data folder.
        const hint = simulator === null ? ` (start the server, npm start, on ${dataDir})` : '';
        return { id, slot: null, line: `${id} ${slots[id].api}: FAILED: ${(error as Error).message}${hint}`, ok: false };
      }
      return { id, slot, ...(await checkSlot(settings, slot, bookingPageProblem(id, slots[id]) !== null, today)) };
    }),
  );
  for (const { slot, line } of results) io.out(masked(line, slot));
  const failed = results.filter((result) => !result.ok);
  io.out(
    failed.length === 0
      ? `all ${count(results.length, 'slot')} ok`
      : `${results.length - failed.length} of ${count(results.length, 'slot')} ok; failed: ${failed.map((result) => result.id).join(', ')}`,
  );
  return failed.length === 0 ? 0 : 1;
}
