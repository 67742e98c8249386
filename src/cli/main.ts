// The `staygate` command (bin/staygate.js runs it): operators manage API keys in the data folder
// the server uses (STAYGATE_DATA_DIR), and pull the suppliers' commission reports on demand. A
// running server sees every key change within a second.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSuppliers } from '../app.ts';
import { createKeyAdmin, KeyAdminError, type KeyAdmin } from '../auth/key-admin.ts';
import type { ApiKeyRecord, KeyStore } from '../auth/key-store.ts';
import { createSqliteKeyStore } from '../auth/sqlite-key-store.ts';
import { createSqliteClickStore } from '../clicks/sqlite-click-store.ts';
import { readConfig } from '../config.ts';
import { defaults } from '../defaults.ts';
import { createSqliteTransactionStore } from '../reporting/sqlite-transaction-store.ts';
import { createTransactionSync, type SupplierSyncResult } from '../reporting/sync-transactions.ts';
import { readSimulatorAddress } from '../simulator-address.ts';
import { createContentWorker } from '../inventory/content-worker-client.ts';
import { refreshContent } from '../inventory/refresh-content.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { SupplierId } from '../types.ts';

const USAGE = `Usage: staygate keys <command>
       staygate transactions <command>
       staygate content refresh

  keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]
      Creates a key and prints it as the last line. It is shown only this once: only its hash is kept.
      --partner defaults to the aid; --limit is requests per minute per endpoint (default ${defaults.keyedPerMinute});
      --pending creates it without API access, as the partner dashboard does, until "keys grant".
  keys grant <key | key id>     Gives a pending key API access.
  keys revoke <key | key id>    Revokes a key for good.
  keys list [--json]            Lists every key (never its secret).

  transactions sync             Pulls every supplier's commission report now, as the server does every
                                5 minutes; prints a line per supplier as it is applied. Exit 1 if one failed.
  transactions status           Transactions held, per supplier, and the period synced.

  content refresh               Pulls every supplier's content feed now, as the server does every hour,
                                and publishes a new content version; a running server serves it within
                                seconds. Prints a line per supplier and the stays added, removed and
                                changed. Exit 1 if a supplier failed or its feed was held back.

The keys and transactions live in <STAYGATE_DATA_DIR>/staygate.sqlite (default ./data), beside the
inventory. The suppliers are STAYGATE_SUPPLIER_<A..D>_URL, or the simulated ones of the server
running on the same data folder.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const STD_IO: CliIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

class UsageError extends Error {}

function describe(record: ApiKeyRecord): string {
  const limit = record.limitPerMinute === null ? `${defaults.keyedPerMinute}/min (default)` : `${record.limitPerMinute}/min`;
  return `key ${record.id}: partner ${record.partnerId}, aid ${record.aid}, ${record.status}, limit ${limit}, ` +
    `third parties: ${record.thirdParties.length > 0 ? record.thirdParties.join(', ') : '(none)'}`;
}

function table(records: ApiKeyRecord[]): string[] {
  const rows = [['ID', 'STATUS', 'PARTNER', 'AID', 'LIMIT', 'THIRD PARTIES', 'CREATED']];
  for (const r of records) {
    rows.push([r.id, r.status, r.partnerId, r.aid, r.limitPerMinute === null ? 'default' : String(r.limitPerMinute), r.thirdParties.join(',') || '-', r.createdAt]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
}

async function keysCommand(admin: KeyAdmin, args: string[], io: CliIo): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const { values, positionals } = parseArgs({
        args: rest,
        options: {
          aid: { type: 'string' },
          'third-party': { type: 'string', multiple: true },
          limit: { type: 'string' },
          partner: { type: 'string' },
          pending: { type: 'boolean' },
        },
        allowPositionals: true,
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      if (values.aid === undefined) throw new UsageError('keys create needs --aid <aid>');
      if (values.limit !== undefined && !/^\d+$/.test(values.limit)) throw new UsageError(`--limit must be a whole number, got "${values.limit}"`);
      const { key, record } = await admin.create({
        aid: values.aid,
        partnerId: values.partner,
        thirdParties: values['third-party'],
        limitPerMinute: values.limit === undefined ? null : Number(values.limit),
        pending: values.pending,
      });
      io.out(`Created ${describe(record)}`);
      if (record.status === 'pending') io.out('It has no API access until: staygate keys grant <key>');
      io.out('The key is shown only this once; only its hash is kept:');
      io.out(key);
      return;
    }
    case 'grant':
    case 'revoke': {
      const [target, ...extra] = rest;
      if (target === undefined || extra.length > 0) throw new UsageError(`keys ${command} takes one key or key id`);
      const record = command === 'grant' ? await admin.grant(target) : await admin.revoke(target);
      io.out(`${command === 'grant' ? 'Granted' : 'Revoked'} ${describe(record)}`);
      return;
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
      const records = await admin.list();
      if (values.json) io.out(JSON.stringify(records, null, 2));
      else for (const line of records.length === 0 ? ['No keys yet: staygate keys create --aid <aid>'] : table(records)) io.out(line);
      return;
    }
    default:
      throw new UsageError(command === undefined ? 'keys needs a command' : `unknown command "keys ${command}"`);
  }
}

function describeSync(r: SupplierSyncResult): string {
  if (!r.ok) return `${r.supplier}: FAILED, nothing applied (asked again next time): ${r.error}`;
  const unknown = r.unknownClicks > 0 ? `, ${r.unknownClicks} with a click we do not know` : '';
  return `${r.supplier}: ${r.received} records of the changes ${r.from} .. ${r.to}: ${r.inserted} new, ${r.updated} updated, ` +
    `${r.unchanged} unchanged${unknown} (${r.ms} ms)`;
}

async function transactionsCommand(dataDir: string, env: NodeJS.ProcessEnv, keys: KeyStore, args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (rest.length > 0) throw new UsageError(`transactions ${command} takes no arguments`);
  const database = path.join(dataDir, 'staygate.sqlite');
  if (command === 'status') {
    const store = createSqliteTransactionStore({ path: database, readConnections: 0 });
    try {
      const stats = await store.stats();
      io.out(`${stats.total} transactions, ${stats.unattributed} owned by no partner (unknown click, or an aid no key carries)`);
      for (const [supplier, s] of Object.entries(stats.bySupplier)) {
        io.out(`${supplier}: ${s.transactions} transactions, ${s.syncedThrough === null ? 'never synced' : `changes synced through ${s.syncedThrough} (at ${s.syncedAt})`}`);
      }
      return 0;
    } finally {
      await store.close();
    }
  }
  if (command !== 'sync') throw new UsageError(command === undefined ? 'transactions needs a command' : `unknown command "transactions ${command}"`);
  const urls = readConfig(env).supplierUrls ?? readSimulatorAddress(dataDir)?.urls;
  if (urls === undefined) {
    io.err('staygate: no suppliers to ask: set STAYGATE_SUPPLIER_<A..D>_URL, or start the server (npm start) on this data folder');
    return 1;
  }
  const store = createSqliteTransactionStore({ path: database, readConnections: 0 });
  const clicks = createSqliteClickStore({ path: database });
  try {
    const sync = createTransactionSync({ suppliers: createSuppliers(urls), store, clicks, keys });
    // Each line is printed once its report is in the database: what is printed survives a crash.
    const results = await sync.syncAll({ onResult: (r) => io.out(describeSync(r)) });
    const failed = results.filter((r) => !r.ok).length;
    io.out(`synced ${results.length - failed} of ${results.length} suppliers`);
    return failed > 0 ? 1 : 0;
  } finally {
    await Promise.all([store.close(), clicks.close()]);
  }
}

async function contentCommand(dataDir: string, env: NodeJS.ProcessEnv, args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'refresh') throw new UsageError(command === undefined ? 'content needs a command' : `unknown command "content ${command}"`);
  if (rest.length > 0) throw new UsageError('content refresh takes no arguments');
  const config = readConfig(env);
  const urls = config.supplierUrls ?? readSimulatorAddress(dataDir)?.urls;
  if (urls === undefined) {
    io.err('staygate: no suppliers to ask: set STAYGATE_SUPPLIER_<A..D>_URL, or start the server (npm start) on this data folder');
    return 1;
  }
  const database = path.join(dataDir, 'staygate.sqlite');
  const store = createSqliteStore({ path: database });
  const worker = createContentWorker({ storePath: database });
  try {
    const { feeds, result } = await refreshContent({ suppliers: createSuppliers(urls), worker, shrinkLimit: config.feedShrinkLimit });
    let failed = 0;
    for (const [supplier, feed] of Object.entries(feeds)) {
      const verdict = result?.suppliers[supplier as SupplierId];
      if (!feed.ok) {
        failed++;
        io.out(`${supplier}: FAILED, its previous listings are kept: ${feed.error}`);
      } else if (verdict?.verdict === 'held back') {
        failed++;
        io.out(`${supplier}: HELD BACK, its previous ${verdict.previous} listings are kept: ${verdict.lastError}`);
      } else {
        io.out(`${supplier}: ${feed.listings} listings (${feed.ms} ms)${feed.skipped > 0 ? `, ${feed.skipped} malformed or repeated records skipped` : ''}`);
      }
    }
    if (result === null) io.out('nothing published: no supplier answered');
    else io.out(`content version ${result.no}: ${result.stays} stays, ${result.added} added, ${result.removed} removed, ${result.changed} changed (${result.ms} ms)`);
    return failed > 0 || result === null ? 1 : 0;
  } finally {
    await worker.close();
    await store.close();
  }
}

/** Runs the CLI; resolves with the exit code (0 done, 1 refused, 2 wrong usage). */
export async function main(argv: string[], io: CliIo = STD_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, ...args] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
    io.out(USAGE);
    return group === undefined ? 2 : 0;
  }
  let store = null;
  try {
    if (group !== 'keys' && group !== 'transactions' && group !== 'content') throw new UsageError(`unknown command "${group}"`);
    const dataDir = readConfig(env).dataDir;
    if (group === 'content') return await contentCommand(dataDir, env, args, io);
    store = createSqliteKeyStore({ path: path.join(dataDir, 'staygate.sqlite') });
    if (group === 'transactions') return await transactionsCommand(dataDir, env, store, args, io);
    await keysCommand(createKeyAdmin(store), args, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`staygate: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof KeyAdminError) {
      io.err(`staygate: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await store?.close();
  }
}
