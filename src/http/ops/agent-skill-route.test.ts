// The agent skill: served as Markdown with the YAML frontmatter agents read, on the docs'
// allowance, not a search's (an agent reads it once, then searches).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, TEST_RATE_LIMITS, type TestApp } from '../../test-support/start-test-app.ts';
import { AGENT_SKILL_PATH } from './agent-skill-route.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ stays: 300, settings: { ...TEST_RATE_LIMITS, keylessPerMinute: 5 } });
});
after(async () => {
  await t.close();
});

describe('agent skill', () => {
  it('is Markdown with a name and a description in its frontmatter', async () => {
    const res = await t.app.http.inject({ url: AGENT_SKILL_PATH, remoteAddress: '10.9.0.1' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/markdown/);
    const front = /^---\n([\s\S]*?)\n---\n/.exec(res.body);
    assert.ok(front !== null, 'YAML frontmatter');
    assert.match(front[1], /^name: accommodation-search$/m);
    assert.match(front[1], /^description: .{40,}$/m);
    for (const topic of ['search_accommodations', 'meta.hasMore', 'null', '429', 'link'])
      assert.ok(res.body.includes(topic), `teaches ${topic}`);
  });

  it('does not spend the 5-per-minute search allowance', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.app.http.inject({ url: AGENT_SKILL_PATH, remoteAddress: '10.9.0.2' });
      assert.equal(res.statusCode, 200, `read ${i + 1}`);
    }
    const search = await t.app.http.inject({ url: '/v3/accommodations?lat=48.85&lng=2.35&pageSize=1', remoteAddress: '10.9.0.2' });
    assert.equal(search.statusCode, 200, 'the search allowance is untouched');
    assert.equal(search.headers['x-ratelimit-remaining'], '4');
  });
});
