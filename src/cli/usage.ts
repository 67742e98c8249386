// The `staygate` command's usage and the help of each command, with the figures they quote.
import type { Settings } from '../types.ts';
import { IMPORT_HELP } from './transactions-import-command.ts';

/** The figures the help quotes: the gateway's, as configured. */
export type UsageSettings = Pick<
  Settings,
  'keyedPerMinute' | 'mapTokenPerMinute' | 'reportReconcileDays' | 'port' | 'supplierCheckNights' | 'supplierCheckDaysAhead'
>;

export function usage(settings: UsageSettings): string {
  return `Usage: staygate keys <command>
       staygate transactions <command>
       staygate content refresh
       staygate suppliers check
       staygate db migrate
       staygate mcp [--url <gateway url>] [--key <key>]
       staygate sim [--port <p>]
       staygate openapi
       staygate --version | --help
       staygate <command> [<sub-command>] --help

  keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]
      Creates a key and prints it as the last line. It is shown only this once: only its hash is kept.
      --partner defaults to the aid; --limit is requests per minute per endpoint (default ${settings.keyedPerMinute});
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
  transactions reconcile        (or: transactions sync --full) Re-reads the last ${settings.reportReconcileDays} days of every report
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
                                http://localhost:${settings.port}) with --key (default STAYGATE_API_KEY; none = demo).
  sim [--port <p>]              Runs the simulated suppliers alone (a..d on ports p..p+3, control on p+4;
                                no --port: ephemeral ports), state in <STAYGATE_DATA_DIR>/sim, and prints
                                STAYGATE_SUPPLIER_<A..D>_URL=... and STAYGATE_SIM_CONTROL_URL=... lines for
                                a gateway to export. Runs until SIGTERM or Ctrl-C.
  openapi                       Prints the OpenAPI document GET /openapi.json serves (JSON, indented), without
                                starting a gateway: no database, supplier or simulator is needed.

The keys and transactions live in the database of DATABASE_URL (postgres://...) when it is set, else
in <STAYGATE_DATA_DIR>/staygate.sqlite (default ./data, from the folder you run it in), beside the
inventory: the server makes it on its first start. The suppliers
are the slots of STAYGATE_SUPPLIER_<A..D>_URL (with _API, _KEY, _SECRET, _AFFILIATE_ID), and for a
slot without a URL the simulated one of the server running on the same data folder.`;
}

/**
 * Help of each command and sub-command (`staygate keys create --help`). Over a hundred lines, all of
 * them the help's text: one table read top to bottom is clearer than its entries spread over files.
 */
function help(settings: UsageSettings): Record<string, string> {
  return {
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
  --limit <n>            searches per minute of the whole token (default ${settings.mapTokenPerMinute})`,
    'keys map-tokens': `Usage: staygate keys map-tokens [--json]

Lists every map token: the token (public by design), partner, aid, origins, limit, status.`,
    'keys revoke-map-token': `Usage: staygate keys revoke-map-token <token>

Revokes a map token for good; a running server refuses it within a second.`,
    'keys create': `Usage: staygate keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]

Creates an API key for a partner and prints it as the last line, once: only its hash is kept.
  --aid <aid>            the affiliate id written into every link the key's searches return (required)
  --third-party <name>   a platform the key may report for (GET /v1/reporting/transactions?thirdParty=); repeatable
  --limit <n>            requests per minute per endpoint (default ${settings.keyedPerMinute})
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
  transactions reconcile Re-reads the last ${settings.reportReconcileDays} days of every report.
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
id), one quote of those ids for ${settings.supplierCheckNights} nights ${settings.supplierCheckDaysAhead} days ahead (ids asked, how many priced), the
round-trip times, and for a real Hotelbeds or LiteAPI slot whether STAYGATE_SUPPLIER_<X>_BOOKING_URL
is set (the gateway refuses to start without it). Exit 1 if any slot failed: credentials refused,
unreachable, no content, a failed quote, or no booking page. No credential is ever printed.`,
    db: `Usage: staygate db migrate

Applies the migrations the PostgreSQL database of DATABASE_URL lacks, each once, in order, under a
lock (gateways starting at the same time wait), and prints each one it applied. Gateways migrate
when they start too; run it before starting a new version to migrate once, ahead of them.`,
    openapi: `Usage: staygate openapi

Prints the OpenAPI 3.1 document a gateway serves at GET /openapi.json, indented, on stdout, and
exits 0. Every route is in it, as a running gateway registers them; nothing is started (no
database, supplier, simulator or world). packages/client generates its types from it:
  npx staygate openapi > packages/client/openapi.json`,
    'db migrate': `Usage: staygate db migrate

Applies the migrations the PostgreSQL database of DATABASE_URL lacks and prints each one it applied.`,
    'transactions status': `Usage: staygate transactions status

Transactions held, how many belong to no partner, and per supplier the period of changes synced
(or that its API has no commission report) and its last CSV import: when, which file, and its counts.`,
  };
}

/** Whether `--help`/`-h` is anywhere on the command line. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--help' || arg === '-h');
}

/** The help asked for: that of the command (and sub-command) named before it, else the usage. */
export function helpFor(argv: readonly string[], settings: UsageSettings): string {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  const texts = help(settings);
  for (let n = Math.min(2, words.length); n > 0; n--) {
    const text = texts[words.slice(0, n).join(' ')];
    if (text !== undefined) return text;
  }
  return usage(settings);
}
