// The behaviour every LeaseStore must have, and the lease helpers' (hold-lease.ts) on it: always
// with two handles on one database, as two gateways. Each implementation's test calls
// runLeaseStoreContract with a factory of two handles sharing a clock the test moves by hand.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { TwoHandles } from '../two-handles.ts';
import { keepLease, withLease } from '../../store/hold-lease.ts';
import type { LeaseStore } from '../../store/lease-store.ts';

const TTL = 30_000;

/** A promise and the function settling it: a test waits on a condition, never on a sleep. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function runLeaseStoreContract(name: string, makeTwo: (clock: () => number) => Promise<TwoHandles<LeaseStore>>): void {
  describe(`LeaseStore contract: ${name}`, () => {
    let now: number;
    let two: TwoHandles<LeaseStore>;
    beforeEach(async () => {
      now = Date.UTC(2026, 10, 21, 10);
      two = await makeTwo(() => now);
    });
    afterEach(async () => {
      await two.close();
    });

    it('one holds it, the other cannot take it until it is released', async () => {
      assert.equal(await two.first.holder('sync'), null);
      assert.equal(await two.first.acquire('sync', 'gw-1', TTL), true);
      assert.equal(await two.second.acquire('sync', 'gw-2', TTL), false);
      assert.deepEqual(await two.second.holder('sync'), { holder: 'gw-1', expiresAt: now + TTL });
      now += TTL / 2;
      assert.equal(await two.first.acquire('sync', 'gw-1', TTL), true, 'the holder renews');
      assert.equal((await two.second.holder('sync'))!.expiresAt, now + TTL);
      assert.equal(await two.second.acquire('other', 'gw-2', TTL), true, 'leases are independent');
      await two.second.release('sync', 'gw-2');
      assert.equal(await two.second.acquire('sync', 'gw-2', TTL), false, 'only its holder releases it');
      await two.first.release('sync', 'gw-1');
      assert.equal(await two.second.acquire('sync', 'gw-2', TTL), true);
    });

    it('is taken over once it expires, and the old holder can neither renew nor release it', async () => {
      assert.equal(await two.first.acquire('sync', 'gw-1', TTL), true);
      now += TTL - 1;
      assert.equal(await two.second.acquire('sync', 'gw-2', TTL), false, 'not before it expires');
      now += 1;
      assert.equal(await two.first.holder('sync'), null, 'expired: nobody holds it');
      assert.equal(await two.second.acquire('sync', 'gw-2', TTL), true, 'taken over');
      assert.equal(await two.first.acquire('sync', 'gw-1', TTL), false, "the old holder's renewal is refused");
      await two.first.release('sync', 'gw-1');
      assert.equal((await two.first.holder('sync'))?.holder, 'gw-2');
    });

    it('goes to exactly one of two handles asking at once', async () => {
      for (let round = 0; round < 30; round++) {
        const name = `race-${round}`;
        const taken = await Promise.all([two.first.acquire(name, 'gw-1', TTL), two.second.acquire(name, 'gw-2', TTL)]);
        assert.equal(taken.filter(Boolean).length, 1, `round ${round}: ${taken.join(', ')}`);
      }
    });

    it('withLease: runs the work on one handle only, and releases the lease after it', async () => {
      const gate = signal();
      const started = signal();
      const first = withLease({ leases: two.first, name: 'content', ttlMs: TTL, holder: 'gw-1' }, async () => {
        started.resolve();
        await gate.promise;
        return 'done';
      });
      await started.promise;
      assert.deepEqual(await withLease({ leases: two.second, name: 'content', ttlMs: TTL }, async () => 'twice'), {
        ran: false,
        holder: 'gw-1',
      });
      gate.resolve();
      assert.deepEqual(await first, { ran: true, value: 'done' });
      assert.equal(await two.second.holder('content'), null, 'released');
      assert.deepEqual(await withLease({ leases: two.second, name: 'content', ttlMs: TTL }, async () => 'next'), {
        ran: true,
        value: 'next',
      });
      await assert.rejects(
        withLease({ leases: two.first, name: 'content', ttlMs: TTL }, async () => {
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await two.first.holder('content'), null, 'released after a failure too');
    });

    it('withLease: the work is told when another process took the lease over', async () => {
      const lost: string[] = [];
      const taken = signal();
      // The holder's renewals wait (as on a slow database) until the test lets them through, so
      // that the other process takes the expired lease first.
      const slow = signal();
      let calls = 0;
      const holderStore: LeaseStore = {
        ...two.first,
        acquire: async (...args) => (calls++ === 0 ? two.first.acquire(...args) : slow.promise.then(() => two.first.acquire(...args))),
      };
      // A short ttl for the renewal timer (every 20 ms); expiries follow the test's clock.
      const run = withLease(
        { leases: holderStore, name: 'content', ttlMs: 60, holder: 'gw-1', onLost: (reason) => lost.push(reason) },
        async (abort) => {
          taken.resolve();
          await new Promise<void>((resolve) => abort.addEventListener('abort', () => resolve()));
          return String(abort.reason);
        },
      );
      await taken.promise;
      now += 60;
      assert.equal(await two.second.acquire('content', 'gw-2', TTL), true, 'taken over once expired');
      slow.resolve();
      const result = await run;
      assert.ok(result.ran && /taken over|not renewed/.test(result.value), JSON.stringify(result));
      assert.equal(lost.length, 1);
      assert.equal((await two.second.holder('content'))?.holder, 'gw-2', "the loser does not release the new holder's lease");
    });

    it('keepLease: one of two processes holds the role; when it dies the other takes over', async () => {
      let dead = false;
      // The first process "dies": its store never answers again, as a killed process would not.
      const dying: LeaseStore = {
        acquire: (...args) => (dead ? new Promise<boolean>(() => undefined) : two.first.acquire(...args)),
        release: (...args) => (dead ? Promise.resolve() : two.first.release(...args)),
        holder: (n) => two.first.holder(n),
        close: async () => undefined,
      };
      const firstHolds = signal();
      const secondHolds = signal();
      const first = keepLease({ leases: dying, name: 'report-sync', ttlMs: 60, holder: 'gw-1', onAcquired: () => firstHolds.resolve() });
      await firstHolds.promise;
      const second = keepLease({
        leases: two.second,
        name: 'report-sync',
        ttlMs: 60,
        holder: 'gw-2',
        onAcquired: () => secondHolds.resolve(),
      });
      try {
        // The second has tried at once and is refused: the first's lease has not expired.
        assert.equal((await two.second.holder('report-sync'))?.holder, 'gw-1');
        assert.equal(second.held(), false, 'the second does not hold it while the first lives');
        assert.equal(first.held(), true);
        dead = true;
        now += 61; // its last renewal expires
        await secondHolds.promise;
        assert.equal(second.held(), true);
        assert.equal((await two.first.holder('report-sync'))?.holder, 'gw-2');
      } finally {
        await Promise.all([first.stop(), second.stop()]);
      }
      assert.equal(await two.first.holder('report-sync'), null, 'stopping releases it');
    });
  });
}
