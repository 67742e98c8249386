// Test support: where a published supplier spec that may not be copied into the repository is read
// from (Booking.com's Demand API file states no licence: docs/suppliers/booking-demand.md). The
// machine's shared folder beside the checkout first, then /work/shared; neither is a clear failure.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared specs folder's fixed place when the checkout is not beside it. */
export const SHARED_SPECS_FALLBACK = '/work/shared/specs';

/**
 * The path of `relative` (e.g. `booking-com-demand/booking-com-demand-api-3-1-openapi.yml`) under
 * `<repo>/../shared/specs/`, else under /work/shared/specs/. Throws, naming both places, when it is
 * in neither: the contract test cannot run without the published spec.
 */
export function sharedSpecPath(relative: string, candidates: readonly string[] = defaultCandidates(relative)): string {
  const found = candidates.find((path) => existsSync(path));
  if (found !== undefined) return found;
  throw new Error(
    `the published spec ${relative} is in none of ${candidates.join(', ')}: put the shared specs folder beside the checkout (../shared/specs) or at ${SHARED_SPECS_FALLBACK}`,
  );
}

function defaultCandidates(relative: string): string[] {
  // This file is <repo>/src/test-support/shared-spec-path.ts.
  const beside = fileURLToPath(new URL(`../../../shared/specs/${relative}`, import.meta.url));
  return [beside, `${SHARED_SPECS_FALLBACK}/${relative}`];
}
