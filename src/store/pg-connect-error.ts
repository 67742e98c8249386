// What an operator reads when the PostgreSQL database of DATABASE_URL cannot be used: one line
// saying what failed, for which database, and what to do (issue 25), in place of pg's stack trace.
// Never the password: the line is built from the parts pg connects with, not from the URL.
import pg from 'pg';

/** Where a DATABASE_URL points, as pg resolves it (its defaults and PG* variables included). */
export interface PgTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

export function pgTarget(url: string): PgTarget {
  // pg's own reading of the URL (a client is made, never connected): the line names what pg tried.
  const client = new pg.Client({ connectionString: url });
  const user = client.user ?? '';
  return { host: client.host, port: client.port, database: client.database ?? user, user };
}

/** The errors of a connection that never reached the server (Node's system error codes). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/**
 * One line for a failure to connect to or log in to PostgreSQL, or null when `error` is something
 * else (the caller lets it through). SQLSTATE codes: 3D000 invalid_catalog_name (no such
 * database), 28P01 invalid_password, 28000 invalid_authorization_specification (no such role, or
 * no pg_hba.conf line lets it in).
 */
export function describePgConnectError(error: unknown, target: PgTarget): string | null {
  const { host, port, database, user } = target;
  const where = `${host}:${port}`;
  const code = (error as { code?: unknown } | null)?.code;
  // A name with several addresses that all refused is an AggregateError without a message.
  const message =
    error instanceof AggregateError && error.message === ''
      ? [...new Set(error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))))].join('; ')
      : error instanceof Error
        ? error.message
        : String(error);
  if (code === '3D000') {
    const createdb = ['createdb', '-h', host, '-p', String(port), ...(user === '' ? [] : ['-U', user]), database].join(' ');
    return `database "${database}" does not exist on the PostgreSQL server at ${where}: create it (${createdb}), or name an existing one in DATABASE_URL`;
  }
  if (code === '28P01') {
    return `the PostgreSQL server at ${where} refused the password of user "${user}" (database "${database}"): check the password in DATABASE_URL`;
  }
  // pg's own words when the server asks for a password and DATABASE_URL gives none.
  if (/password must be a string/.test(message)) {
    return `the PostgreSQL server at ${where} asks user "${user}" (database "${database}") for a password and DATABASE_URL has none: add it (postgres://user:password@host/db)`;
  }
  if (code === '28000') {
    return `the PostgreSQL server at ${where} refused user "${user}" for database "${database}" (${message}): check the user in DATABASE_URL, and that pg_hba.conf lets it in`;
  }
  if (typeof code === 'string' && UNREACHABLE.has(code)) {
    return `no PostgreSQL server answered at ${where} for database "${database}" (${message}): check the host and port in DATABASE_URL, and that the server is running and reachable from here`;
  }
  return null;
}
