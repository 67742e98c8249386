// `staygate keys ...`: API keys and map tokens in the key store the gateways read.
import { parseArgs } from 'node:util';
import type { KeyAdmin } from '../auth/key-admin.ts';
import type { ApiKeyRecord } from '../auth/key-store.ts';
import type { Settings } from '../types.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

/** The limits a key or token has when it carries none of its own. */
export type KeysSettings = Pick<Settings, 'keyedPerMinute' | 'mapTokenPerMinute'>;

function describe(record: ApiKeyRecord, settings: KeysSettings): string {
  const limit = record.limitPerMinute === null ? `${settings.keyedPerMinute}/min (default)` : `${record.limitPerMinute}/min`;
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

export async function keysCommand(admin: KeyAdmin, args: string[], io: CliIo, settings: KeysSettings): Promise<void> {
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
      io.out(`Created ${describe(record, settings)}`);
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
      io.out(`${command === 'grant' ? 'Granted' : 'Revoked'} ${describe(record, settings)}`);
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
            `${t.token}  ${t.status}  partner ${t.partnerId}  aid ${t.aid}  limit ${t.limitPerMinute ?? `${settings.mapTokenPerMinute} (default)`}  origins ${t.origins.join(',')}`,
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
