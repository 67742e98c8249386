// `staygate content refresh`: every supplier's content feed pulled now, a new content version published.
import { SUPPLIERS_MODULE } from '../app.ts';
import type { Config } from '../config.ts';
import { openStores } from '../compose/open-stores.ts';
import { supplierConfig } from '../compose/supplier-slots.ts';
import { createContentWorker } from '../inventory/content-worker-client.ts';
import { withLease } from '../store/hold-lease.ts';
import { count } from '../text/plural.ts';
import type { SupplierId } from '../types.ts';
import type { CliIo } from './cli-io.ts';
import { cliSupplierSlots, NO_SUPPLIERS } from './cli-slots.ts';
import { UsageError } from './usage-error.ts';

export async function contentCommand(config: Config, args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'refresh')
    throw new UsageError(command === undefined ? 'content needs a command' : `unknown command "content ${command}"`);
  if (rest.length > 0) throw new UsageError('content refresh takes no arguments');
  const { dataDir } = config;
  const slots = cliSupplierSlots(config.suppliers, dataDir);
  if (slots === null) {
    io.err(NO_SUPPLIERS);
    return 1;
  }
  const stores = await openStores(config);
  const worker = createContentWorker({
    where: stores.location,
    feeds: { module: SUPPLIERS_MODULE, configs: slots.map(supplierConfig) },
    settings: config.settings,
  });
  try {
    // One content refresh at a time on a database, whoever runs it (docs/decisions.md 76).
    const held = await withLease({ leases: stores.leases, name: 'content', ttlMs: config.settings.contentLeaseMs }, () =>
      worker.refresh({ shrinkLimit: config.settings.feedShrinkLimit }),
    );
    if (!held.ran) {
      io.err(`staygate: a content refresh is already running (${held.holder ?? 'another process'}); nothing done`);
      return 1;
    }
    const { feeds, result } = held.value;
    let failed = 0;
    for (const [supplier, feed] of Object.entries(feeds)) {
      const verdict = result?.suppliers[supplier as SupplierId];
      if (!feed.ok) {
        failed++;
        // The error names the supplier already (SupplierError): the line says it once.
        const error = feed.error.startsWith(`${supplier}: `) ? feed.error.slice(supplier.length + 2) : feed.error;
        io.out(`${supplier}: FAILED, its previous listings are kept: ${error}`);
      } else if (verdict?.verdict === 'held back') {
        failed++;
        io.out(`${supplier}: HELD BACK, its previous ${count(verdict.previous, 'listing')} are kept: ${verdict.lastError}`);
      } else {
        io.out(
          `${supplier}: ${count(feed.listings, 'listing')} (${feed.ms} ms)${feed.skipped > 0 ? `, ${count(feed.skipped, 'malformed or repeated record')} skipped` : ''}`,
        );
      }
    }
    if (result === null) io.out('nothing published: no supplier answered');
    else if (result.unchanged)
      io.out(`content unchanged: version ${result.no}, ${count(result.stays, 'stay')}, still served; nothing written (${result.ms} ms)`);
    else
      io.out(
        `content version ${result.no}: ${count(result.stays, 'stay')}, ${result.added} added, ${result.removed} removed, ${result.changed} changed (${result.ms} ms)`,
      );
    return failed > 0 || result === null ? 1 : 0;
  } finally {
    await worker.close();
    await stores.close();
  }
}
