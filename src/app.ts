// The composition root: the only module that names concrete suppliers, stores and geocoders.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defaults } from './defaults.ts';
import { createGazetteerGeocoder } from './geo/gazetteer-geocoder.ts';
import type { Geocoder } from './geo/geocoder.ts';
import { createHttpApp } from './http/create-http-app.ts';
import type { Services } from './http/route-context.ts';
import { ensureInventory } from './inventory/ingest.ts';
import { createStayCache } from './inventory/stay-cache.ts';
import { buildStayIndex } from './inventory/stay-index.ts';
import { createSearch } from './search/search.ts';
import { createSqliteStore } from './store/sqlite-store.ts';
import { createSupplierA } from './suppliers/supplier-a.ts';
import { createSupplierB } from './suppliers/supplier-b.ts';
import { createSupplierC } from './suppliers/supplier-c.ts';
import { createSupplierD } from './suppliers/supplier-d.ts';
import type { Supplier, SupplierConfig } from './suppliers/supplier.ts';
import { createQuoteService } from './suppliers/quote-service.ts';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';

const ADAPTERS: Record<SupplierId, (config: SupplierConfig) => Supplier> = {
  supplier_a: createSupplierA,
  supplier_b: createSupplierB,
  supplier_c: createSupplierC,
  supplier_d: createSupplierD,
};

export interface AppOptions {
  dataDir: string;
  supplierUrls: Record<SupplierId, string>;
  publicUrl?: string | null;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  geocoder?: Geocoder;
  /** Full stays kept in memory in front of the store. */
  stayCacheSize?: number;
  /** Where `meta.total` saturates. */
  totalCap?: number;
  /** Overall deadline for the suppliers' quotes of one search. */
  quoteBudgetMs?: number;
  /** Milliseconds clock of the circuit breakers and the quote cache (tests move it by hand). */
  clock?: () => number;
}

export interface App {
  http: FastifyInstance;
  /** Settles once the inventory is ingested (first start) or loaded, and the index is built. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  mkdirSync(options.dataDir, { recursive: true });
  const store = createSqliteStore({ path: path.join(options.dataDir, 'staygate.sqlite') });
  const suppliers = SUPPLIER_IDS.map((id) => ADAPTERS[id]({ id, baseUrl: options.supplierUrls[id] }));
  const quotes = new Map(suppliers.map((supplier) => [supplier.id, createQuoteService({ supplier, now: options.clock })]));
  const gazetteer = options.geocoder === undefined ? createGazetteerGeocoder() : null;
  const geocoder: Geocoder = options.geocoder ?? gazetteer!;
  let services: Services | null = null;

  const http = createHttpApp({
    services: () => services,
    now: options.now ?? (() => new Date()),
    publicUrl: options.publicUrl ?? null,
    logger: options.logger ?? false,
  });

  const ready = (async () => {
    const log = (message: string) => http.log.info(message);
    await ensureInventory({ suppliers, store, log });
    const started = performance.now();
    const index = await buildStayIndex(store.indexRows());
    log(`index of ${index.size} stays built in ${Math.round(performance.now() - started)} ms`);
    const version = (await store.inventoryVersion()) ?? 'unknown';
    gazetteer?.warm(); // loads the gazetteer now rather than in the first address search
    services = {
      search: createSearch({
        index,
        stays: createStayCache(store, { capacity: options.stayCacheSize ?? defaults.stayCacheSize }),
        store,
        geocoder,
        totalCap: options.totalCap ?? defaults.totalCap,
        quotes,
        pricedCandidates: defaults.pricedCandidates,
        quoteBudgetMs: options.quoteBudgetMs ?? defaults.quoteBudgetMs,
      }),
      inventory: { stays: index.size, version },
    };
  })();

  return {
    http,
    ready,
    async close() {
      await http.close();
      await ready.catch(() => undefined);
      await store.close();
    },
  };
}
