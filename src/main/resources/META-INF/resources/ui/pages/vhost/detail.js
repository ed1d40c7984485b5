// One vhost, live: its numbers now and charts of the last minutes from the stats stream, its upstreams and its cache.

import { facts, h } from '../../dom.js';
import { call, path } from '../../api.js';
import * as live from '../../live.js';
import * as format from '../../format.js';
import { liveCharts } from './charts.js';
import { upstreamsPanel } from './upstreams.js';
import { cachePanel } from './cache.js';

export const title = 'Vhost';

const NOW = [
  ['live-rps', 'Requests/s', m => format.decimal(m.rps, 1)],
  ['live-in-flight', 'In flight', m => format.count(m.inFlight)],
  ['live-p99', 'p99 latency', m => format.ms(m.latency && m.latency.p99)],
  ['live-errors', '5xx rate', m => format.percent(m.errorRatio)],
  ['live-hits', 'Cache hit ratio', m => format.percent(m.hitRatio)],
  ['live-requests', 'Requests since start', m => format.count(m.requests)],
];

export async function mount(root, ctx) {
  const { body: vhost } = await call('GET', path`/api/v1/vhosts/${ctx.params.id}`, { signal: ctx.signal });
  ctx.setTitle(vhost.name);
  const id = encodeURIComponent(vhost.id);
  const values = new Map(NOW.map(([key]) => [key, h('span', { id: key }, '–')]));
  const charts = liveCharts(vhost.name);
  const upstreams = h('section', { 'aria-labelledby': 'upstreams-title' }, h('h2', { id: 'upstreams-title' }, 'Upstreams'));
  const cache = h('section', { 'aria-labelledby': 'cache-title' }, h('h2', { id: 'cache-title' }, 'Cache'));

  root.append(
    h('div', { class: 'page-head' },
      h('h1', null, vhost.name, vhost.enabled ? null : h('span', { class: 'badge off' }, 'disabled')),
      h('div', { class: 'actions' },
        h('a', { class: 'button', href: `#/vhosts/${id}/edit` }, 'Edit'),
        h('a', { class: 'button', href: `#/analytics/${id}` }, 'Analytics'))),
    h('p', { class: 'lead' }, `Serves ${vhost.hostnames.join(', ')}`,
      vhost.static ? ` from ${vhost.static.root}` : null,
      vhost.upstreams && vhost.upstreams.length ? ` via ${vhost.upstreams.map(u => u.url).join(', ')}` : null, '.'),
    h('section', { 'aria-labelledby': 'live-title' },
      h('h2', { id: 'live-title' }, 'Live'),
      facts(NOW.map(([key, label]) => [label, values.get(key)]), { class: 'facts big', 'aria-live': 'off' }),
      charts.el),
    upstreams,
    cache);

  function draw() {
    const points = live.history();
    const latest = points.length ? points[points.length - 1].vhosts[vhost.name] : null;
    for (const [key, , value] of NOW) {
      values.get(key).textContent = latest ? value(latest) : '–';
    }
    charts.update(points);
  }
  draw();
  const unsubscribe = live.subscribe(draw);
  ctx.signal.addEventListener('abort', unsubscribe);

  await Promise.all([
    upstreamsPanel(upstreams, vhost.id, vhost.name, ctx.signal),
    cachePanel(cache, vhost.id, ctx.signal),
  ]);
}
