// The `staygate` command (bin/staygate.js runs it): operators manage API keys in the data folder
// the server uses (STAYGATE_DATA_DIR). A running server sees every change within a second.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createKeyAdmin, KeyAdminError, type KeyAdmin } from '../auth/key-admin.ts';
import type { ApiKeyRecord } from '../auth/key-store.ts';
import { createSqliteKeyStore } from '../auth/sqlite-key-store.ts';
import { readConfig } from '../config.ts';
import { defaults } from '../defaults.ts';

const USAGE = `Usage: staygate keys <command>

  keys create --aid <aid> [--third-party <name>]... [--limit <n>] [--partner <id>] [--pending]
      Creates a key and prints it as the last line. It is shown only this once: only its hash is kept.
      --partner defaults to the aid; --limit is requests per minute per endpoint (default ${defaults.keyedPerMinute});
      --pending creates it without API access, as the partner dashboard does, until "keys grant".
  keys grant <key | key id>     Gives a pending key API access.
  keys revoke <key | key id>    Revokes a key for good.
  keys list [--json]            Lists every key (never its secret).

The keys live in <STAYGATE_DATA_DIR>/staygate.sqlite (default ./data), beside the inventory.`;

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

/** Runs the CLI; resolves with the exit code (0 done, 1 refused, 2 wrong usage). */
export async function main(argv: string[], io: CliIo = STD_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, ...args] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
    io.out(USAGE);
    return group === undefined ? 2 : 0;
  }
  let store = null;
  try {
    if (group !== 'keys') throw new UsageError(`unknown command "${group}"`);
    store = createSqliteKeyStore({ path: path.join(readConfig(env).dataDir, 'staygate.sqlite') });
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
