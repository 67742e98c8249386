// The `staygate` command (bin/staygate.js runs it): operators manage API keys in the data folder
// the server uses (STAYGATE_DATA_DIR), and pull the suppliers' commission reports on demand. A
// running server sees every key change within a second. The configuration is read and checked
// here, once (config.ts), and each command is given what it needs of it.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createKeyAdmin, KeyAdminError } from '../auth/key-admin.ts';
import { ConfigError, readConfig, type Config } from '../config.ts';
import { openStores, sqliteLocation, type RecordStores } from '../compose/open-stores.ts';
import { describePgConnectError, pgTarget } from '../store/pg-connect-error.ts';
import { STD_IO, type CliIo } from './cli-io.ts';
import { contentCommand } from './content-command.ts';
import { dbCommand } from './db-command.ts';
import { keysCommand } from './keys-command.ts';
import { runMcpCommand } from './mcp-command.ts';
import { runOpenApiCommand } from './openapi-command.ts';
import { runSuppliersCheck } from './suppliers-command.ts';
import { transactionsCommand } from './transactions-command.ts';
import { parseImportArgs, runTransactionsImport, type ImportInvocation } from './transactions-import-command.ts';
import { asksForHelp, helpFor, usage, type UsageSettings } from './usage.ts';
import { UsageError } from './usage-error.ts';

const { version: VERSION } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The figures the usage quotes: the configured ones, or the built-in ones when the environment is
 * refused (help must print whatever the configuration; the command itself then says what is wrong).
 */
function usageSettings(env: NodeJS.ProcessEnv): UsageSettings {
  try {
    return readConfig(env).settings;
  } catch {
    return readConfig({}).settings;
  }
}

/** What a command opened, for main to close and to describe a database failure. */
interface Opened {
  stores: RecordStores | null;
  databaseUrl: string | null;
}

/** `staygate mcp [--url] [--key]`: the gateway's MCP tools over stdio; the flags override STAYGATE_URL and STAYGATE_API_KEY. */
async function mcpCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { url: { type: 'string' }, key: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const url = values.url ?? config.gatewayUrl ?? `http://localhost:${config.port}`;
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL, not "${url}"`);
  const key = values.key ?? config.apiKey;
  await runMcpCommand({ url, key: key === null || key.trim() === '' ? null : key.trim(), version: VERSION, settings: config.settings });
  return 0;
}

/** `staygate sim [--port]`: the simulated suppliers alone. */
async function simCommand(config: Config, args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  // Loaded only here: the other commands never pay for the simulator's modules.
  const { runSimCommand, SIM_PORTS } = await import('./sim-command.ts');
  const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true, allowPositionals: false });
  const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port === 0 || (port >= 1 && port <= 65_535 - SIM_PORTS + 1))) {
    throw new UsageError(
      `--port must be a whole number from 1 to ${65_535 - SIM_PORTS + 1} (the first of ${SIM_PORTS} ports), not "${values.port}"`,
    );
  }
  const { simSeed, simStays } = config.settings;
  return await runSimCommand({ port, dataDir: config.dataDir, seed: simSeed, stays: simStays, env, io });
}

/** `staygate suppliers check`: a configuration refused is what it is run to find, said in one line. */
async function suppliersCommand(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'check')
    throw new UsageError(command === undefined ? 'suppliers needs a command' : `unknown command "suppliers ${command}"`);
  if (rest.length > 0) throw new UsageError('suppliers check takes no arguments');
  let config: Config;
  try {
    config = readConfig(env);
  } catch (error) {
    io.err(`staygate suppliers check: ${(error as Error).message}`);
    return 1;
  }
  return await runSuppliersCheck({ slots: config.suppliers, settings: config.settings, dataDir: config.dataDir, io });
}

/** The commands on the database: keys, transactions, content, db. */
async function databaseCommand(group: string, args: string[], env: NodeJS.ProcessEnv, io: CliIo, opened: Opened): Promise<number> {
  // Its command line is checked before any database is opened: a mistake is exit 2 anywhere.
  const importing: ImportInvocation | null = group === 'transactions' && args[0] === 'import' ? parseImportArgs(args.slice(1)) : null;
  const config = readConfig(env);
  const { dataDir } = config;
  opened.databaseUrl = config.databaseUrl;
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
  const stores = await openStores(config, { content: false });
  opened.stores = stores;
  if (importing !== null) return await runTransactionsImport(importing, stores, io);
  if (group === 'transactions') return await transactionsCommand(config, stores, args, io);
  await keysCommand(createKeyAdmin(stores.keys), args, io, config.settings);
  return 0;
}

async function runCommand(group: string, args: string[], env: NodeJS.ProcessEnv, io: CliIo, opened: Opened): Promise<number> {
  if (group === 'suppliers') return await suppliersCommand(args, env, io);
  if (group === 'mcp') return await mcpCommand(readConfig(env), args);
  if (group === 'sim') return await simCommand(readConfig(env), args, env, io);
  if (group === 'openapi') return await runOpenApiCommand(readConfig(env).settings, args, io);
  if (group === 'keys' || group === 'transactions' || group === 'content' || group === 'db')
    return await databaseCommand(group, args, env, io, opened);
  throw new UsageError(`unknown command "${group}"`);
}

/** Runs the CLI; resolves with the exit code (0 done, 1 refused, 2 wrong usage). */
export async function main(argv: string[], io: CliIo = STD_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, ...args] = argv;
  if (group === '--version' || group === '-v' || group === 'version') {
    io.out(`staygate ${VERSION}`);
    return 0;
  }
  if (group === undefined || group === 'help') {
    io.out(usage(usageSettings(env)));
    return group === undefined ? 2 : 0;
  }
  if (asksForHelp(argv)) {
    io.out(helpFor(argv, usageSettings(env)));
    return 0;
  }
  const opened: Opened = { stores: null, databaseUrl: null };
  try {
    return await runCommand(group, args, env, io, opened);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`staygate: ${(error as Error).message}\n\n${usage(usageSettings(env))}`);
      return 2;
    }
    if (error instanceof KeyAdminError || error instanceof ConfigError) {
      io.err(`staygate: ${error.message}`);
      return 1;
    }
    // The database of DATABASE_URL missing, away or refusing us: what to do, not pg's stack trace.
    const unusable = opened.databaseUrl === null ? null : describePgConnectError(error, pgTarget(opened.databaseUrl));
    if (unusable !== null) {
      io.err(`staygate ${group}${args[0] === undefined || args[0].startsWith('-') ? '' : ` ${args[0]}`}: ${unusable}`);
      return 1;
    }
    throw error;
  } finally {
    await opened.stores?.close();
  }
}
