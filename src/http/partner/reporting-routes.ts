// GET /v1/reporting/transactions: a partner's commission transactions, as CSV or JSON
// (spec: reporting endpoint; docs/decisions.md 8). The key says who the partner is; `thirdParty` must
// be one of the platforms registered for the key. Every rule broken is listed in one 400.
import { Type, type Static, type TSchema } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { Violations, type IgnoredParam } from '../../errors/api-error.ts';
import { isCalendarDay, utcDay } from '../../reporting/calendar-day.ts';
import { CSV_HEADER } from '../../reporting/transaction-csv.ts';
import type { PartnerSummaries, SummaryQuery } from '../../reporting/partner-summary.ts';
import type { TransactionQuery, TransactionStore } from '../../reporting/transaction-store.ts';
import { DATE_FILTERS, REPORT_FORMATS, type DateFilter, type ReportFormat } from '../../reporting/transaction.ts';
import { requireKey } from '../access/access-control.ts';
import { errorResponses, REQUIRED_KEY } from '../route-schemas.ts';
import { compileQuery, type RawQuery } from '../query/compile-query.ts';
import type { RouteContext } from '../route-context.ts';
import type { Settings } from '../../types.ts';

export interface Reporting {
  transactions: TransactionStore;
  /** A partner's figures by month, campaign, device and supplier (the hub's). */
  summary: PartnerSummaries;
}

export const REPORTING_PATH = '/v1/reporting/transactions';
export const SUMMARY_PATH = '/v1/reporting/summary';

/** The reporting routes' page size, the summary's bounds and defaults, and the map token default its schema names. */
export type ReportingSettings = Pick<
  Settings,
  'reportingLimit' | 'summaryTop' | 'summaryMaxTop' | 'summaryLatest' | 'summaryMaxDays' | 'mapTokenPerMinute'
>;

export function reportingQuerySchema(settings: Pick<Settings, 'reportingLimit'>) {
  return Type.Partial(
    Type.Object({
      thirdParty: Type.String({
        maxLength: 64,
        expected: 'a platform name of at most 64 characters',
        description: 'Required: the platform registered for the key (`staygate keys create --third-party`); another one is 400.',
        examples: ['demo-platform'],
      }),
      startDate: Type.String({
        description: 'First day `YYYY-MM-DD` (UTC, included) of the range on the `dateFilter` date. Default a year before today.',
        examples: ['2026-01-01'],
      }),
      endDate: Type.String({
        description: 'Last day `YYYY-MM-DD` (UTC, included). Default today. Before `startDate`: 400.',
        examples: ['2026-06-30'],
      }),
      dateFilter: Type.Union(
        DATE_FILTERS.map((f) => Type.Literal(f)),
        {
          expected: `one of ${DATE_FILTERS.join(', ')}`,
          description:
            'Which date the range applies to: `bookedDate`, `startDate` (check-in), `endDate` (check-out) or `lastUpdatedDate` (default).',
          examples: ['bookedDate'],
        },
      ),
      limit: Type.Integer({
        minimum: 1,
        maximum: settings.reportingLimit,
        expected: `an integer from 1 to ${settings.reportingLimit}`,
        description: `Records per page, 1 to ${settings.reportingLimit}. Default ${settings.reportingLimit}.`,
        examples: [100],
      }),
      page: Type.Integer({
        minimum: 0,
        maximum: 10_000_000,
        expected: 'a zero-indexed page number: an integer of at least 0',
        description: 'Zero-indexed page. Default 0. A page with fewer than `limit` records is the last (JSON: `meta.hasMore`).',
        examples: [0],
      }),
      format: Type.Union(
        REPORT_FORMATS.map((f) => Type.Literal(f)),
        {
          expected: `one of ${REPORT_FORMATS.join(', ')}`,
          description: '`csv` (text/csv, default) or `json`.',
          examples: ['json'],
        },
      ),
      key: Type.String({ description: 'API key, for spreadsheets that import a CSV from a URL and cannot set the `X-API-KEY` header.' }),
    }),
  );
}

const str = (description: string, example: string) => Type.String({ description, examples: [example] });

/** One transaction (spec: Transaction record); undeclared properties are allowed, as the spec says. */
const transactionSchema = Type.Object(
  {
    provider: str('The supplier of the booking.', 'supplier_a'),
    bookingId: str("The supplier's booking id.", 'A-BK-100234'),
    bookedDate: str('ISO 8601 UTC time of the booking.', '2026-05-02T14:31:07.000Z'),
    startDate: str('Check-in, YYYY-MM-DD.', '2026-06-10'),
    endDate: str('Check-out, YYYY-MM-DD.', '2026-06-13'),
    bookingStatus: Type.Union([Type.Literal('Pending'), Type.Literal('Approved'), Type.Literal('Canceled')], {
      description: '`Approved` after the stay; `Canceled` (no-shows too) earns nothing.',
    }),
    campaignId: str("The click's campaign as the link carried it; empty without one.", 'summer-newsletter'),
    campaignIds: Type.Array(Type.String(), { description: '`campaignId` split on `-`.', examples: [['summer', 'newsletter']] }),
    commission: str('USD, a decimal string with two decimals; `0.00` once canceled.', '18.40'),
    currency: str('Always USD.', 'USD'),
    category: str('`Accommodation` (also `Flight`, `Activity` in the spec).', 'Accommodation'),
    quantity: Type.Number({ description: 'Room nights.', examples: [3] }),
    information: str('The property and the stay.', 'Hotel Lumière, 3 nights, 1 room'),
    destination: str('City and country code of the property.', 'Paris, FR'),
    userCountry: str("The guest's country (ISO 3166 alpha-2), empty when unknown.", 'DE'),
    device: Type.Union([Type.Literal('desktop'), Type.Literal('mobile'), Type.Literal('tablet'), Type.Literal('unknown')], {
      description: 'Device class of the click.',
    }),
    lastUpdatedDate: str("ISO 8601 UTC time of the supplier's last change.", '2026-06-14T02:00:00.000Z'),
  },
  { additionalProperties: true },
);

/** The JSON envelope (spec: `{ statusCode, partnerId, data }`, undeclared properties allowed). */
export const reportingJsonSchema = Type.Object(
  {
    statusCode: Type.Integer({ examples: [200] }),
    partnerId: Type.String({ description: "The key's partner." }),
    data: Type.Array(transactionSchema),
    meta: Type.Object({
      page: Type.Integer(),
      limit: Type.Integer(),
      count: Type.Integer(),
      hasMore: Type.Boolean({ description: 'Whether a next page exists.' }),
      dateFilter: Type.String(),
      startDate: Type.String(),
      endDate: Type.String(),
      ignored: Type.Optional(
        Type.Array(Type.Object({ param: Type.String(), reason: Type.String() }), {
          description: 'Parameters given but not applied (unknown ones).',
        }),
      ),
    }),
  },
  { additionalProperties: true },
);

type TransactionsParams = Partial<Static<ReturnType<typeof reportingQuerySchema>>>;

/** The request as a store query and a format, or every violation in one 400. */
function readRequest(
  p: TransactionsParams,
  v: Violations,
  thirdParties: readonly string[],
  partnerId: string,
  now: Date,
  reportingLimit: number,
): { query: TransactionQuery; format: ReportFormat; ignored: IgnoredParam[] } {
  if (p.thirdParty === undefined) {
    if (!v.has('thirdParty')) v.add('thirdParty', 'thirdParty is required: the platform name registered for your key');
  } else if (!thirdParties.includes(p.thirdParty)) {
    v.add(
      'thirdParty',
      thirdParties.length === 0
        ? `"${p.thirdParty}" is not registered for this key, which has no platform registered`
        : `"${p.thirdParty}" is not registered for this key; registered: ${thirdParties.join(', ')}`,
    );
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
      limit: p.limit ?? reportingLimit,
      page: p.page ?? 0,
    },
    format: (p.format ?? 'csv') as ReportFormat,
    ignored: v.ignored,
  };
}

export function summaryQuerySchema(settings: Pick<Settings, 'summaryTop' | 'summaryMaxTop' | 'summaryMaxDays'>) {
  return Type.Partial(
    Type.Object({
      startDate: Type.String({
        description: 'First day of the period, YYYY-MM-DD (UTC, included). Default a year before today.',
        examples: ['2026-01-01'],
      }),
      endDate: Type.String({
        description: `Last day of the period, YYYY-MM-DD (UTC, included); at most ${settings.summaryMaxDays} days after startDate. Default today.`,
        examples: ['2026-11-21'],
      }),
      top: Type.Integer({
        minimum: 1,
        maximum: settings.summaryMaxTop,
        expected: `an integer from 1 to ${settings.summaryMaxTop}`,
        description: `How many of the best campaigns to list, 1 to ${settings.summaryMaxTop}. Default ${settings.summaryTop}.`,
        examples: [10],
      }),
      key: Type.String({
        description: 'API key, for clients that cannot set the `X-API-KEY` header (the header wins). Never copied into links.',
      }),
    }),
  );
}

/** One group's figures in a summary (reporting/partner-summary.ts `Figures`). */
const byStatus = <T extends TSchema>(value: T) => Type.Object({ Pending: value, Approved: value, Canceled: value });
const figures = {
  clicks: Type.Integer({ description: "Clicks on the partner's deeplinks in the group (by click time)." }),
  bookings: Type.Integer({ description: 'Bookings made in the group (by booked time), whatever their status now.' }),
  conversion: Type.Union([Type.Number(), Type.Null()], { description: 'bookings / clicks, 4 decimals; null without clicks.' }),
  commission: Type.String({ description: 'USD, two decimals: Pending and Approved commission.', examples: ['184.20'] }),
  bookingsByStatus: byStatus(Type.Integer()),
  commissionByStatus: byStatus(Type.String()),
};
const group = (name: string, description: string) => Type.Array(Type.Object({ [name]: Type.String({ description }), ...figures }));

/** The summary's JSON (the hub charts it); `mapTokenPerMinute` is the default its map tokens' limit names. */
export function summaryJsonSchema(settings: Pick<Settings, 'mapTokenPerMinute'>) {
  return Type.Object(
    {
      statusCode: Type.Integer({ examples: [200] }),
      partnerId: Type.String({ description: "The key's partner." }),
      aids: Type.Array(Type.String(), {
        description: "The affiliate ids whose clicks and bookings are the partner's (those of its keys).",
      }),
      startDate: Type.String(),
      endDate: Type.String(),
      currency: Type.Literal('USD'),
      totals: Type.Object(figures),
      months: group('month', 'YYYY-MM; every month of the period, oldest first, empty ones included.'),
      campaigns: group('campaign', 'The best campaigns; empty for links without one.'),
      devices: group('device', 'desktop, mobile, tablet or unknown.'),
      suppliers: group('supplier', 'The supplier booked.'),
      latest: Type.Array(transactionSchema, { description: 'The latest transactions of the period.' }),
      thirdParties: Type.Array(Type.String(), { description: 'The platforms registered for the key (for the CSV export).' }),
      mapTokens: Type.Array(
        Type.Object({
          token: Type.String({
            description: 'The publishable map token (public by design: the embed snippet carries it).',
            examples: ['sgmap_…'],
          }),
          origins: Type.Array(Type.String(), {
            description: 'The sites it works on: origins, `https://*.example`, `http://localhost:*`, `self`.',
            examples: [['https://blog.example']],
          }),
          status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
          limitPerMinute: Type.Union([Type.Integer(), Type.Null()], {
            description: `Searches a minute of the whole token; null = the default (${settings.mapTokenPerMinute}).`,
          }),
          createdAt: Type.String({ description: 'ISO 8601.' }),
          revokedAt: Type.Union([Type.String(), Type.Null()], { description: 'ISO 8601; null while active.' }),
          searches: Type.Integer({ description: 'Map searches made with it in the months of the period.' }),
          months: Type.Array(Type.Object({ month: Type.String({ description: 'YYYY-MM' }), searches: Type.Integer() }), {
            description: 'Every month of the period, oldest first, empty ones included: searches are counted per UTC month.',
          }),
        }),
        {
          description:
            "The partner's map tokens (staygate keys map-token), oldest first, revoked ones included, with the map searches counted for each; never another partner's.",
        },
      ),
    },
    { additionalProperties: true },
  );
}

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

type SummaryParams = Partial<Static<ReturnType<typeof summaryQuerySchema>>>;

/** A summary request, or every violation in one 400 (docs/decisions.md 41). */
function readSummaryRequest(
  p: SummaryParams,
  v: Violations,
  partnerId: string,
  now: Date,
  settings: Pick<Settings, 'summaryMaxDays' | 'summaryTop' | 'summaryLatest'>,
): SummaryQuery {
  const { start, end } = readPeriod(p, v, now);
  const days =
    start !== null && end !== null && start <= end
      ? (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1
      : 0;
  if (days > settings.summaryMaxDays) {
    v.add('endDate', `the period is ${days} days; a summary covers at most ${settings.summaryMaxDays} days (two years of months to chart)`);
  }
  v.throwIfAny();
  return { partnerId, startDate: start!, endDate: end!, top: p.top ?? settings.summaryTop, latest: settings.summaryLatest };
}

export function registerReportingRoutes(app: FastifyInstance, context: RouteContext, reporting: Reporting): void {
  registerTransactionsRoute(app, context, reporting.transactions);
  registerSummaryRoute(app, context, reporting.summary);
}

function registerTransactionsRoute(app: FastifyInstance, context: RouteContext, transactions: TransactionStore): void {
  const { reportingLimit } = context.settings;
  const transactionsQuery = reportingQuerySchema({ reportingLimit });
  const parseTransactionsQuery = compileQuery(transactionsQuery);

  // The key may come in X-API-KEY (the spec's way) or `key=` (spreadsheets importing the CSV from
  // a URL cannot set a header); `key=` is redacted from the logs either way.
  app.get(
    REPORTING_PATH,
    {
      config: { apiKey: 'required' },
      schema: {
        tags: ['reporting'],
        summary: "The partner's commission transactions, CSV or JSON",
        description:
          "Every booking made through one of the partner's deeplinks, as the supplier's commission report states it. " +
          'CSV (default): RFC 4180, a header row, formula-injection escaping. JSON: the envelope below. Needs a key.',
        security: REQUIRED_KEY,
        querystring: transactionsQuery,
        response: {
          200: {
            description: 'A page of transactions.',
            content: {
              'application/json': { schema: reportingJsonSchema },
              'text/csv': {
                schema: Type.String({
                  description: 'The same records as CSV: a header row of the field names, then a row per transaction.',
                }),
              },
            },
          },
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const auth = requireKey(request);
      const v = new Violations();
      const params = parseTransactionsQuery(request.query as RawQuery, v);
      const { query, format, ignored } = readRequest(params, v, auth.thirdParties, auth.partnerId, context.now(), reportingLimit);
      // Figures about money: no cache between the partner and us keeps them.
      reply.header('Cache-Control', 'private, no-store');

      if (format === 'json') {
        const { records, hasMore } = await transactions.query(query);
        return reply.type('application/json; charset=utf-8').send({
          statusCode: 200,
          partnerId: auth.partnerId,
          data: records,
          meta: {
            page: query.page,
            limit: query.limit,
            count: records.length,
            hasMore,
            dateFilter: query.dateFilter,
            startDate: query.startDate,
            endDate: query.endDate,
            ...(ignored.length === 0 ? {} : { ignored }),
          },
        });
      }

      // The page is read whole, then sent at once with its length (docs/decisions.md 97): at most
      // `limit` (500) lines, ~125 KB; a stream sent it as several chunked writes, which cost the
      // gateway a fifth of its CPU per page, and held the database while a slow client read. A
      // failure to read it is the spec's error body, not a download cut short.
      let csv = CSV_HEADER;
      for await (const lines of transactions.csvPage(query)) csv += lines;
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="transactions-${query.startDate}-${query.endDate}-page-${query.page}.csv"`)
        .send(csv);
    },
  );
}

/** The summary the hub charts (docs/decisions.md 41). */
function registerSummaryRoute(app: FastifyInstance, context: RouteContext, summaries: PartnerSummaries): void {
  const settings: ReportingSettings = context.settings;
  const summaryQuery = summaryQuerySchema(settings);
  const parseSummaryQuery = compileQuery(summaryQuery);
  // JSON only: the hub charts it. Same key rules and limits as the transactions route; the key's
  // partner is the only one whose figures can be read (no parameter names a partner).
  app.get(
    SUMMARY_PATH,
    {
      config: { apiKey: 'required' },
      schema: {
        tags: ['reporting'],
        summary: "The partner's clicks, bookings and commission by month, campaign, device and supplier",
        description:
          "What the partner hub charts: counted in the database for the key's partner, over a period of at most " +
          `${settings.summaryMaxDays} days, with the latest transactions. Needs a key; JSON only.`,
        security: REQUIRED_KEY,
        querystring: summaryQuery,
        response: { 200: summaryJsonSchema(settings), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const auth = requireKey(request);
      const v = new Violations();
      const params = parseSummaryQuery(request.query as RawQuery, v);
      const query = readSummaryRequest(params, v, auth.partnerId, context.now(), settings);
      const summary = await summaries.summarize(query);
      reply.header('Cache-Control', 'private, no-store');
      return reply.type('application/json; charset=utf-8').send({ statusCode: 200, ...summary, thirdParties: auth.thirdParties });
    },
  );
}
