// A click as both engines keep it (table `clicks`, store/migrations/*/0001): the one row type, the
// one mapping each way, and the SQL both count with.
import type { SupplierId } from '../types.ts';
import type { Click, DeviceClass, TallyDimension } from './click-store.ts';

export interface ClickRow {
  id: string;
  at: string;
  aid: string | null;
  campaign: string | null;
  stay_id: string;
  supplier: SupplierId;
  supplier_stay_id: string;
  device: DeviceClass;
}

/** The columns of `clicks` a click is, in the order both stores write and read them. */
export const CLICK_COLUMNS = [
  'id',
  'at',
  'aid',
  'campaign',
  'stay_id',
  'supplier',
  'supplier_stay_id',
  'device',
] as const satisfies readonly (keyof ClickRow)[];

export function clickToRow(click: Click): ClickRow {
  return {
    id: click.id,
    at: click.at,
    aid: click.aid,
    campaign: click.campaign,
    stay_id: click.stayId,
    supplier: click.supplier,
    supplier_stay_id: click.supplierStayId,
    device: click.device,
  };
}

export function clickFromRow(row: ClickRow): Click {
  return {
    id: row.id,
    at: row.at,
    aid: row.aid,
    campaign: row.campaign,
    stayId: row.stay_id,
    supplier: row.supplier,
    supplierStayId: row.supplier_stay_id,
    device: row.device,
  };
}

/** The SQL of each tally dimension; `at` is fixed-width ISO 8601, so its first 7 characters are the month. */
export const CLICK_TALLY_KEY: Record<TallyDimension, string> = {
  month: 'substr(at, 1, 7)',
  campaign: 'campaign',
  device: 'device',
  supplier: 'supplier',
};
