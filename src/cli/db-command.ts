// `staygate db migrate`: the PostgreSQL schema's migrations applied to DATABASE_URL.
import type { Config } from '../config.ts';
import { migratePg } from '../store/pg-migrate.ts';
import { openPgPool } from '../store/pg-pool.ts';
import { count } from '../text/plural.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

export async function dbCommand(config: Config, args: string[], io: CliIo): Promise<number> {
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
