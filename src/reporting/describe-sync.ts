// One line per supplier pull, for the CLI's output and the gateway's log alike: what was read and
// applied, and for a reconciliation what it found that the incremental pulls had missed.
import { count } from '../text/plural.ts';
import type { SupplierId } from '../types.ts';
import type { SupplierSyncResult } from './sync-transactions.ts';

/** Booking ids named in a line at most: the counts say the rest. */
const MAX_NAMED = 20;

export function describeSync(r: SupplierSyncResult): string {
  if (r.noReport) return describeNoReport(r.supplier);
  if (!r.ok) return `${r.supplier}: FAILED, nothing applied (asked again next time): ${r.error}`;
  const unknown = r.unknownClicks > 0 ? `, ${r.unknownClicks} with a click we do not know` : '';
  return (
    `${r.supplier}: ${count(r.received, 'record')} of the changes ${r.from} .. ${r.to}: ${r.inserted} new, ${r.updated} updated, ` +
    `${r.unchanged} unchanged${unknown} (${r.ms} ms)${r.kind === 'reconciliation' ? `; reconciliation: ${describeMissed(r)}` : ''}`
  );
}

/** A slot whose API has no commission report: what to do instead (docs/transactions-import.md). */
export function describeNoReport(supplier: SupplierId): string {
  return `${supplier}: no commission report API: import its CSV with \`staygate transactions import --supplier ${supplier} FILE.csv\``;
}

/** "found nothing the incremental sync missed" or "found 2 the incremental sync missed: BK1 (new, 2026-11-20T...), ..." */
export function describeMissed(r: SupplierSyncResult): string {
  if (r.missed.length === 0) return 'found nothing the incremental sync missed';
  const named = r.missed
    .slice(0, MAX_NAMED)
    .map((c) => `${c.bookingId} (${c.kind}, changed ${c.lastUpdated})`)
    .join(', ');
  const more = r.missed.length > MAX_NAMED ? ` and ${r.missed.length - MAX_NAMED} more` : '';
  return `found ${r.missed.length} the incremental sync missed (published later than the overlap): ${named}${more}`;
}
