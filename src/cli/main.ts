// The `staygate` command (bin/staygate.js runs it): operators manage API keys in the data folder
// the server uses (STAYGATE_DATA_DIR), and pull the suppliers' commission reports on demand. A
// running server sees every key change within a second.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSuppliers, SUPPLIERS_MODULE } from '../app.ts';
import { createKeyAdmin, KeyAdminError, type KeyAdmin } from '../auth/key-admin.ts';
import type { ApiKeyRecord } from '../auth/key-store.ts';
import { readConfig, type Config } from '../config.ts';
import { defaults } from '../defaults.ts';
import { openStores, sqliteLocation, type RecordStores } from '../compose/open-stores.ts';
import { count } from '../text/plural.ts';
import { describeSync } from '../reporting/describe-sync.ts';
import { describeLastImport } from '../reporting/import-transactions.ts';
import { createTransactionSync, type SupplierSyncResult } from '../reporting/sync-transactions.ts';
import { readSimulatorAddress } from '../compose/simulator-address.ts';
import { needsSimulator, resolveSupplierSlots, supplierConfig, type SupplierSlot } from '../compose/supplier-slots.ts';
import { createContentWorker } from '../inventory/content-worker-client.ts';
import { withLease } from '../store/hold-lease.ts';
import { migratePg } from '../store/pg-migrate.ts';
import { describePgConnectError, pgTarget } from '../store/pg-connect-error.ts';
import { openPgPool } from '../store/pg-pool.ts';
import type { SupplierId } from '../types.ts';
import { runMcpCommand } from './mcp-command.ts';
import { IMPORT_HELP, parseImportArgs, runTransactionsImport, type ImportInvocation } from './transactions-import-command.ts';
import { UsageError } from './usage-error.ts';
import { STD_IO, type CliIo } from './cli-io.ts';
import { runSuppliersCheck } from './suppliers-command.ts';

const { version: VERSION } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const USAGE = `Usage: staygate keys <command>
       staygate transactions <command>
       staygate content refresh
       staygate suppliers check
       staygate db migrate
       staygate mcp [--url <gateway url>] [--key <key>]
       staygate sim [--port <p>]
       staygate --version | --help
       staygate <command> [<sub-command>] --help

  keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]
      Creates a key and prints it as the last line. It is shown only this once: only its hash is kept.
      --partner defaults to the aid; --limit is requests per minute per endpoint (default ${defaults.keyedPerMinute});
      --pending creates it without API access, as the partner dashboard does, until "keys grant".
  keys grant <key | key id>     Gives a pending key API access.
  keys revoke <key | key id>    Revokes a key for good.
  keys list [--json]            Lists every key (never its secret).
  keys map-token --key <key | key id> --origin <origin>... [--limit <n>]
                                Makes a publishable token for the key's partner's embedded maps, usable
                                from the origins listed (https://blog.example, https://*.example,
                                http://localhost:*, self); prints it as the last line.
  keys map-tokens [--json]      Lists every map token, its partner, origins and status.
  keys revoke-map-token <token> Revokes a map token for good.

  transactions sync             Pulls every supplier's commission report now, as the server does every
                                5 minutes; prints a line per supplier as it is applied. Exit 1 if one failed.
  transactions reconcile        (or: transactions sync --full) Re-reads the last ${defaults.reportReconcileDays} days of every report
                                (STAYGATE_REPORT_RECONCILE_DAYS), as the server does daily, and says what
                                the incremental pulls had missed (changes published later than the overlap).
  transactions status           Transactions held, per supplier, the period synced and the last import.
  transactions import --supplier <id> [--map <ours>=<theirs>,...] [--mapping <FILE.json>] FILE.csv
                                Imports an affiliate network's CSV export of a supplier's transactions,
                                for a slot whose API has no commission report (sync skips it and says
                                so); again changes nothing. "transactions import --help" for the options.

  content refresh               Pulls every supplier's content feed now, as the server does every hour,
                                and publishes a new content version; a running server serves it within
                                seconds. Prints a line per supplier and the stays added, removed and
                                changed. Exit 1 if a supplier failed or its feed was held back.
  suppliers check               Calls each supplier slot's API as the gateway would (the configured slots,
                                the simulated ones of the server on this data folder), with its credentials:
                                a line per slot with auth ok/FAILED, one content page and one quote 30 days
                                ahead, and their times. Exit 1 if a slot failed. Never prints a credential.
  db migrate                    Applies the PostgreSQL schema's migrations to DATABASE_URL and prints
                                what it applied (gateways also migrate when they start).
  mcp [--url <url>] [--key <key>]
                                Serves the gateway's MCP tools over stdio for a desktop agent, each call a
                                request to the gateway at --url (default STAYGATE_URL, else
                                http://localhost:${defaults.port}) with --key (default STAYGATE_API_KEY; none = demo).
  sim [--port <p>]              Runs the simulated suppliers alone (a..d on ports p..p+3, control on p+4;
                                no --port: ephemeral ports), state in <STAYGATE_DATA_DIR>/sim, and prints
                                STAYGATE_SUPPLIER_<A..D>_URL=... and STAYGATE_SIM_CONTROL_URL=... lines for
                                a gateway to export. Runs until SIGTERM or Ctrl-C.

The keys and transactions live in the database of DATABASE_URL (postgres://...) when it is set, else
in <STAYGATE_DATA_DIR>/staygate.sqlite (default ./data, from the folder you run it in), beside the
inventory: the server makes it on its first start. The suppliers
are the slots of STAYGATE_SUPPLIER_<A..D>_URL (with _API, _KEY, _SECRET, _AFFILIATE_ID), and for a
slot without a URL the simulated one of the server running on the same data folder.`;

/** Help of each command and sub-command (`staygate keys create --help`). */
const HELP: Record<string, string> = {
  keys: `Usage: staygate keys create|grant|revoke|list ...

  keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]
  keys grant <key | key id>
  keys revoke <key | key id>
  keys list [--json]
  keys map-token --key <key | key id> --origin <origin>... [--limit <n>]
  keys map-tokens [--json]
  keys revoke-map-token <token>

Run "staygate keys <command> --help" for one command.`,
  'keys map-token': `Usage: staygate keys map-token --key <key | key id> --origin <origin>... [--limit <n>]

Makes a publishable map token for the partner of an active key and prints it as the last line. The
partner's embedded map carries it (/map?token=...; the hub's embed snippet has it); its searches get
the token's allowance, not the keyless one, and are counted on the partner's hub. It works only from
the origins listed, while the partner has an active key.
  --key <key | key id>   an active key of the partner (its aid goes into the map's links)
  --origin <origin>      a site that embeds the map: https://blog.example, https://*.example (any
                         subdomain), http://localhost:* (any port), or self (/map opened on the
                         gateway itself); repeatable
  --limit <n>            searches per minute of the whole token (default ${defaults.mapTokenPerMinute})`,
  'keys map-tokens': `Usage: staygate keys map-tokens [--json]

Lists every map token: the token (public by design), partner, aid, origins, limit, status.`,
  'keys revoke-map-token': `Usage: staygate keys revoke-map-token <token>

Revokes a map token for good; a running server refuses it within a second.`,
  'keys create': `Usage: staygate keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]

Creates an API key for a partner and prints it as the last line, once: only its hash is kept.
  --aid <aid>            the affiliate id written into every link the key's searches return (required)
  --third-party <name>   a platform the key may report for (GET /v1/reporting/transactions?thirdParty=); repeatable
  --limit <n>            requests per minute per endpoint (default ${defaults.keyedPerMinute})
  --partner <id>         the partner owning the key (default: the aid)
  --pending              no API access until "staygate keys grant", as a key made in the partner dashboard`,
  'keys grant': `Usage: staygate keys grant <key | key id>

Gives a pending key API access. A revoked key cannot be granted again: create a new one.`,
  'keys revoke': `Usage: staygate keys revoke <key | key id>

Revokes a key for good; a running server refuses it within a second.`,
  'keys list': `Usage: staygate keys list [--json]

Lists every key: id, status, partner, aid, limit, third parties, creation time. Never a secret.`,
  transactions: `Usage: staygate transactions sync|reconcile|status|import

  transactions sync      Pulls every supplier's commission report now.
  transactions reconcile Re-reads the last ${defaults.reportReconcileDays} days of every report.
  transactions status    Transactions held, per supplier, the period synced and the last import.
  transactions import --supplier <id> FILE.csv
                         Imports a supplier's transactions from an affiliate network's CSV export.

Run "staygate transactions <command> --help" for one command.`,
  'transactions sync': `Usage: staygate transactions sync

Pulls every supplier's commission report now, as the server does every 5 minutes, and prints a line
per supplier once its report is stored. Exit 1 if one failed. A slot whose API has no commission
report (Hotelbeds, Expedia Rapid) is skipped, and its line says so: import its CSV export with
"staygate transactions import". The suppliers are STAYGATE_SUPPLIER_<A..D>_URL, or the simulated
ones of the server running on this data folder.`,
  'transactions import': IMPORT_HELP,
  content: `Usage: staygate content refresh

Pulls every supplier's content feed now and publishes a new content version. Run
"staygate content refresh --help" for details.`,
  'content refresh': `Usage: staygate content refresh

Pulls every supplier's content feed now, as the server does every hour, and publishes a new
content version; a running server serves it within seconds. Prints a line per supplier and the
stays added, removed and changed, or that nothing changed (then nothing is written and the
served version stays). Exit 1 if a supplier failed or its feed was held back.`,
  sim: `Usage: staygate sim [--port <p>]

Runs the four simulated suppliers and their control server on their own, without a gateway: supplier_a
to supplier_d on ports p..p+3, the control server on p+4 (127.0.0.1), every one on an ephemeral port
without --port. Prints, one per line and nothing else on stdout:
  STAYGATE_SUPPLIER_A_URL=http://127.0.0.1:<p>  ...  STAYGATE_SUPPLIER_D_URL=...  STAYGATE_SIM_CONTROL_URL=...
so that a gateway started with those variables uses these suppliers instead of starting its own:
  npx staygate sim --port 4100 > sim.env &
  set -a; . ./sim.env; set +a; npm start
The world is STAYGATE_SIM_SEED and STAYGATE_SIM_STAYS; STAYGATE_SIM_HOST, STAYGATE_SIM_LATENCY_MS and
STAYGATE_SIM_FAULTS apply as for the embedded simulator. Bookings and the world's day are kept in
<STAYGATE_DATA_DIR>/sim. Runs until SIGTERM or SIGINT (Ctrl-C), then closes and exits 0; exit 1 if a
port is taken.`,
  suppliers: `Usage: staygate suppliers check

Run "staygate suppliers check --help" for details.`,
  'suppliers check': `Usage: staygate suppliers check

For each supplier slot as the gateway runs it (STAYGATE_SUPPLIER_<X>_API, _URL, _KEY, _SECRET,
_AFFILIATE_ID; a slot without _URL is the simulated one of the server running on this data folder),
calls its API with the configured credentials and prints one line per slot: the slot, its API and
URL, auth ok or FAILED (with the supplier's message), one content page (how many stays, the first
id), one quote of those ids for ${defaults.supplierCheckNights} nights ${defaults.supplierCheckDaysAhead} days ahead (ids asked, how many priced), the
round-trip times, and for a real Hotelbeds or LiteAPI slot whether STAYGATE_SUPPLIER_<X>_BOOKING_URL
is set (the gateway refuses to start without it). Exit 1 if any slot failed: credentials refused,
unreachable, no content, a failed quote, or no booking page. No credential is ever printed.`,
  db: `Usage: staygate db migrate

Applies the migrations the PostgreSQL database of DATABASE_URL lacks, each once, in order, under a
lock (gateways starting at the same time wait), and prints each one it applied. Gateways migrate
when they start too; run it before starting a new version to migrate once, ahead of them.`,
  'db migrate': `Usage: staygate db migrate

Applies the migrations the PostgreSQL database of DATABASE_URL lacks and prints each one it applied.`,
  'transactions status': `Usage: staygate transactions status

Transactions held, how many belong to no partner, and per supplier the period of changes synced
(or that its API has no commission report) and its last CSV import: when, which file, and its counts.`,
};

/** The help asked for, if any: `--help`/`-h` anywhere after the command names it belongs to. */
function helpFor(argv: string[]): string | null {
  if (!argv.some((arg) => arg === '--help' || arg === '-h')) return null;
  const words = argv.filter((arg) => !arg.startsWith('-'));
  for (let n = Math.min(2, words.length); n > 0; n--) {
    const text = HELP[words.slice(0, n).join(' ')];
    if (text !== undefined) return text;
  }
  return USAGE;
}

function describe(record: ApiKeyRecord): string {
  const limit = record.limitPerMinute === null ? `${defaults.keyedPerMinute}/min (default)` : `${record.limitPerMinute}/min`;
  return (
    `key ${record.id}: partner ${record.partnerId}, aid ${record.aid}, ${record.status}, limit ${limit}, ` +
    `third parties: ${record.thirdParties.length > 0 ? record.thirdParties.join(', ') : '(none)'}`
  );
}

function table(records: ApiKeyRecord[]): string[] {
  const rows = [['ID', 'STATUS', 'PARTNER', 'AID', 'LIMIT', 'THIRD PARTIES', 'CREATED']];
  for (const r of records) {
    rows.push([
      r.id,
      r.status,
      r.partnerId,
      r.aid,
      r.limitPerMinute === null ? 'default' : String(r.limitPerMinute),
      r.thirdParties.join(',') || '-',
      r.createdAt,
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) =>
    row
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd(),
  );
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
      if (values.limit !== undefined && !/^\d+$/.test(values.limit))
        throw new UsageError(`--limit must be a whole number, got "${values.limit}"`);
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
    case 'map-token': {
      const { values, positionals } = parseArgs({
        args: rest,
        options: { key: { type: 'string' }, origin: { type: 'string', multiple: true }, limit: { type: 'string' } },
        allowPositionals: true,
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      if (values.key === undefined) throw new UsageError('keys map-token needs --key <key | key id>');
      if (values.limit !== undefined && !/^\d+$/.test(values.limit))
        throw new UsageError(`--limit must be a whole number, got "${values.limit}"`);
      const record = await admin.createMapToken({
        keyOrId: values.key,
        origins: values.origin ?? [],
        limitPerMinute: values.limit === undefined ? null : Number(values.limit),
      });
      io.out(`Created a map token for partner ${record.partnerId} (aid ${record.aid}), usable from ${record.origins.join(', ')}`);
      io.out('Embed the map with /map?token=<token>; the token is public by design:');
      io.out(record.token);
      return;
    }
    case 'map-tokens': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
      const tokens = await admin.listMapTokens();
      if (values.json) io.out(JSON.stringify(tokens, null, 2));
      else if (tokens.length === 0) io.out('No map tokens yet: staygate keys map-token --key <key id> --origin <origin>');
      else
        for (const t of tokens)
          io.out(
            `${t.token}  ${t.status}  partner ${t.partnerId}  aid ${t.aid}  limit ${t.limitPerMinute ?? `${defaults.mapTokenPerMinute} (default)`}  origins ${t.origins.join(',')}`,
          );
      return;
    }
    case 'revoke-map-token': {
      const [target, ...extra] = rest;
      if (target === undefined || extra.length > 0) throw new UsageError('keys revoke-map-token takes one token');
      const record = await admin.revokeMapToken(target);
      io.out(`Revoked map token ${record.token} of partner ${record.partnerId}`);
      return;
    }
    default:
      throw new UsageError(command === undefined ? 'keys needs a command' : `unknown command "keys ${command}"`);
  }
}

/** One line for a server that is not there: not four "fetch failed" lines. */
const NO_SUPPLIERS =
  'staygate: no suppliers to ask: set STAYGATE_SUPPLIER_<A..D>_URL (and its credentials), or start the server (npm start) on this data folder';

/**
 * The slots a command talks to: the configured ones, and for a slot without a URL the simulator
 * the server started on this data folder (simulator.json); null when one is needed and none was
 * started (or it speaks another API than configured, the server not yet restarted).
 */
function cliSupplierSlots(settings: Config['suppliers'], dataDir: string): SupplierSlot[] | null {
  const simulator = needsSimulator(settings) ? readSimulatorAddress(dataDir) : null;
  if (needsSimulator(settings) && simulator === null) return null;
  try {
    return resolveSupplierSlots(settings, simulator?.slots ?? null);
  } catch {
    return null;
  }
}

function unreachableMessage(slots: readonly SupplierSlot[], dataDir: string, fromSimulator: boolean): string {
  const where = [...new Set(slots.map((slot) => new URL(slot.baseUrl).host))].join(', ');
  return fromSimulator
    ? `staygate: no supplier answered at ${where}: the simulated suppliers run with the server. Is it running (npm start) on ${dataDir}?`
    : `staygate: no supplier answered at ${where} (STAYGATE_SUPPLIER_<A..D>_URL): are they up and reachable from here?`;
}

async function transactionsCommand(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  stores: RecordStores,
  args: string[],
  io: CliIo,
): Promise<number> {
  const [given, ...rest] = args;
  const full = given === 'sync' && rest.length === 1 && rest[0] === '--full';
  if (rest.length > 0 && !full) throw new UsageError(`transactions ${given} takes no arguments${given === 'sync' ? ' but --full' : ''}`);
  const command = full ? 'reconcile' : given;
  const { keys, clicks, transactions: store } = stores;
  if (command !== 'status' && command !== 'sync' && command !== 'reconcile')
    throw new UsageError(command === undefined ? 'transactions needs a command' : `unknown command "transactions ${command}"`);
  const config = readConfig(env);
  const slots = cliSupplierSlots(config.suppliers, dataDir);
  if (command === 'status') {
    // Which slots have no report API is known from their drivers, when the slots are.
    const noReport = new Set((slots === null ? [] : createSuppliers(slots)).filter((s) => !s.commissionReport).map((s) => s.id));
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
      suppliers: createSuppliers(slots),
      store,
      clicks,
      keys,
      overlapMs: config.reportSyncOverlapMs,
      reconcileDays: config.reportReconcileDays,
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
        ? `reconciled ${results.length - failed} of ${count(results.length, 'supplier')} over ${count(config.reportReconcileDays, 'day')}: ${missed} the incremental sync missed`
        : `synced ${results.length - failed} of ${count(results.length, 'supplier')}`) +
        (skipped > 0 ? `; ${skipped} without a commission report API (staygate transactions import)` : ''),
    );
    return failed > 0 ? 1 : 0;
  }
}

async function contentCommand(config: Config, args: string[], io: CliIo): Promise<number> {
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
    const held = await withLease({ leases: stores.leases, name: 'content', ttlMs: defaults.contentLeaseMs }, () =>
      worker.refresh({ shrinkLimit: config.feedShrinkLimit }),
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

async function dbCommand(config: Config, args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'migrate') throw new UsageError(command === undefined ? 'db needs a command' : `unknown command "db ${command}"`);
  if (rest.length > 0) throw new UsageError('db migrate takes no arguments');
  if (config.databaseUrl === null) {
    io.err(
      'staygate: db migrate needs DATABASE_URL (postgres://...). Without it the gateway uses its SQLite file, which makes its own tables.',
    );
    return 1;
  }
  const pool = openPgPool(config.databaseUrl, { max: 1 });
  try {
    const { applied, total } = await migratePg(pool);
    for (const name of applied) io.out(`applied ${name}`);
    io.out(
      applied.length === 0
        ? `nothing to apply: the database has all ${count(total, 'migration')}`
        : `the database has all ${count(total, 'migration')}`,
    );
    return 0;
  } finally {
    await pool.end();
  }
}

/** Runs the CLI; resolves with the exit code (0 done, 1 refused, 2 wrong usage). */
export async function main(argv: string[], io: CliIo = STD_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, ...args] = argv;
  if (group === '--version' || group === '-v' || group === 'version') {
    io.out(`staygate ${VERSION}`);
    return 0;
  }
  if (group === undefined || group === 'help') {
    io.out(USAGE);
    return group === undefined ? 2 : 0;
  }
  const help = helpFor(argv);
  if (help !== null) {
    io.out(help);
    return 0;
  }
  let stores: RecordStores | null = null;
  let databaseUrl: string | null = null;
  try {
    if (group === 'mcp') {
      const { values } = parseArgs({
        args,
        options: { url: { type: 'string' }, key: { type: 'string' } },
        strict: true,
        allowPositionals: false,
      });
      const url = values.url ?? env.STAYGATE_URL ?? `http://localhost:${defaults.port}`;
      if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL, not "${url}"`);
      const key = values.key ?? env.STAYGATE_API_KEY ?? null;
      await runMcpCommand({ url, key: key === null || key.trim() === '' ? null : key.trim(), version: VERSION });
      return 0;
    }
    if (group === 'sim') {
      // Loaded only here: the other commands never pay for the simulator's modules.
      const { runSimCommand, SIM_PORTS } = await import('./sim-command.ts');
      const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true, allowPositionals: false });
      const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
      if (!(port === 0 || (port >= 1 && port <= 65_535 - SIM_PORTS + 1))) {
        throw new UsageError(
          `--port must be a whole number from 1 to ${65_535 - SIM_PORTS + 1} (the first of ${SIM_PORTS} ports), not "${values.port}"`,
        );
      }
      const config = readConfig(env);
      return await runSimCommand({ port, dataDir: config.dataDir, seed: config.sim.seed, stays: config.sim.stays, env, io });
    }
    if (group === 'suppliers') {
      const [command, ...rest] = args;
      if (command !== 'check')
        throw new UsageError(command === undefined ? 'suppliers needs a command' : `unknown command "suppliers ${command}"`);
      if (rest.length > 0) throw new UsageError('suppliers check takes no arguments');
      // A configuration refused is what this command is run to find: said in one line, not a stack trace.
      let config: Config;
      try {
        config = readConfig(env);
      } catch (error) {
        io.err(`staygate suppliers check: ${(error as Error).message}`);
        return 1;
      }
      return await runSuppliersCheck({ settings: config.suppliers, dataDir: config.dataDir, io });
    }
    if (group !== 'keys' && group !== 'transactions' && group !== 'content' && group !== 'db')
      throw new UsageError(`unknown command "${group}"`);
    // Its command line is checked before any database is opened: a mistake is exit 2 anywhere.
    const importing: ImportInvocation | null = group === 'transactions' && args[0] === 'import' ? parseImportArgs(args.slice(1)) : null;
    const config = readConfig(env);
    const { dataDir } = config;
    databaseUrl = config.databaseUrl;
    if (group === 'db') return await dbCommand(config, args, io);
    if (group === 'content') return await contentCommand(config, args, io);
    // Never a new empty SQLite file: a key made there would work nowhere (the server reads its own
    // folder). A PostgreSQL database is the one the gateways share: it is migrated if need be.
    if (config.databaseUrl === null && !existsSync(sqliteLocation(dataDir).path)) {
      io.err(
        `staygate: no staygate database in ${dataDir}. Run this on the data folder of the server (STAYGATE_DATA_DIR, ` +
          "default ./data of the folder the server runs in), set DATABASE_URL to the gateways' PostgreSQL database, or start the server once (npm start) to make it.",
      );
      return 1;
    }
    stores = await openStores(config, { content: false });
    if (importing !== null) return await runTransactionsImport(importing, stores, io);
    if (group === 'transactions') return await transactionsCommand(dataDir, env, stores, args, io);
    await keysCommand(createKeyAdmin(stores.keys), args, io);
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
    // The database of DATABASE_URL missing, away or refusing us: what to do, not pg's stack trace.
    const unusable = databaseUrl === null ? null : describePgConnectError(error, pgTarget(databaseUrl));
    if (unusable !== null) {
      io.err(`staygate ${group}${args[0] === undefined || args[0].startsWith('-') ? '' : ` ${args[0]}`}: ${unusable}`);
      return 1;
    }
    throw error;
  } finally {
    await stores?.close();
  }
}
