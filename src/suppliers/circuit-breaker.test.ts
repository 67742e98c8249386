import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker } from './circuit-breaker.ts';
import { defaults } from '../defaults.ts';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

describe('circuit breaker', () => {
  it('opens after N consecutive failures, lets one trial through after openMs, closes on its success', () => {
    const time = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 3, openMs: 30_000, now: time.now });
    assert.equal(breaker.state(), 'closed');
    for (let i = 0; i < 2; i++) {
      assert.equal(breaker.tryAcquire(), true);
      breaker.failure();
    }
    // A success in between resets the count: failures must be consecutive.
    assert.equal(breaker.tryAcquire(), true);
    breaker.success();
    for (let i = 0; i < 2; i++) {
      assert.equal(breaker.tryAcquire(), true);
      breaker.failure();
    }
    assert.equal(breaker.state(), 'closed');
    assert.equal(breaker.retryAfterMs(), 0);
    assert.equal(breaker.tryAcquire(), true);
    breaker.failure();

    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.tryAcquire(), false);
    assert.equal(breaker.retryAfterMs(), 30_000);
    time.advance(29_999);
    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.tryAcquire(), false);
    assert.equal(breaker.retryAfterMs(), 1);

    time.advance(1);
    assert.equal(breaker.state(), 'half-open');
    assert.equal(breaker.retryAfterMs(), 0);
    assert.equal(breaker.tryAcquire(), true, 'the trial');
    assert.equal(breaker.tryAcquire(), false, 'a concurrent caller while the trial runs');
    assert.equal(breaker.tryAcquire(), false);
    assert.equal(breaker.state(), 'half-open');
    breaker.success();

    assert.equal(breaker.state(), 'closed');
    assert.equal(breaker.tryAcquire(), true);
    assert.equal(breaker.tryAcquire(), true);
    // Closed again with a fresh count: it takes N failures to open once more.
    breaker.failure();
    breaker.failure();
    assert.equal(breaker.state(), 'closed');
  });

  it('opens again for another openMs when the trial fails', () => {
    const time = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 30_000, now: time.now });
    assert.equal(breaker.tryAcquire(), true);
    breaker.failure();
    assert.equal(breaker.state(), 'open');
    time.advance(30_000);
    assert.equal(breaker.tryAcquire(), true);
    time.advance(500);
    breaker.failure();
    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.retryAfterMs(), 30_000, 'counted from the trial failure');
    time.advance(29_999);
    assert.equal(breaker.tryAcquire(), false);
    time.advance(1);
    assert.equal(breaker.tryAcquire(), true);
    breaker.success();
    assert.equal(breaker.state(), 'closed');
  });

  it('ignores results of calls let through before it opened', () => {
    const time = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: 1_000, now: time.now });
    for (let i = 0; i < 3; i++) assert.equal(breaker.tryAcquire(), true);
    breaker.failure();
    breaker.failure();
    assert.equal(breaker.state(), 'open');
    breaker.success(); // the third call, late
    assert.equal(breaker.state(), 'open');
    time.advance(1_000);
    // Half-open with no trial running: a stray result decides nothing either.
    breaker.success();
    breaker.failure();
    assert.equal(breaker.state(), 'half-open');
    assert.equal(breaker.tryAcquire(), true);
  });

  it('frees the trial slot when the trial is cancelled', () => {
    const time = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 1_000, now: time.now });
    breaker.tryAcquire();
    breaker.failure();
    time.advance(1_000);
    assert.equal(breaker.tryAcquire(), true);
    assert.equal(breaker.tryAcquire(), false);
    breaker.cancel();
    assert.equal(breaker.state(), 'half-open');
    assert.equal(breaker.tryAcquire(), true);
  });

  it('works with the figures of defaults.ts and rejects nonsense settings', () => {
    const time = clock();
    const breaker = createCircuitBreaker({
      failureThreshold: defaults.breakerFailureThreshold,
      openMs: defaults.breakerOpenMs,
      now: time.now,
    });
    for (let i = 0; i < 4; i++) breaker.failure();
    assert.equal(breaker.state(), 'closed');
    breaker.failure();
    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.retryAfterMs(), 30_000);
    assert.throws(() => createCircuitBreaker({ failureThreshold: 0, openMs: 1_000 }), RangeError);
    assert.throws(() => createCircuitBreaker({ failureThreshold: 1, openMs: Number.NaN }), RangeError);
  });
});
