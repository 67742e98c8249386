// Test support: the served content again with its listings changed, published into the test
// gateway's store as another process would (`staygate content refresh`, another gateway), and
// served once the gateway has picked it up. For listings no simulated supplier sends (a guest
// rating the API lacks), without a supplier of the test's own.
import { defaults } from '../defaults.ts';
import { buildStays } from '../inventory/build-stays.ts';
import { sqliteLocation } from '../compose/open-stores.ts';
import { openContentStore } from '../store/open-content-store.ts';
import type { Listing } from '../types.ts';
import type { TestApp } from './start-test-app.ts';

/**
 * Rebuilds every stay of the served version from its listings passed through `change` (the same
 * stay ids; averages and ranks computed again, as ingestion does), publishes it as `label`, and
 * resolves once the gateway serves it (at once when the change changed nothing). The gateway finds it by polling its store: give the test
 * app a short `contentPollMs`.
 */
export async function republishContent(t: TestApp, label: string, change: (listing: Listing) => Listing): Promise<void> {
  const store = await openContentStore(sqliteLocation(t.dataDir), { settings: defaults });
  try {
    const current = await store.currentContent();
    if (current === null) throw new Error('republishContent: the test gateway serves no content yet');
    const groups: Listing[][] = [];
    const ids: string[] = [];
    for await (const batch of store.version(current.no).allStays()) {
      for (const stay of batch) {
        groups.push(stay.listings.map(change));
        ids.push(stay.id);
      }
    }
    // The same stays as served (the change changed nothing: the supplier already sends them so) are
    // no new version (docs/decisions.md 80): the store answers with the served one, which stays served.
    if ((await store.publishContent(buildStays(groups, defaults, ids), label, current.info)) === current.no) return;
  } finally {
    await store.close();
  }
  while (t.app.health().inventory?.version !== label) await new Promise((resolve) => setTimeout(resolve, 10));
}
