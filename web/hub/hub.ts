// The partner hub (web/README.md, "The hub"): a partner signs in with its key and sees its clicks,
// bookings and commissions for a period, from GET /v1/reporting/summary (aggregated in the
// database, not here), downloads the period's transactions as CSV, and copies the map's embed
// snippet. The key lives in session storage and travels only in the X-API-KEY header.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { Figures, PartnerSummary } from '../../src/reporting/partner-summary.ts';
import { ApiFailure, escapeHtml, formatCount, formatMoney, getJson } from '../shared/api.ts';
import './hub.css';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

// The summary's own types (type-only imports: nothing of the server reaches the bundle).
type Summary = PartnerSummary & { thirdParties: string[] };

const KEY_ITEM = 'staygate.hub.key';
const CSV_PAGE = 500;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

// A key passed as /hub#key=... (a fragment never reaches a server or its logs) is kept for this
// tab and removed from the address bar at once.
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('key')) {
  sessionStorage.setItem(KEY_ITEM, fragment.get('key')!);
  history.replaceState(null, '', location.pathname + location.search);
}

const keyOf = () => sessionStorage.getItem(KEY_ITEM);
const api = <T>(url: string) => getJson<T>(url, { headers: { 'X-API-KEY': keyOf() ?? '' }, cache: 'no-store' });

function showSignIn(message = ''): void {
  $('dashboard').hidden = true;
  $('signout').hidden = true;
  $('who').textContent = '';
  $('signin').hidden = false;
  $('signin-error').textContent = message;
}

$('signin').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('key');
  sessionStorage.setItem(KEY_ITEM, input.value.trim());
  input.value = '';
  void load();
});
$('signout').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_ITEM);
  showSignIn();
});
$('range').addEventListener('submit', (event) => {
  event.preventDefault();
  void load($<HTMLInputElement>('start').value, $<HTMLInputElement>('end').value);
});

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const usd = (text: string) => formatMoney(Number(text), 'USD', 2);

function kpis(s: Summary): void {
  const t = s.totals;
  const tiles: [string, string, string?][] = [
    ['Commission', usd(t.commission), `${usd(t.commissionByStatus.Approved)} approved · ${usd(t.commissionByStatus.Pending)} pending`],
    ['Clicks', formatCount(t.clicks)],
    ['Bookings', formatCount(t.bookings), `${formatCount(t.bookingsByStatus.Canceled)} canceled`],
    ['Conversion', pct(t.conversion), 'bookings per click'],
  ];
  $('kpis').innerHTML = tiles
    .map(
      ([label, value, note]) =>
        `<div class="card kpi"><span class="label">${escapeHtml(label)}</span>` +
        `<strong class="value">${escapeHtml(value)}</strong>${note ? `<span class="note">${escapeHtml(note)}</span>` : ''}</div>`,
    )
    .join('');
}

function table(id: string, head: string[], rows: string[][], numeric: boolean[]): void {
  $(id).innerHTML =
    rows.length === 0
      ? '<p class="empty">Nothing in this period.</p>'
      : `<table><thead><tr>${head.map((h, i) => `<th${numeric[i] ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
        `<tbody>${rows.map((r) => `<tr>${r.map((c, i) => `<td${numeric[i] ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const breakdown = (name: string) => [name, 'Clicks', 'Bookings', 'Conversion', 'Commission'];
const breakdownRow = (label: string, f: Figures) => [
  label,
  formatCount(f.clicks),
  formatCount(f.bookings),
  pct(f.conversion),
  usd(f.commission),
];
const NUMERIC = [false, true, true, true, true];

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en', { month: 'short', year: '2-digit', timeZone: 'UTC' });
let charts: Chart[] = [];

function drawCharts(s: Summary): void {
  for (const chart of charts) chart.destroy();
  const labels = s.months.map((m) => monthLabel(m.month));
  const common = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    interaction: { mode: 'index' as const, intersect: false },
  };
  charts = [
    new Chart($<HTMLCanvasElement>('commission-chart'), {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            type: 'bar',
            label: 'Approved',
            data: s.months.map((m) => Number(m.commissionByStatus.Approved)),
            backgroundColor: '#1a7f37',
            stack: 'usd',
            yAxisID: 'y',
          },
          {
            type: 'bar',
            label: 'Pending',
            data: s.months.map((m) => Number(m.commissionByStatus.Pending)),
            backgroundColor: '#e3a008',
            stack: 'usd',
            yAxisID: 'y',
          },
          // A canceled booking earns nothing: its bar would be empty, so its bookings are counted instead.
          {
            type: 'line',
            label: 'Canceled bookings',
            data: s.months.map((m) => m.bookingsByStatus.Canceled),
            borderColor: '#d1242f',
            backgroundColor: '#d1242f',
            yAxisID: 'y2',
            pointRadius: 3,
          },
        ],
      },
      options: {
        ...common,
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: 'USD' } },
          y2: {
            position: 'right',
            beginAtZero: true,
            grid: { drawOnChartArea: false },
            ticks: { precision: 0 },
            title: { display: true, text: 'canceled' },
          },
        },
      },
    }),
    new Chart($<HTMLCanvasElement>('traffic-chart'), {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { type: 'bar', label: 'Clicks', data: s.months.map((m) => m.clicks), backgroundColor: '#0b6bcb', yAxisID: 'y' },
          { type: 'bar', label: 'Bookings', data: s.months.map((m) => m.bookings), backgroundColor: '#8250df', yAxisID: 'y' },
          {
            type: 'line',
            label: 'Conversion %',
            data: s.months.map((m) => (m.conversion === null ? null : m.conversion * 100)),
            borderColor: '#bf5700',
            backgroundColor: '#bf5700',
            yAxisID: 'y2',
            pointRadius: 3,
            spanGaps: true,
          },
        ],
      },
      options: {
        ...common,
        scales: {
          y: { beginAtZero: true, ticks: { precision: 0 } },
          y2: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: '%' } },
        },
      },
    }),
  ];
}

/** The partner's map tokens, each with its searches in the period, in all and by month (those with any). */
function mapTokens(s: Summary): void {
  table(
    'map-tokens',
    ['Token', 'Sites', 'Created', 'Status', 'Searches', 'By month'],
    s.mapTokens.map((t) => [
      t.token,
      t.origins.map((o) => (o === 'self' ? 'this gateway' : o)).join(', '),
      t.createdAt.slice(0, 10),
      t.status === 'active' ? 'active' : `revoked ${t.revokedAt?.slice(0, 10) ?? ''}`,
      formatCount(t.searches),
      t.months
        .filter((m) => m.searches > 0)
        .map((m) => `${monthLabel(m.month)}: ${formatCount(m.searches)}`)
        .join(' · ') || '–',
    ]),
    [false, false, false, false, true, false],
  );
  if (s.mapTokens.length === 0) $('map-tokens').innerHTML = '<p class="empty">You have no map token yet (see below).</p>';
}

/**
 * The embed snippet carries the partner's newest active map token (docs/decisions.md 101): the map
 * searches with it, and its aid is in every booking link. Without one, the hub says how to get one:
 * tokens are made by the operator (decision 91), with the id of the key signed in.
 */
function snippet(s: Summary): void {
  const token = s.mapTokens.filter((t) => t.status === 'active').at(-1);
  const copy = $<HTMLButtonElement>('copy');
  if (token === undefined) {
    const keyId = /^sg_([0-9a-f]{16})_/.exec(keyOf() ?? '')?.[1] ?? '<key id>';
    $('snippet-note').textContent =
      "You have no active map token, and the map needs one to search for your site's travellers. Ask the gateway's operator to make one for your site:";
    $('snippet').textContent = `npx staygate keys map-token --key ${keyId} --origin https://<your site>`;
    copy.hidden = true;
    return;
  }
  const src = `${location.origin}/map?token=${encodeURIComponent(token.token)}&campaign=embed&address=Paris`;
  const sites = token.origins.map((o) => (o === 'self' ? 'this gateway' : o)).join(', ');
  $('snippet-note').textContent =
    `Paste this on your site: the map searches with your map token, which works on ${sites}, and every booking made through it carries your affiliate id.`;
  $('snippet').textContent = `<iframe src="${src}" width="100%" height="520" style="border:0" loading="lazy" title="Stays map"></iframe>`;
  copy.hidden = false;
}

function render(s: Summary): void {
  $('signin').hidden = true;
  $('dashboard').hidden = false;
  $('signout').hidden = false;
  $('who').textContent = `${s.partnerId} · aid ${s.aids.join(', ')}`;
  $<HTMLInputElement>('start').value = s.startDate;
  $<HTMLInputElement>('end').value = s.endDate;
  const platform = $<HTMLSelectElement>('platform');
  platform.innerHTML = s.thirdParties.map((p) => `<option>${escapeHtml(p)}</option>`).join('');
  $<HTMLButtonElement>('csv').disabled = s.thirdParties.length === 0;
  $<HTMLButtonElement>('csv').title = s.thirdParties.length === 0 ? 'No platform is registered for this key' : '';
  kpis(s);
  drawCharts(s);
  table(
    'campaigns',
    breakdown('Campaign'),
    s.campaigns.map((c) => breakdownRow(c.campaign || '(none)', c)),
    NUMERIC,
  );
  table(
    'devices',
    breakdown('Device'),
    s.devices.map((d) => breakdownRow(d.device, d)),
    NUMERIC,
  );
  table(
    'suppliers',
    breakdown('Supplier'),
    s.suppliers.map((d) => breakdownRow(d.supplier, d)),
    NUMERIC,
  );
  table(
    'latest',
    ['Booked', 'Status', 'Stay', 'Destination', 'Campaign', 'Device', 'Commission'],
    s.latest.map((r) => [
      r.bookedDate.slice(0, 10),
      r.bookingStatus,
      r.information,
      r.destination,
      r.campaignId || '(none)',
      r.device,
      usd(r.commission),
    ]),
    [false, false, false, false, false, false, true],
  );
  mapTokens(s);
  snippet(s);
  document.body.dataset.loaded = 'true';
}

async function load(startDate?: string, endDate?: string): Promise<void> {
  if (!keyOf()) return showSignIn();
  $('error').textContent = '';
  const q = new URLSearchParams();
  if (startDate) q.set('startDate', startDate);
  if (endDate) q.set('endDate', endDate);
  try {
    render(await api<Summary>(`/v1/reporting/summary?${q}`));
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401) {
      sessionStorage.removeItem(KEY_ITEM);
      return showSignIn('That key is not valid (or has been revoked).');
    }
    $('error').textContent = error instanceof ApiFailure ? error.message : 'The gateway could not be reached.';
  }
}

// The CSV of the period, every page, fetched with the key in its header and saved from memory.
$('csv').addEventListener('click', async () => {
  const button = $<HTMLButtonElement>('csv');
  button.disabled = true;
  try {
    let csv = '';
    for (let page = 0; ; page++) {
      const q = new URLSearchParams({
        thirdParty: $<HTMLSelectElement>('platform').value,
        startDate: $<HTMLInputElement>('start').value,
        endDate: $<HTMLInputElement>('end').value,
        dateFilter: 'bookedDate',
        format: 'csv',
        limit: String(CSV_PAGE),
        page: String(page),
      });
      const response = await fetch(`/v1/reporting/transactions?${q}`, { headers: { 'X-API-KEY': keyOf() ?? '' }, cache: 'no-store' });
      if (!response.ok) throw new Error(((await response.json()) as { message: string }).message);
      const text = await response.text();
      const lines = text.split('\r\n').filter((l) => l !== '');
      csv += page === 0 ? text : `${lines.slice(1).join('\r\n')}\r\n`;
      if (lines.length - 1 < CSV_PAGE) break;
    }
    const link = Object.assign(document.createElement('a'), {
      href: URL.createObjectURL(new Blob([csv], { type: 'text/csv' })),
      download: `transactions-${$<HTMLInputElement>('start').value}-${$<HTMLInputElement>('end').value}.csv`,
    });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } catch (error) {
    $('error').textContent = `The CSV could not be made: ${(error as Error).message}`;
  } finally {
    button.disabled = false;
  }
});

$('copy').addEventListener('click', () => void navigator.clipboard?.writeText($('snippet').textContent ?? ''));

void load();
