// A commission transaction: what the gateway keeps of a supplier's booking (the supplier's report,
// attributed to the partner, campaign and device of its click), and the spec's Transaction record
// a partner reads (docs/decisions.md 8).
import type { DeviceClass } from '../clicks/click-store.ts';
import type { BookingStatus } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';

/** The date a report's range applies to (`dateFilter`). */
export const DATE_FILTERS = ['bookedDate', 'startDate', 'endDate', 'lastUpdatedDate'] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

export const REPORT_FORMATS = ['csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The spec's Transaction record, in the spec's field order (the CSV's columns). */
export const TRANSACTION_FIELDS = [
  'provider',
  'bookingId',
  'bookedDate',
  'startDate',
  'endDate',
  'bookingStatus',
  'campaignId',
  'campaignIds',
  'commission',
  'currency',
  'category',
  'quantity',
  'information',
  'destination',
  'userCountry',
  'device',
  'lastUpdatedDate',
] as const;

export interface TransactionRecord {
  provider: SupplierId;
  bookingId: string;
  /** ISO 8601 UTC time of the booking. */
  bookedDate: string;
  /** Check-in, YYYY-MM-DD. */
  startDate: string;
  /** Check-out, YYYY-MM-DD. */
  endDate: string;
  bookingStatus: BookingStatus;
  /** The click's campaign as the link carried it; '' without one. */
  campaignId: string;
  /** `campaignId` split on '-' (docs/decisions.md 7); [] without a campaign. */
  campaignIds: string[];
  /** USD, a decimal string with 2 decimals; "0.00" once canceled. */
  commission: string;
  currency: 'USD';
  /** docs/decisions.md 8: Accommodation, Flight or Activity; every booking here is a stay. */
  category: 'Accommodation';
  /** Room nights: nights x rooms. */
  quantity: number;
  /** The property and the stay, e.g. "Hotel Lumière, 3 nights, 1 room". */
  information: string;
  /** "City, CC" of the property. */
  destination: string;
  /** The guest's country, ISO 3166 alpha-2; '' when the supplier does not say. */
  userCountry: string;
  device: DeviceClass;
  /** ISO 8601 UTC time of the supplier's last change to the booking. */
  lastUpdatedDate: string;
}

/** A transaction as the store keeps it: the record's facts and its attribution. */
export interface TransactionRow {
  supplier: SupplierId;
  bookingId: string;
  /** The click the supplier reported, null when it reported none. */
  clickId: string | null;
  /** The click's affiliate id; null when the click is unknown or carried none. */
  aid: string | null;
  /** The partner owning `aid` (through the API keys); null = nobody's (unattributed). */
  partnerId: string | null;
  campaign: string | null;
  device: DeviceClass;
  bookedAt: string;
  startDate: string;
  endDate: string;
  status: BookingStatus;
  commissionCents: number;
  quantity: number;
  information: string;
  destination: string;
  userCountry: string;
  lastUpdated: string;
}

/** 1234 -> "12.34": exact, from integer cents. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function campaignIdsOf(campaign: string | null): string[] {
  return campaign === null || campaign === '' ? [] : campaign.split('-');
}

export function toRecord(row: TransactionRow): TransactionRecord {
  return {
    provider: row.supplier,
    bookingId: row.bookingId,
    bookedDate: row.bookedAt,
    startDate: row.startDate,
    endDate: row.endDate,
    bookingStatus: row.status,
    campaignId: row.campaign ?? '',
    campaignIds: campaignIdsOf(row.campaign),
    commission: formatUsd(row.commissionCents),
    currency: 'USD',
    category: 'Accommodation',
    quantity: row.quantity,
    information: row.information,
    destination: row.destination,
    userCountry: row.userCountry,
    device: row.device,
    lastUpdatedDate: row.lastUpdated,
  };
}

/**
 * What decides between two versions of one booking with the same `lastUpdated`: the greater key
 * wins, so replaying reports in any order ends in the same row. The partner is left out: it is
 * the owner of the aid, resolved apart (TransactionStore.assignPartners).
 */
export function versionKey(row: TransactionRow): string {
  return JSON.stringify([
    row.status,
    row.commissionCents,
    row.bookedAt,
    row.startDate,
    row.endDate,
    row.quantity,
    row.information,
    row.destination,
    row.userCountry,
    row.clickId,
    row.aid,
    row.campaign,
    row.device,
  ]);
}
