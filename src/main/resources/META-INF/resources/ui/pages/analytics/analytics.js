// Traffic analytics of one vhost over a range (last hour, 24 h, 7 d or custom): totals, the status mix, requests per
// minute, and the top paths, clients, user agents (with their class) and referrers. All of these are chosen by
// whoever sends requests, so they are written as text only, like everything else.

import { facts, h, replace, table } from '../../dom.js';
import { get, path } from '../../api.js';
import { STATUS_CLASSES } from '../../live.js';
import { STATUS_COLORS, timeChart } from '../../chart.js';
import * as format from '../../format.js';

export const title = 'Analytics';

const RANGES = [['1h', 'Last hour', 3600], ['24h', 'Last 24 hours', 86400], ['7d', 'Last 7 days', 7 * 86400],
  ['custom', 'Custom', 0]];
const TOP = 20;

export async function mount(root, ctx) {
  const vhosts = await get('/api/v1/vhosts', { signal: ctx.signal });
  root.append(h('h1', null, 'Analytics'));
  if (vhosts.length === 0) {
    root.append(h('p', null, 'No vhosts yet, so no traffic to show.'));
    return;
  }
  const chosen = vhosts.find(v => v.id === ctx.params.id);
  const range = RANGES.some(([key]) => key === ctx.query.get('range')) ? ctx.query.get('range') : '1h';

  const vhostSelect = h('select', { id: 'analytics-vhost' },
    chosen ? null : h('option', { value: '' }, 'Choose a vhost'),
    vhosts.map(v => h('option', { value: v.id, selected: chosen && v.id === chosen.id }, v.name)));
  const rangeSelect = h('select', { id: 'analytics-range' },
    RANGES.map(([key, label]) => h('option', { value: key, selected: key === range }, label)));
  const from = h('input', { type: 'datetime-local', id: 'analytics-from', value: ctx.query.get('from') || '',
    'aria-describedby': 'analytics-from-error' });
  const to = h('input', { type: 'datetime-local', id: 'analytics-to', value: ctx.query.get('to') || '',
    'aria-describedby': 'analytics-to-error' });
  const fromError = h('p', { class: 'field-error', id: 'analytics-from-error' });
  const toError = h('p', { class: 'field-error', id: 'analytics-to-error' });
  const custom = h('div', { class: 'inline-fields', hidden: range !== 'custom' },
    h('div', { class: 'field' }, h('label', { for: 'analytics-from' }, 'From (local time)'), from, fromError),
    h('div', { class: 'field' }, h('label', { for: 'analytics-to' }, 'To (local time)'), to, toError));
  const refresh = h('button', { type: 'button', id: 'analytics-refresh' }, 'Refresh');
  const form = h('form', { class: 'toolbar', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'analytics-vhost' }, 'Vhost'), vhostSelect),
    h('div', { class: 'field' }, h('label', { for: 'analytics-range' }, 'Range'), rangeSelect),
    custom,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Show'), refresh));
  const results = h('div', { id: 'analytics-results', 'aria-live': 'polite' });
  root.append(form, results);

  rangeSelect.addEventListener('change', () => {
    custom.hidden = rangeSelect.value !== 'custom';
  });
  // The choice goes into the address, so a range can be bookmarked and the back button works.
  form.addEventListener('submit', event => {
    event.preventDefault();
    if (!vhostSelect.value) {
      return;
    }
    const query = new URLSearchParams({ range: rangeSelect.value });
    if (rangeSelect.value === 'custom') {
      query.set('from', from.value);
      query.set('to', to.value);
    }
    const next = `#/analytics/${encodeURIComponent(vhostSelect.value)}?${query}`;
    if (location.hash === next) {
      load();
    } else {
      ctx.navigate(next);
    }
  });
  refresh.addEventListener('click', () => load());

  if (!chosen) {
    results.append(h('p', null, 'Choose a vhost to see its traffic.'));
    return;
  }
  ctx.setTitle(`Analytics of ${chosen.name}`);

  async function load() {
    fromError.textContent = '';
    toError.textContent = '';
    const query = new URLSearchParams({ top: String(TOP) });
    const now = Date.now();
    if (range === 'custom') {
      if (from.value) {
        query.set('from', new Date(from.value).toISOString());
      }
      if (to.value) {
        query.set('to', new Date(to.value).toISOString());
      }
    } else {
      const seconds = RANGES.find(([key]) => key === range)[2];
      query.set('from', new Date(now - seconds * 1000).toISOString());
      query.set('to', new Date(now).toISOString());
    }
    results.setAttribute('aria-busy', 'true');
    try {
      render(await get(path`/api/v1/vhosts/${chosen.id}/analytics` + `?${query}`, { signal: ctx.signal }));
    } catch (e) {
      if (e.name === 'AbortError') {
        return;
      }
      const errors = e.fieldErrors || [];
      errors.filter(f => f.field === 'from').forEach(f => { fromError.textContent = f.reason; });
      errors.filter(f => f.field === 'to').forEach(f => { toError.textContent = f.reason; });
      replace(results, h('p', { class: 'error', role: 'alert' }, e.summary));
    } finally {
      results.removeAttribute('aria-busy');
    }
  }

  function render(view) {
    const chart = timeChart({ id: 'chart-minutes', title: 'Requests per minute by status class',
      format: v => format.count(v), xRange: [Date.parse(view.from) / 1000, Date.parse(view.to) / 1000],
      series: STATUS_CLASSES.map(c => ({ label: c, color: STATUS_COLORS[c] })) });
    const series = withGaps(view.series);
    chart.update(series.map(m => Date.parse(m.minute) / 1000),
      ...STATUS_CLASSES.map(c => series.map(m => (m.status && m.status[c]) || 0)));
    const share = n => view.requests ? n / view.requests : 0;
    replace(results,
      h('p', { class: 'help' }, `From ${format.time(view.from)} to ${format.time(view.to)}. A minute shows once it ` +
        'has closed.'),
      facts([
        ['Requests', h('span', { id: 'analytics-requests' }, format.count(view.requests))],
        ['Bytes in', format.bytes(view.bytesIn)],
        ['Bytes out', format.bytes(view.bytesOut)],
        ...STATUS_CLASSES.map(c => [c, `${format.count(view.status[c] || 0)} (${format.percent(share(view.status[c] || 0))})`]),
      ], { class: 'facts big' }),
      chart.el,
      h('div', { class: 'top-grid' },
        top('top-paths', 'Top paths', 'Path', view.topPaths, share),
        top('top-clients', 'Top clients', 'Client address', view.topClients, share),
        top('top-agents', 'Top user agents', 'User agent', view.topAgents, share, true),
        top('top-referrers', 'Top referrers', 'Referrer', view.topReferrers, share)));
  }

  await load();
}

/** A top list as a table: the value (text), its class for user agents, the count and its share. */
function top(id, caption, label, items, share, withClass) {
  if (!items || items.length === 0) {
    return h('section', { id }, h('h2', null, caption), h('p', null, 'Nothing in this range.'));
  }
  const columns = [
    { label, class: 'key', cell: item => item.key === '-' && withClass ? '(none)' : item.key },
    withClass ? { label: 'Class', cell: item => h('span', { class: `badge agent-${item.class}` }, item.class) } : null,
    { label: 'Requests', class: 'num', cell: item => format.count(item.count) },
    { label: 'Share', class: 'num share', cell: item => bar(share(item.count)) },
  ].filter(Boolean);
  return h('section', { id }, h('h2', null, caption), h('div', { class: 'table-scroll' }, table(null, columns, items)));
}

function bar(ratio) {
  const fill = h('span', { class: 'bar-fill' });
  fill.style.width = `${Math.round(ratio * 100)}%`;
  return [h('span', { class: 'bar', 'aria-hidden': 'true' }, fill), ` ${format.percent(ratio)}`];
}

/** The series with a zero minute after and before each stretch without traffic, so the chart does not bridge it. */
function withGaps(series) {
  const out = [];
  const step = 60000;
  (series || []).forEach((m, i) => {
    const t = Date.parse(m.minute);
    const previous = i > 0 ? Date.parse(series[i - 1].minute) : null;
    if (previous !== null && t - previous > step) {
      out.push({ minute: new Date(previous + step).toISOString(), status: {} });
      if (t - previous > 2 * step) {
        out.push({ minute: new Date(t - step).toISOString(), status: {} });
      }
    }
    out.push(m);
  });
  return out;
}
