// docs/api.md says what every endpoint answers, and a started gateway holds it to that:
// - its Endpoints table names every route of the OpenAPI document (which openapi.test.ts holds to
//   the server's routes);
// - each example answer is a fenced block whose info string names the request,
//   ```json GET /v3/accommodations?address=Paris&pageSize=1        (add ` with key` for a keyed one)
//   and the real answer to that request has exactly the example's keys, at every level: each object
//   of the example is compared key for key; an array's first element stands for every element of
//   the real array; a key written `"<name>"` (angle brackets) stands for any key of that object
//   (`"<supplier>"`: each supplier present). Values are illustrations and are not compared;
// - every route answering JSON has at least one example, but for those named below with why.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createKeyAdmin } from '../../auth/key-admin.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

const API_MD = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

/** JSON routes without an example, and why. */
const WITHOUT_EXAMPLE: Record<string, string> = {
  'POST /mcp': 'its answers are JSON-RPC messages of the Model Context Protocol, whose specification says their shape',
  'GET /openapi.json': 'it is an OpenAPI 3.1 document',
};

interface Example {
  method: 'GET';
  url: string;
  withKey: boolean;
  body: unknown;
  line: number;
}

function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  const fence = /^```json (GET) (\S+)( with key)?\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split('\n').length;
    let body: unknown;
    try {
      body = JSON.parse(match[4]);
    } catch (error) {
      assert.fail(`docs/api.md line ${line}: the example of ${match[1]} ${match[2]} is not JSON: ${(error as Error).message}`);
    }
    examples.push({ method: 'GET', url: match[2], withKey: match[3] !== undefined, body, line });
  }
  return examples;
}

/** Where `actual` differs from the example's keys: one line per difference, with its JSON path. */
function shapeDifferences(example: unknown, actual: unknown, at = '$'): string[] {
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [`${at}: an array in the docs, ${JSON.stringify(actual)?.slice(0, 60)} in the answer`];
    if (example.length === 0) return [];
    return actual.flatMap((item, i) => shapeDifferences(example[0], item, `${at}[${i}]`));
  }
  if (example === null || typeof example !== 'object') return [];
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
    return [`${at}: an object in the docs, ${JSON.stringify(actual)?.slice(0, 60)} in the answer`];
  const documented = Object.entries(example);
  const wildcard = documented.length === 1 && /^<.+>$/.test(documented[0][0]) ? documented[0][1] : undefined;
  if (wildcard !== undefined) return Object.entries(actual).flatMap(([key, value]) => shapeDifferences(wildcard, value, `${at}.${key}`));
  const differences: string[] = [];
  for (const [key, value] of documented) {
    if (!Object.hasOwn(actual, key)) differences.push(`${at}.${key}: documented, not in the answer`);
    else differences.push(...shapeDifferences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`));
  }
  for (const key of Object.keys(actual)) if (!Object.hasOwn(example, key)) differences.push(`${at}.${key}: in the answer, not documented`);
  return differences;
}

describe('docs/api.md', () => {
  let t: TestApp;
  let key: string;
  let document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
  before(async () => {
    t = await startTestApp({ stays: 2_000 });
    key = await t.createKey({ aid: 'your-aid', thirdParties: ['demo-platform'] });
    // A map token, so that the summary's `mapTokens` has an element to hold to the example.
    const stores = await t.openStores();
    try {
      await createKeyAdmin(stores.keys).createMapToken({ keyOrId: key, origins: ['https://blog.example'] });
    } finally {
      await stores.close();
    }
    document = (await t.app.http.inject('/openapi.json')).json();
  });
  after(async () => {
    await t.close();
  });

  it('the comparison sees a missing key, an extra key, and an array of the wrong shape', () => {
    const example = { a: 1, b: { c: [{ d: 1 }] }, s: { '<supplier>': { x: 1 } } };
    assert.deepEqual(shapeDifferences(example, { a: 2, b: { c: [{ d: 5 }, { d: 6 }] }, s: { one: { x: 0 }, two: { x: 3 } } }), []);
    assert.deepEqual(shapeDifferences(example, { a: 2, b: { c: [{ d: 5 }, { e: 6 }] }, s: { one: { x: 0, y: 1 } }, z: 0 }), [
      '$.b.c[1].d: documented, not in the answer',
      '$.b.c[1].e: in the answer, not documented',
      '$.s.one.y: in the answer, not documented',
      '$.z: in the answer, not documented',
    ]);
  });

  it('its Endpoints table names every route of the OpenAPI document', () => {
    const table = API_MD.slice(API_MD.indexOf('## Endpoints'), API_MD.indexOf('\n## ', API_MD.indexOf('## Endpoints') + 1));
    const missing = Object.keys(document.paths).filter(
      (path) => !new RegExp(`\`(GET |POST )?${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``).test(table),
    );
    assert.deepEqual(missing, [], 'paths of /openapi.json missing from the Endpoints table of docs/api.md');
  });

  it("every route that answers JSON has an example answer, and each example is the real answer's shape", async () => {
    const examples = examplesOf(API_MD);
    assert.ok(examples.length >= 8, `examples found: ${examples.length}`);
    const exampled = new Set<string>();
    const problems: string[] = [];
    for (const example of examples) {
      const response = await t.app.http.inject({
        method: example.method,
        url: example.url,
        headers: example.withKey ? { 'x-api-key': key } : {},
      });
      const path = example.url.split('?')[0];
      exampled.add(`${example.method} ${path}`);
      let body: unknown;
      try {
        body = response.json();
      } catch {
        problems.push(`line ${example.line}: ${example.method} ${example.url} answered ${response.statusCode} without JSON`);
        continue;
      }
      for (const difference of shapeDifferences(example.body, body))
        problems.push(`line ${example.line}: ${example.method} ${example.url} (${response.statusCode}) ${difference}`);
    }
    assert.deepEqual(problems, [], 'docs/api.md examples that are not what the gateway answers');
    const jsonRoutes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.responses['200']?.content?.['application/json'] !== undefined)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const without = jsonRoutes.filter((route) => !exampled.has(route) && !Object.hasOwn(WITHOUT_EXAMPLE, route));
    assert.deepEqual(without, [], 'JSON routes without an example answer in docs/api.md');
  });
});
