// The logger settings of a real server (server.ts), apart so that a test can start a gateway
// logging exactly as `npm start` does.

/** pino options: JSON lines by default; LOG_FORMAT=pretty renders them for people with pino-pretty. */
export function logOptions(
  level: string,
  format: 'json' | 'pretty',
): { level: string; transport?: { target: string; options: Record<string, unknown> } } {
  if (format !== 'pretty') return { level };
  // In pino's worker thread, so formatting never holds up a request.
  return { level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } };
}
