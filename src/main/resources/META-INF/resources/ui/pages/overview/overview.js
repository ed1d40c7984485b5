// Overview: every vhost with its live requests/s, p99 latency, 5xx rate and cache hit ratio (sparklines of the last
// minutes, a point a second from the stats stream), and the instance's status.

import { h, replace } from '../../dom.js';
import { get } from '../../api.js';
import * as live from '../../live.js';
import * as format from '../../format.js';
import { sparkline } from '../../sparkline.js';
import { statusPanel } from './status.js';

export const title = 'Overview';

const METRICS = [
  { key: 'rps', label: 'Requests/s', value: m => m.rps, format: v => format.decimal(v, 1) },
  { key: 'p99', label: 'p99 latency', value: m => m.latency && m.latency.p99, format: format.ms },
  { key: 'errors', label: '5xx rate', value: m => m.errorRatio, format: format.percent, max: 1 },
  { key: 'hits', label: 'Cache hit ratio', value: m => m.hitRatio, format: format.percent, max: 1 },
];

export async function mount(root, ctx) {
  const rows = h('tbody');
  const tableEl = h('table', { class: 'live-table' },
    h('caption', null, 'Live traffic per vhost, last five minutes'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Vhost'),
      METRICS.map(m => h('th', { scope: 'col', class: 'num' }, m.label)))),
    rows);
  const status = h('section', { 'aria-labelledby': 'status-title' }, h('h2', { id: 'status-title' }, 'Instance'));
  root.append(h('h1', null, 'Overview'),
    h('section', { 'aria-labelledby': 'traffic-title' }, h('h2', { id: 'traffic-title' }, 'Traffic'),
      h('div', { class: 'table-scroll' }, tableEl)),
    status);

  const cells = new Map();
  let known = new Set();

  async function loadVhosts() {
    const vhosts = await get('/api/v1/vhosts', { signal: ctx.signal });
    known = new Set(vhosts.map(v => v.name));
    cells.clear();
    if (vhosts.length === 0) {
      replace(rows, h('tr', null, h('td', { colspan: METRICS.length + 1 },
        'No vhosts yet. ', h('a', { href: '#/vhosts/new' }, 'Create the first one'), '.')));
      return;
    }
    replace(rows, vhosts.map(v => {
      const metrics = METRICS.map(m => {
        const value = h('span', { class: 'metric-value' });
        const spark = sparkline(`${m.label} of ${v.name}, last five minutes`, m.max);
        return { metric: m, value, spark, cell: h('td', { class: 'num', 'data-metric': m.key, 'data-label': m.label },
          value, spark.el) };
      });
      cells.set(v.name, metrics);
      return h('tr', { 'data-vhost': v.name },
        h('th', { scope: 'row' }, h('a', { href: `#/vhost/${encodeURIComponent(v.id)}` }, v.name),
          v.enabled ? null : h('span', { class: 'badge off' }, 'disabled'),
          h('span', { class: 'hostnames' }, v.hostnames.join(', '))),
        metrics.map(c => c.cell));
    }));
    draw();
  }

  function draw() {
    const points = live.history();
    for (const [name, metrics] of cells) {
      for (const { metric, value, spark } of metrics) {
        const series = points.map(p => p.vhosts[name] ? metric.value(p.vhosts[name]) : null);
        value.textContent = metric.format(series.length ? series[series.length - 1] : null);
        spark.update(series);
      }
    }
  }

  const unsubscribe = live.subscribe(point => {
    // A vhost created elsewhere shows up in the stream first: read the list again.
    if (Object.keys(point.vhosts).some(name => !known.has(name))) {
      known = new Set([...known, ...Object.keys(point.vhosts)]);
      loadVhosts().catch(() => {});
    }
    draw();
  });
  ctx.signal.addEventListener('abort', unsubscribe);

  await Promise.all([loadVhosts(), statusPanel(status, ctx.signal)]);
}
