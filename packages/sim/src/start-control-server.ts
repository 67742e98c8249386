// The simulator's control server: changes the suppliers' faults at run time, for demos, manual
// resilience checks and tests of a gateway running in another process.
//   GET /faults                                  -> { "supplier_a": null, "supplier_b": "timeout", ... }
//   PUT /faults?supplier_b=timeout&supplier_c=none -> the new map (400 on an unknown supplier or mode)
//   POST /world/advance?days=N (1..365)             -> { day, added, removed, changed, counts } (advance-world.ts)
//   GET /exports/transactions.csv?supplier=..&from=..[&to=..] -> the affiliate network's CSV export of
//                                                     a slot's transactions (export-transactions-csv.ts)
//   GET /world/truth?supplier=..                   -> text/plain, a line `<supplier's stay id>\t<property>` per
//                                                     open listing: which listings are one property, for
//                                                     measuring a gateway's entity resolution (bench/world-scale.ts)
// It listens on 127.0.0.1 whatever host the suppliers use: whoever reaches it can take a supplier down.
import http from 'node:http';
import { isSupplierId, type SupplierId } from './types.ts';
import { MAX_ADVANCE_DAYS, type AdvanceResult } from './advance-world.ts';
import type { BookingLedger } from './bookings.ts';
import { exportTransactionsCsv } from './export-transactions-csv.ts';
import { readReportWindow } from './read-report-window.ts';
import { close, errorBody, listen, SupplierHttpError } from './create-supplier-server.ts';
import { parseFaultMode, type FaultMode } from './parse-sim-faults.ts';

export const FAULTS_PATH = '/faults';
export const ADVANCE_PATH = '/world/advance';
export const EXPORTS_PATH = '/exports/transactions.csv';
export const TRUTH_PATH = '/world/truth';
/** Lines of the truth written at a time: a 10M-listing world streams, not one string of 200 MB. */
const TRUTH_LINES = 10_000;

export interface StartControlServerOptions {
  faults(): Record<SupplierId, string | null>;
  setFault(supplier: SupplierId, mode: string | null): Promise<void>;
  /** Moves the simulated content `days` days forward (advance-world.ts). */
  advance(days: number): AdvanceResult;
  /** The bookings, for the transaction exports. */
  ledger: BookingLedger;
  /** A supplier's open listings with the property each is of (the world's, as served now). */
  listings(supplier: SupplierId): readonly { supplierStayId: string; propertyId: number }[];
  /** 0 or absent: an ephemeral port. */
  port?: number;
}

export interface ControlServer {
  /** "http://127.0.0.1:<port>" */
  url: string;
  close(): Promise<void>;
}

const badRequest = (param: string, value: string, message: string): SupplierHttpError =>
  new SupplierHttpError(400, message, { param, value });

/** Reads `?supplier_b=timeout&supplier_c=none`, all or nothing: one bad entry and none is applied. */
function readChanges(query: URLSearchParams): [SupplierId, FaultMode | null][] {
  const changes = new Map<SupplierId, FaultMode | null>();
  for (const [key, value] of query) {
    if (!isSupplierId(key)) throw badRequest(key, value, `unknown supplier "${key}"`);
    if (changes.has(key)) throw badRequest(key, value, `${key} is given twice`);
    try {
      changes.set(key, parseFaultMode(value));
    } catch (error) {
      throw badRequest(key, value, (error as Error).message);
    }
  }
  if (changes.size === 0) throw badRequest('supplier', '', 'give at least one <supplier>=<mode>, e.g. ?supplier_b=down');
  return [...changes];
}

/** `?supplier=<id>&from=<ISO 8601>[&to=<ISO 8601, default now>]`: the export's CSV, or a SupplierHttpError (400). */
function exportCsv(ledger: BookingLedger, query: URLSearchParams): string {
  const supplier = query.get('supplier') ?? '';
  if (!isSupplierId(supplier)) throw badRequest('supplier', supplier, 'supplier must be one of supplier_a .. supplier_d');
  return exportTransactionsCsv(ledger, supplier, readReportWindow(query, { from: 'from', to: 'to' }, ledger.now()));
}

export async function startControlServer({
  faults,
  setFault,
  advance,
  ledger,
  listings,
  port = 0,
}: StartControlServerOptions): Promise<ControlServer> {
  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      const payload = JSON.stringify(body);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers });
      res.end(payload);
    };
    req.resume();
    const url = new URL(req.url ?? '/', 'http://control.invalid');
    if (url.pathname === ADVANCE_PATH) {
      if (req.method !== 'POST') return send(405, errorBody(405, `${req.method} is not allowed on ${ADVANCE_PATH}`), { Allow: 'POST' });
      const text = url.searchParams.get('days') ?? '';
      const days = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
      if (!(days >= 1 && days <= MAX_ADVANCE_DAYS)) {
        return send(400, errorBody(400, `days must be an integer from 1 to ${MAX_ADVANCE_DAYS}`, { param: 'days', value: text }));
      }
      return send(200, advance(days));
    }
    if (url.pathname === EXPORTS_PATH) {
      if (req.method !== 'GET') return send(405, errorBody(405, `${req.method} is not allowed on ${EXPORTS_PATH}`), { Allow: 'GET' });
      let csv: string;
      try {
        csv = exportCsv(ledger, url.searchParams);
      } catch (error) {
        if (!(error instanceof SupplierHttpError)) throw error;
        return send(error.status, errorBody(error.status, error.message, error.details));
      }
      const name = `transactions-${url.searchParams.get('supplier')}.csv`;
      res.writeHead(200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Content-Length': Buffer.byteLength(csv),
      });
      return res.end(csv);
    }
    if (url.pathname === TRUTH_PATH) {
      if (req.method !== 'GET') return send(405, errorBody(405, `${req.method} is not allowed on ${TRUTH_PATH}`), { Allow: 'GET' });
      const supplier = url.searchParams.get('supplier') ?? '';
      if (!isSupplierId(supplier)) {
        return send(400, errorBody(400, 'supplier must be one of supplier_a .. supplier_d', { param: 'supplier', value: supplier }));
      }
      return void writeTruth(res, listings(supplier));
    }
    if (url.pathname !== FAULTS_PATH) return send(404, errorBody(404, `no route for ${url.pathname}`));
    if (req.method === 'GET') return send(200, faults());
    if (req.method !== 'PUT') return send(405, errorBody(405, `${req.method} is not allowed on ${FAULTS_PATH}`), { Allow: 'GET, PUT' });
    try {
      const changes = readChanges(url.searchParams);
      for (const [supplier, mode] of changes) await setFault(supplier, mode);
      send(200, faults());
    } catch (error) {
      if (error instanceof SupplierHttpError) send(error.status, errorBody(error.status, error.message, error.details));
      else send(500, errorBody(500, `could not apply the faults: ${(error as Error).message}`));
    }
  });
  const url = await listen(server, port, '127.0.0.1');
  return { url, close: () => close(server) };
}

/** The truth's lines, a block at a time, each block written once the socket has taken the last. */
async function writeTruth(res: http.ServerResponse, listings: readonly { supplierStayId: string; propertyId: number }[]): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  for (let from = 0; from < listings.length && !res.destroyed; from += TRUTH_LINES) {
    let block = '';
    for (const l of listings.slice(from, from + TRUTH_LINES)) block += `${l.supplierStayId}\t${l.propertyId}\n`;
    if (!res.write(block)) {
      await new Promise<void>((resolve) => {
        const go = (): void => {
          res.off('drain', go).off('close', go);
          resolve();
        };
        res.on('drain', go).on('close', go);
      });
    }
  }
  res.end();
}
