// Writes the gateway's published OpenAPI document (what GET /openapi.json serves) to openapi.json,
// the source of the client's generated types (npm run generate). test/openapi-sync.test.ts fails
// when the committed copy differs from the gateway's, so the types cannot drift from the API.
import { writeFileSync } from 'node:fs';
import { startTestApp } from '../../../src/test-support/start-test-app.ts';

const t = await startTestApp({ stays: 200 });
try {
  const res = await t.app.http.inject('/openapi.json');
  writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(res.json(), null, 2)}\n`);
} finally {
  await t.close();
}
