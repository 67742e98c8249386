import pg from 'pg';

/**
 * A connection pool on `DATABASE_URL` (postgres://...). Errors of idle clients (a server restart,
 * a killed backend) are reported to `onError` instead of crashing the process: the pool replaces
 * the client on the next query.
 */
export function openPgPool(url: string, options: { max?: number; onError?: (error: Error) => void } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, idleTimeoutMillis: 30_000 });
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

/** Runs `work` in one transaction on one client: COMMIT when it resolves, ROLLBACK when it throws. */
export async function inPgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
