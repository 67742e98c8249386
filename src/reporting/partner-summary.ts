// A partner's figures for a period, for the hub (`GET /v1/reporting/summary`, docs/decisions.md 41):
// clicks, bookings, conversion and commission by month, campaign, device and supplier, and the
// latest transactions. Counting and summing happen in the database (ClickStore.count,
// TransactionStore.tally); this module only joins the few grouped rows they return.
import { TALLY_DIMENSIONS, type ClickStore, type TallyDimension } from '../clicks/click-store.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { BOOKING_STATUSES, type BookingStatus } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { DEVICE_CLASSES } from '../clicks/click-store.ts';
import { aidOwners } from './sync-transactions.ts';
import { formatUsd, type TransactionRecord } from './transaction.ts';
import type { TransactionStore } from './transaction-store.ts';

export interface SummaryQuery {
  partnerId: string;
  /** YYYY-MM-DD, UTC, inclusive: click days and booked days. */
  startDate: string;
  endDate: string;
  /** Campaigns listed (the best by commission, then bookings, then clicks). */
  top: number;
  /** Latest transactions listed. */
  latest: number;
}

/** The figures of one group (a month, a campaign...) or of the whole period. */
export interface Figures {
  clicks: number;
  /** Bookings booked in the group, whatever their status now. */
  bookings: number;
  /** bookings / clicks, 4 decimals; null without clicks. */
  conversion: number | null;
  /** USD, 2 decimals: the Pending and Approved commission (a canceled booking earns nothing). */
  commission: string;
  bookingsByStatus: Record<BookingStatus, number>;
  commissionByStatus: Record<BookingStatus, string>;
}

export interface PartnerSummary {
  partnerId: string;
  /** The affiliate ids whose clicks and bookings are the partner's (those of its keys). */
  aids: string[];
  startDate: string;
  endDate: string;
  currency: 'USD';
  totals: Figures;
  /** Every month of the period, oldest first, months without activity included. */
  months: (Figures & { month: string })[];
  /** The `top` best campaigns; '' is the links without a campaign. */
  campaigns: (Figures & { campaign: string })[];
  /** Every device class. */
  devices: (Figures & { device: string })[];
  /** Every supplier. */
  suppliers: (Figures & { supplier: string })[];
  latest: TransactionRecord[];
  /** The partner's map tokens (and no one else's), oldest first, revoked ones included. */
  mapTokens: MapTokenSummary[];
}

/**
 * A map token as the hub shows it (docs/decisions.md 91, 101): what it is, where it works, and the
 * map searches counted for it in each month of the period. The counts are kept per month, so a
 * period that starts or ends within a month counts that whole month.
 */
export interface MapTokenSummary {
  token: string;
  /** Origin patterns the token may be used from (`https://blog.example`, `https://*.example`, `self`). */
  origins: string[];
  status: 'active' | 'revoked';
  /** Searches per minute for the whole token; null = the default. */
  limitPerMinute: number | null;
  createdAt: string;
  /** When it was revoked; null while active. */
  revokedAt: string | null;
  /** The searches of every month below. */
  searches: number;
  /** Every month of the period, oldest first, months without searches included. */
  months: { month: string; searches: number }[];
}

interface Tally {
  clicks: number;
  bookings: Record<BookingStatus, number>;
  cents: Record<BookingStatus, number>;
}

const emptyTally = (): Tally => ({
  clicks: 0,
  bookings: { Pending: 0, Approved: 0, Canceled: 0 },
  cents: { Pending: 0, Approved: 0, Canceled: 0 },
});

function figures(t: Tally): Figures {
  const bookings = BOOKING_STATUSES.reduce((n, s) => n + t.bookings[s], 0);
  return {
    clicks: t.clicks,
    bookings,
    conversion: t.clicks === 0 ? null : Math.round((bookings / t.clicks) * 10_000) / 10_000,
    commission: formatUsd(t.cents.Pending + t.cents.Approved),
    bookingsByStatus: { ...t.bookings },
    commissionByStatus: {
      Pending: formatUsd(t.cents.Pending),
      Approved: formatUsd(t.cents.Approved),
      Canceled: formatUsd(t.cents.Canceled),
    },
  };
}

/** 'YYYY-MM' of every month from start to end (YYYY-MM-DD), inclusive. */
export function monthsBetween(startDate: string, endDate: string): string[] {
  const months: string[] = [];
  let y = Number(startDate.slice(0, 4));
  let m = Number(startDate.slice(5, 7));
  const last = endDate.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    months.push(month);
    if (month >= last) return months;
    m++;
    if (m === 13) {
      m = 1;
      y++;
    }
  }
}

export interface PartnerSummaries {
  summarize(query: SummaryQuery): Promise<PartnerSummary>;
}

/**
 * The partner's map tokens with their searches of each month of the period. Only the partner's:
 * the store is asked for that partner's counts, and its token list (every partner's) is filtered
 * here, so no other partner's token can leak in.
 */
async function mapTokenSummaries(keys: KeyStore, partnerId: string, periodMonths: readonly string[]): Promise<MapTokenSummary[]> {
  const [allTokens, counts] = await Promise.all([keys.mapTokens(), keys.mapSearches(partnerId)]);
  const searchesOf = new Map(counts.map((c) => [`${c.token}|${c.month}`, c.searches]));
  return allTokens
    .filter((t) => t.partnerId === partnerId)
    .map((t): MapTokenSummary => {
      const months = periodMonths.map((month) => ({ month, searches: searchesOf.get(`${t.token}|${month}`) ?? 0 }));
      return {
        token: t.token,
        origins: t.origins,
        status: t.status,
        limitPerMinute: t.limitPerMinute,
        createdAt: t.createdAt,
        revokedAt: t.status === 'revoked' ? t.updatedAt : null,
        searches: months.reduce((n, m) => n + m.searches, 0),
        months,
      };
    });
}

export function createPartnerSummaries({
  clicks,
  transactions,
  keys,
}: {
  clicks: ClickStore;
  transactions: TransactionStore;
  keys: KeyStore;
}): PartnerSummaries {
  return {
    async summarize(query) {
      // The partner's aids as attribution sees them (sync-transactions.ts): an aid belongs to the
      // partner of the oldest key carrying it, revoked keys included (history stays the partner's).
      const aids = [...(await aidOwners(keys))]
        .filter(([, partner]) => partner === query.partnerId)
        .map(([aid]) => aid)
        .sort();
      const from = `${query.startDate}T00:00:00.000Z`;
      const to = new Date(Date.parse(`${query.endDate}T00:00:00Z`) + 86_400_000).toISOString();

      const byDimension = new Map<TallyDimension, Map<string, Tally>>();
      await Promise.all(
        TALLY_DIMENSIONS.map(async (by) => {
          const groups = new Map<string, Tally>();
          const group = (key: string | null) => {
            const name = key ?? '';
            let t = groups.get(name);
            if (t === undefined) groups.set(name, (t = emptyTally()));
            return t;
          };
          const [clickCounts, bookingTallies] = await Promise.all([
            clicks.count({ aids, from, to, by }),
            transactions.tally({ partnerId: query.partnerId, startDate: query.startDate, endDate: query.endDate, by }),
          ]);
          for (const c of clickCounts) group(c.key).clicks += c.clicks;
          for (const b of bookingTallies) {
            const t = group(b.key);
            t.bookings[b.status] += b.bookings;
            t.cents[b.status] += b.commissionCents;
          }
          byDimension.set(by, groups);
        }),
      );

      const of = (by: TallyDimension, key: string) => byDimension.get(by)!.get(key) ?? emptyTally();
      const total = emptyTally();
      for (const t of byDimension.get('month')!.values()) {
        total.clicks += t.clicks;
        for (const s of BOOKING_STATUSES) {
          total.bookings[s] += t.bookings[s];
          total.cents[s] += t.cents[s];
        }
      }
      const campaigns = [...byDimension.get('campaign')!].map(([campaign, t]) => ({ campaign, ...figures(t) }));
      const cents = (f: Figures) => Math.round(Number(f.commission) * 100);
      campaigns.sort(
        (x, y) => cents(y) - cents(x) || y.bookings - x.bookings || y.clicks - x.clicks || x.campaign.localeCompare(y.campaign),
      );

      const periodMonths = monthsBetween(query.startDate, query.endDate);
      const mapTokens = await mapTokenSummaries(keys, query.partnerId, periodMonths);

      return {
        partnerId: query.partnerId,
        aids,
        startDate: query.startDate,
        endDate: query.endDate,
        currency: 'USD',
        totals: figures(total),
        months: periodMonths.map((month) => ({ month, ...figures(of('month', month)) })),
        campaigns: campaigns.slice(0, query.top),
        devices: DEVICE_CLASSES.map((device) => ({ device, ...figures(of('device', device)) })),
        suppliers: SUPPLIER_IDS.map((supplier) => ({ supplier, ...figures(of('supplier', supplier)) })),
        latest: await transactions.latest({
          partnerId: query.partnerId,
          startDate: query.startDate,
          endDate: query.endDate,
          limit: query.latest,
        }),
        mapTokens,
      };
    },
  };
}
