// `staygate openapi`: prints the OpenAPI document GET /openapi.json serves, from the routes-only
// app (compose/routes-only.ts): every route registered as a running gateway registers it, and no
// store, supplier or world started. packages/client generates its types from it (npm run generate).
import { createRoutesOnlyHttp } from '../compose/routes-only.ts';
import type { Settings } from '../types.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

export async function runOpenApiCommand(settings: Settings, args: string[], io: CliIo): Promise<number> {
  if (args.length > 0) throw new UsageError('openapi takes no arguments');
  const app = createRoutesOnlyHttp(settings);
  try {
    const response = await app.http.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}: ${response.body}`);
    // Indented, one member a line: the committed copy (packages/client/openapi.json) diffs readably.
    io.out(JSON.stringify(response.json(), null, 2));
    return 0;
  } finally {
    await app.close();
  }
}
