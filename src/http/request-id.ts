import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A caller's own X-Request-Id is reused so that logs join up across systems, but only when it is
// short and plain: it is echoed in headers and bodies, so it must not carry anything else.
const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}
