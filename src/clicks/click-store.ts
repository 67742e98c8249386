import type { SupplierId } from '../types.ts';

/** docs/decisions.md 8: the device values of a transaction record. */
export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet', 'unknown'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/**
 * One redirect through a tracked deeplink. Its id travels to the supplier with the redirect and
 * comes back in the supplier's commission report, so a booking is attributed to the partner
 * (`aid`), the campaign and the device of its click.
 */
export interface Click {
  /** Random, URL-safe. */
  id: string;
  /** ISO 8601. */
  at: string;
  /** The effective affiliate id the link carried; null for a link without one. */
  aid: string | null;
  campaign: string | null;
  /** The service id of the stay. */
  stayId: string;
  /** The supplier the click was sent to. */
  supplier: SupplierId;
  supplierStayId: string;
  device: DeviceClass;
}

/** What clicks can be counted by: the UTC month of the click (`YYYY-MM`), its campaign, device or supplier. */
export const TALLY_DIMENSIONS = ['month', 'campaign', 'device', 'supplier'] as const;
export type TallyDimension = (typeof TALLY_DIMENSIONS)[number];

export interface ClickCountQuery {
  /** The affiliate ids whose clicks count (a partner's: reporting/partner-summary.ts). */
  aids: readonly string[];
  /** ISO 8601 UTC, inclusive. */
  from: string;
  /** ISO 8601 UTC, exclusive. */
  to: string;
  by: TallyDimension;
}

/**
 * Where clicks are kept. SQLite in the gateway's data file by default; every implementation
 * runs the contract suite in click-store-contract.ts.
 */
export interface ClickStore {
  /** Records a click; a duplicate id is an error. */
  record(click: Click): Promise<void>;
  /** The clicks with these ids, in the order asked; unknown ids are skipped. */
  get(ids: readonly string[]): Promise<Click[]>;
  /** The latest clicks, newest first. */
  recent(limit: number): Promise<Click[]>;
  /**
   * Clicks of `aids` in [from, to) counted by one dimension, in the database (a partner's year is
   * tens of thousands of clicks: never read them to count them). `key` null: a click without a
   * campaign. Groups without clicks are absent; order unspecified.
   */
  count(query: ClickCountQuery): Promise<{ key: string | null; clicks: number }[]>;
  close(): Promise<void>;
}
