import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonSafeUrl } from './json-safe-url.ts';

describe('jsonSafeUrl', () => {
  it('leaves a URL of printable ASCII alone', () => {
    const url = 'https://img.example.com/p/123.jpg?w=300&h=200#x-y~z';
    assert.equal(jsonSafeUrl(url), url);
  });

  it('percent-encodes what JSON would escape, and everything outside printable ASCII', () => {
    const url = 'https://x.example/a"b\\c d\u0001e\u007fé😀\ud800';
    const safe = jsonSafeUrl(url);
    assert.equal(safe, 'https://x.example/a%22b%5Cc%20d%01e%7F%C3%A9%F0%9F%98%80%EF%BF%BD');
    // Written between quotes as is, it is the JSON string of itself.
    assert.equal(JSON.parse(`"${safe}"`), safe);
    assert.equal(JSON.stringify(safe), `"${safe}"`);
  });
});
