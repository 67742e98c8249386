import type { Cluster } from './start-cluster.ts';

/**
 * Checks a started cluster through nginx as a partner would use it: health, a key made by the CLI,
 * searches answered by every gateway, a tracked deeplink. Returns a line per check; throws on the
 * first that fails.
 */
export async function smokeCheck(cluster: Cluster): Promise<string[]> {
  const base = cluster.nginxUrl ?? cluster.gatewayUrls[0];
  const lines: string[] = [];
  const health = await fetch(`${base}/health`);
  if (health.status !== 200) throw new Error(`GET /health through nginx answered ${health.status}`);
  const report = (await health.json()) as { status: string; inventory?: { stays?: number } };
  lines.push(`/health: ${report.status}, ${report.inventory?.stays ?? '?'} stays`);

  const created = await cluster.cli(['keys', 'create', '--aid', 'smoke-check']);
  if (created.code !== 0) throw new Error(`staygate keys create failed: ${created.stderr.trim()}`);
  const key = created.stdout.trim().split('\n').at(-1)!;
  lines.push('a key made by the CLI on the shared database');

  const served = new Set<string>();
  let stays = 0;
  let link: string | null = null;
  for (let i = 0; i < 8; i++) {
    const response = await fetch(`${base}/v2/accommodations?lat=48.8566&lng=2.3522&radius=5000&limit=5&key=${key}`);
    if (response.status !== 200) throw new Error(`a v2 search through nginx answered ${response.status}: ${await response.text()}`);
    served.add(response.headers.get('x-upstream') ?? 'unknown');
    const body = (await response.json()) as { meta: { total: number }; results: { url: string }[] };
    stays = body.meta.total;
    link ??= body.results[0]?.url ?? null;
  }
  if (stays === 0) throw new Error('the search around Paris found no stays');
  if (cluster.nginxUrl !== null && served.size < Math.min(2, cluster.gatewayUrls.length)) {
    throw new Error(`every search was answered by ${[...served].join(', ')}: nginx does not spread them`);
  }
  lines.push(`searches with that key answered by ${served.size} gateways (${stays} stays around Paris)`);

  if (link !== null) {
    const go = await fetch(new URL(new URL(link).pathname + new URL(link).search, base), { redirect: 'manual' });
    if (go.status !== 302) throw new Error(`the deeplink ${link} answered ${go.status}`);
    lines.push('a tracked deeplink redirects to its supplier');
  }
  return lines;
}
