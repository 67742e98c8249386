import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { PgClient } from './pg-pool.ts';

/** Rows per COPY write: ~3 MB of text for stays, so a million never sit in memory as one string. */
const COPY_BATCH = 2_000;

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
export const copyText = (value: string): string =>
  value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** Streams rows (already COPY text lines) into `sql` (a COPY ... FROM STDIN) on this client. */
export async function copyIn(client: PgClient, sql: string, lines: Iterable<string>): Promise<void> {
  const batched = function* () {
    let buffer: string[] = [];
    for (const line of lines) {
      buffer.push(line);
      if (buffer.length === COPY_BATCH) {
        yield buffer.join('');
        buffer = [];
      }
    }
    if (buffer.length > 0) yield buffer.join('');
  };
  await pipeline(Readable.from(batched()), client.query(copyFrom(sql)));
}
