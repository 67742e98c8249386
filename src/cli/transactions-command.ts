// `staygate transactions sync|reconcile|status`: the suppliers' commission reports, pulled now.
import { createSuppliers } from '../app.ts';
import type { Config } from '../config.ts';
import type { RecordStores } from '../compose/open-stores.ts';
import { describeLastImport } from '../reporting/import-transactions.ts';
import { describeSync } from '../reporting/describe-sync.ts';
import { createTransactionSync, type SupplierSyncResult } from '../reporting/sync-transactions.ts';
import { count } from '../text/plural.ts';
import type { SupplierId } from '../types.ts';
import type { CliIo } from './cli-io.ts';
import { cliSupplierSlots, NO_SUPPLIERS, unreachableMessage } from './cli-slots.ts';
import { UsageError } from './usage-error.ts';

export async function transactionsCommand(config: Config, stores: RecordStores, args: string[], io: CliIo): Promise<number> {
  const { dataDir } = config;
  const [given, ...rest] = args;
  const full = given === 'sync' && rest.length === 1 && rest[0] === '--full';
  if (rest.length > 0 && !full) throw new UsageError(`transactions ${given} takes no arguments${given === 'sync' ? ' but --full' : ''}`);
  const command = full ? 'reconcile' : given;
  const { keys, clicks, transactions: store } = stores;
  if (command !== 'status' && command !== 'sync' && command !== 'reconcile')
    throw new UsageError(command === undefined ? 'transactions needs a command' : `unknown command "transactions ${command}"`);
  const slots = cliSupplierSlots(config.suppliers, dataDir);
  if (command === 'status') {
    // Which slots have no report API is known from their drivers, when the slots are.
    const noReport = new Set(
      (slots === null ? [] : createSuppliers(slots, config.settings)).filter((s) => !s.commissionReport).map((s) => s.id),
    );
    const stats = await store.stats();
    io.out(`${count(stats.total, 'transaction')}, ${stats.unattributed} owned by no partner (unknown click, or an aid no key carries)`);
    for (const [supplier, s] of Object.entries(stats.bySupplier)) {
      const synced = s.syncedThrough === null ? 'never synced' : `changes synced through ${s.syncedThrough} (at ${s.syncedAt})`;
      const imported = describeLastImport(s.lastImport);
      io.out(
        noReport.has(supplier as SupplierId)
          ? `${supplier}: ${count(s.transactions, 'transaction')}, no commission report API (staygate transactions import); ${imported}`
          : `${supplier}: ${count(s.transactions, 'transaction')}, ${synced}${s.lastImport === null ? '' : `; ${imported}`}`,
      );
    }
    return 0;
  }
  if (slots === null) {
    io.err(NO_SUPPLIERS);
    return 1;
  }
  {
    const sync = createTransactionSync({
      suppliers: createSuppliers(slots, config.settings),
      store,
      clicks,
      keys,
      settings: config.settings,
    });
    // Each line is printed once its report is in the database: what is printed survives a crash.
    const lines: string[] = [];
    const onResult = (r: SupplierSyncResult) => (r.unreachable ? lines.push(describeSync(r)) : io.out(describeSync(r)));
    const all = command === 'reconcile' ? await sync.reconcileAll({ onResult }) : await sync.syncAll({ onResult });
    // A slot without a report API was skipped (its line says so): no failure, and not counted.
    const results = all.filter((r) => !r.noReport);
    if (results.length > 0 && results.every((r) => r.unreachable)) {
      io.err(
        unreachableMessage(
          slots,
          dataDir,
          slots.every((slot) => slot.simulated),
        ),
      );
      return 1;
    }
    for (const line of lines) io.out(line);
    const failed = results.filter((r) => !r.ok).length;
    const missed = results.reduce((a, r) => a + r.missed.length, 0);
    const skipped = all.length - results.length;
    io.out(
      (command === 'reconcile'
        ? `reconciled ${results.length - failed} of ${count(results.length, 'supplier')} over ${count(config.settings.reportReconcileDays, 'day')}: ${missed} the incremental sync missed`
        : `synced ${results.length - failed} of ${count(results.length, 'supplier')}`) +
        (skipped > 0 ? `; ${skipped} without a commission report API (staygate transactions import)` : ''),
    );
    return failed > 0 ? 1 : 0;
  }
}
