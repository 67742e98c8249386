// /health and /health/live (issue 12): starting (503) until the first start is over, demo partner
// included; ok or degraded (200) while serving; live as soon as the process listens; probes not
// logged at info level.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createApp } from '../../app.ts';
import { defaults } from '../../defaults.ts';
import { generateWorld, startSimSuppliers } from '@staygate/sim';
import { simulatedSlots } from '../../compose/supplier-slots.ts';
import { daysAhead } from '../../test-support/days-ahead.ts';

test(
  'health: starting (503) until the demo partner exists, then ok (200); live at once; probes not logged at info',
  {
    timeout: 120_000,
  },
  async () => {
    const world = generateWorld({ seed: 11, stays: 1_500 });
    const sim = await startSimSuppliers({ world, latencyMs: 0 });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-health-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createApp({
      settings: { ...defaults, dataDir, demoClicks: 200, reportSyncIntervalMs: 0, contentRefreshMs: 0 },
      suppliers: simulatedSlots(sim.slots),
      demo: true,
      logger: { level: 'info', stream },
      geocoder: { geocode: async () => null },
    });
    try {
      const live = await app.http.inject('/health/live');
      assert.equal(live.statusCode, 200);
      const first = await app.http.inject('/health');
      assert.equal(first.statusCode, 503);
      assert.equal(first.json().status, 'starting');
      assert.equal(first.json().code, 'NOT_READY');
      assert.ok(first.json().requestId, 'first.json().requestId');
      // Polled until it turns 200: the demo partner's key must exist by then.
      let status = 503;
      while (status === 503) {
        status = (await app.http.inject('/health')).statusCode;
        if (status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(status, 200);
      assert.ok(existsSync(path.join(dataDir, 'demo-key.txt')), 'ready means the demo partner exists');
      const probe = await app.http.inject('/health');
      const body = probe.json();
      assert.equal(body.status, 'ok');
      assert.ok(
        body.inventory.stays > 0 && body.inventory.version && body.inventory.builtAt,
        'body.inventory.stays > 0 && body.inventory.version && body.inventory.builtAt',
      );
      for (const s of ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d']) {
        assert.equal(body.suppliers[s].content, 'ok');
        assert.equal(body.suppliers[s].breaker, 'closed');
        assert.ok(
          body.suppliers[s].listings > 0 && body.suppliers[s].lastRefresh,
          'body.suppliers[s].listings > 0 && body.suppliers[s].lastRefresh',
        );
      }
      assert.ok(!lines.some((line) => line.includes('/health')), 'no probe at info level');
      // The completed line names no URL, only the request id: looked for by it.
      const probeId = String(probe.headers['x-request-id']);
      assert.deepEqual(
        lines.filter((line) => line.includes(probeId)),
        [],
        'no line of a probe at info level, neither the incoming nor the completed one',
      );
      // A supplier's breaker open: degraded, still 200.
      await sim.setFault('supplier_c', 'error');
      for (let i = 0; i < 6 && app.health().suppliers.supplier_c?.breaker !== 'open'; i++) {
        await app.http.inject(
          `/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&checkin=${daysAhead(100 + i)}&checkout=${daysAhead(110 + i)}&provider=supplier_c`,
        );
      }
      const degraded = await app.http.inject('/health');
      assert.equal(degraded.statusCode, 200);
      assert.equal(degraded.json().status, 'degraded');
      assert.equal(degraded.json().suppliers.supplier_c.breaker, 'open');
    } finally {
      await app.close();
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
