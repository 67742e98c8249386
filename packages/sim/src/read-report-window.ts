// The period a transactions export asks for (the control server's GET /exports/transactions.csv):
// the changes in [from, to), as ISO 8601 times; `to` defaults to now. A bad or reversed period is a
// 400 naming the parameter.
import { SupplierHttpError } from './create-supplier-server.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

export function readReportWindow(query: URLSearchParams, names: { from: string; to: string }, now: number): { from: number; to: number } {
  const read = (name: string, required: boolean): number | null => {
    const text = query.get(name);
    if (text === null || text === '') {
      if (required) throw new SupplierHttpError(400, `${name} is required`, { param: name });
      return null;
    }
    const ms = ISO_TIME.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(ms))
      throw new SupplierHttpError(400, `${name} must be an ISO 8601 time such as 2026-11-01T00:00:00Z`, { param: name, value: text });
    return ms;
  };
  const from = read(names.from, true)!;
  const to = read(names.to, false) ?? now;
  if (to < from)
    throw new SupplierHttpError(400, `${names.to} must not be before ${names.from}`, { param: names.to, value: query.get(names.to) ?? '' });
  return { from, to };
}
