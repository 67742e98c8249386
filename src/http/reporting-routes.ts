// GET /v1/reporting/transactions: a partner's commission transactions, as CSV (streamed) or JSON
// (spec: reporting endpoint; docs/decisions.md 8). The key says who the partner is; `thirdParty` must
// be one of the platforms registered for the key. Every rule broken is listed in one 400.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { defaults } from '../defaults.ts';
import { Violations } from '../errors/api-error.ts';
import { isCalendarDay, utcDay } from '../reporting/calendar-day.ts';
import { CSV_HEADER } from '../reporting/transaction-csv.ts';
import type { PartnerSummaries, SummaryQuery } from '../reporting/partner-summary.ts';
import type { TransactionQuery, TransactionStore } from '../reporting/transaction-store.ts';
import { DATE_FILTERS, REPORT_FORMATS, type DateFilter, type ReportFormat } from '../reporting/transaction.ts';
import { requireKey } from './access-control.ts';
import { compileQuery, type RawQuery } from './compile-query.ts';
import type { RouteContext } from './route-context.ts';

export interface Reporting {
  transactions: TransactionStore;
  /** A partner's figures by month, campaign, device and supplier (the hub's). */
  summary: PartnerSummaries;
}

export const REPORTING_PATH = '/v1/reporting/transactions';
export const SUMMARY_PATH = '/v1/reporting/summary';

export const reportingQuerySchema = Type.Partial(Type.Object({
  thirdParty: Type.String({ maxLength: 64, description: 'a platform name of at most 64 characters' }),
  startDate: Type.String(),
  endDate: Type.String(),
  dateFilter: Type.Union(DATE_FILTERS.map((f) => Type.Literal(f)), { description: `one of ${DATE_FILTERS.join(', ')}` }),
  limit: Type.Integer({ minimum: 1, maximum: defaults.reportingLimit, description: `an integer from 1 to ${defaults.reportingLimit}` }),
  page: Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'a zero-indexed page number: an integer of at least 0' }),
  format: Type.Union(REPORT_FORMATS.map((f) => Type.Literal(f)), { description: `one of ${REPORT_FORMATS.join(', ')}` }),
  key: Type.String(),
}));

const parseQuery = compileQuery(reportingQuerySchema);

/** The request as a store query and a format, or every violation in one 400. */
function readRequest(raw: RawQuery, thirdParties: readonly string[], partnerId: string, now: Date): { query: TransactionQuery; format: ReportFormat } {
  const v = new Violations();
  const p = parseQuery(raw, v);

  if (p.thirdParty === undefined) {
    if (!v.has('thirdParty')) v.add('thirdParty', 'thirdParty is required: the platform name registered for your key');
  } else if (!thirdParties.includes(p.thirdParty)) {
    v.add('thirdParty', thirdParties.length === 0
      ? `"${p.thirdParty}" is not registered for this key, which has no platform registered`
      : `"${p.thirdParty}" is not registered for this key; registered: ${thirdParties.join(', ')}`);
  }

  // docs/decisions.md 3: not a real YYYY-MM-DD date -> INVALID_DATE_FORMAT; a reversed range -> VALIDATION_ERROR.
  const { start, end } = readPeriod(p, v, now);
  v.throwIfAny();

  return {
    query: {
      partnerId,
      dateFilter: (p.dateFilter ?? 'lastUpdatedDate') as DateFilter,
      startDate: start!,
      endDate: end!,
      limit: p.limit ?? defaults.reportingLimit,
      page: p.page ?? 0,
    },
    format: (p.format ?? 'csv') as ReportFormat,
  };
}

export const summaryQuerySchema = Type.Partial(Type.Object({
  startDate: Type.String(),
  endDate: Type.String(),
  top: Type.Integer({ minimum: 1, maximum: defaults.summaryMaxTop, description: `an integer from 1 to ${defaults.summaryMaxTop}` }),
  key: Type.String(),
}));
const parseSummaryQuery = compileQuery(summaryQuerySchema);

/** The period of a request (`startDate`, `endDate`: defaults, format and order as the transactions route), violations recorded. */
function readPeriod(p: { startDate?: string; endDate?: string }, v: Violations, now: Date): { start: string | null; end: string | null } {
  // Days stay YYYY-MM-DD text (reporting/calendar-day.ts): every year from 0000 to 9999 is a day
  // like any other, and the text compares as the days do.
  const date = (param: 'startDate' | 'endDate', text: string | undefined, fallback: string): string | null => {
    if (text === undefined) return fallback;
    if (isCalendarDay(text)) return text;
    v.add(param, `${param} must be a real calendar date written YYYY-MM-DD`, 'INVALID_DATE_FORMAT');
    return null;
  };
  const today = utcDay(now.getTime());
  const yearAgo = utcDay(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate()));
  const start = date('startDate', p.startDate, yearAgo);
  const end = date('endDate', p.endDate, today);
  if (start !== null && end !== null && start > end) {
    const which = p.startDate === undefined ? ' (by default, a year before today)' : p.endDate === undefined ? ' (by default, today)' : '';
    v.add('startDate', `startDate ${start} is after endDate ${end}${which}`);
  }
  return { start, end };
}

/** A summary request, or every violation in one 400 (docs/decisions.md 41). */
function readSummaryRequest(raw: RawQuery, partnerId: string, now: Date): SummaryQuery {
  const v = new Violations();
  const p = parseSummaryQuery(raw, v);
  const { start, end } = readPeriod(p, v, now);
  const days = start !== null && end !== null && start <= end ? (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1 : 0;
  if (days > defaults.summaryMaxDays) {
    v.add('endDate', `the period is ${days} days; a summary covers at most ${defaults.summaryMaxDays} days (two years of months to chart)`);
  }
  v.throwIfAny();
  return { partnerId, startDate: start!, endDate: end!, top: p.top ?? defaults.summaryTop, latest: defaults.summaryLatest };
}

export function registerReportingRoutes(app: FastifyInstance, context: RouteContext, reporting: Reporting): void {
  // The key may come in X-API-KEY (the spec's way) or `key=` (spreadsheets importing the CSV from
  // a URL cannot set a header); `key=` is redacted from the logs either way.
  app.get(REPORTING_PATH, { config: { apiKey: 'required' } }, async (request, reply) => {
    const auth = requireKey(request);
    const { query, format } = readRequest(request.query as RawQuery, auth.thirdParties, auth.partnerId, context.now());
    // Figures about money: no cache between the partner and us keeps them.
    reply.header('Cache-Control', 'private, no-store');

    if (format === 'json') {
      const { records, hasMore } = await reporting.transactions.query(query);
      return reply.type('application/json; charset=utf-8').send({
        statusCode: 200,
        partnerId: auth.partnerId,
        data: records,
        meta: {
          page: query.page, limit: query.limit, count: records.length, hasMore,
          dateFilter: query.dateFilter, startDate: query.startDate, endDate: query.endDate,
        },
      });
    }

    const lines = reporting.transactions.csvPage(query);
    async function* body(): AsyncGenerator<string> {
      yield CSV_HEADER;
      yield* lines;
    }
    const stream = Readable.from(body(), { objectMode: false });
    stream.on('error', (error) => request.log.error({ err: error }, 'a CSV export failed while streaming'));
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="transactions-${query.startDate}-${query.endDate}-page-${query.page}.csv"`)
      .send(stream);
  });

  // JSON only: the hub charts it. Same key rules and limits as the transactions route; the key's
  // partner is the only one whose figures can be read (no parameter names a partner).
  app.get(SUMMARY_PATH, { config: { apiKey: 'required' } }, async (request, reply) => {
    const auth = requireKey(request);
    const query = readSummaryRequest(request.query as RawQuery, auth.partnerId, context.now());
    const summary = await reporting.summary.summarize(query);
    reply.header('Cache-Control', 'private, no-store');
    return reply.type('application/json; charset=utf-8').send({ statusCode: 200, ...summary, thirdParties: auth.thirdParties });
  });
}
