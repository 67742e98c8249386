import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { deadlineSignal } from './deadline-signal.ts';
import { isTimeoutReason } from './supplier-error.ts';

v8.setFlagsFromString('--expose-gc');
/** A full garbage collection on demand (what --expose-gc gives, without the command-line flag). */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** Waits up to `ms` under `signal`: 'aborted' with the reason, or 'waited'. */
async function waitUnder(signal: AbortSignal, ms: number): Promise<unknown> {
  try {
    await sleep(ms, undefined, { signal });
    return 'waited';
  } catch {
    return signal.reason;
  }
}

describe('deadlineSignal', () => {
  it('aborts with a TimeoutError at its deadline even when a garbage collection runs meanwhile', async () => {
    const controller = new AbortController();
    // Created inside a function so that nothing but the wait refers to the signals (the case
    // in which Node 20's AbortSignal.any(timeout) loses its timer).
    const waiting = (() => {
      const deadline = deadlineSignal(40, controller.signal);
      return waitUnder(deadline.signal, 2_000).then((reason) => ({ reason, timedOut: deadline.timedOut }));
    })();
    setTimeout(() => {
      collectGarbage();
      collectGarbage();
    }, 10);
    // waitUnder gives up after 2 s with its own reason: a TimeoutError here is the deadline's.
    const { reason, timedOut } = await waiting;
    assert.ok(isTimeoutReason(reason), `expected a TimeoutError, got ${String(reason)}`);
    assert.equal(timedOut, true);
  });

  it("passes the caller's abort on with its reason and does not call it a timeout", async () => {
    const controller = new AbortController();
    const deadline = deadlineSignal(5_000, controller.signal);
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 10);
    assert.equal(await waitUnder(deadline.signal, 2_000), reason);
    assert.equal(deadline.timedOut, false);
  });

  it('is aborted at once when the caller already was', () => {
    const reason = new Error('too late');
    const deadline = deadlineSignal(5_000, AbortSignal.abort(reason));
    assert.equal(deadline.signal.aborted, true);
    assert.equal(deadline.signal.reason, reason);
  });

  it('never aborts once cleared', async () => {
    const controller = new AbortController();
    const deadline = deadlineSignal(20, controller.signal);
    deadline.clear();
    await sleep(50);
    controller.abort(new Error('after the call'));
    assert.equal(deadline.signal.aborted, false);
  });
});
