// The upstream table of one vhost (GET /api/v1/vhosts/{id}/upstreams): state, why, weight now, traffic and the
// circuit breaker. Read again at once when the stream announces an upstream or circuit transition of this vhost,
// and every few seconds for the counters.

import { facts, h, replace, table } from '../../dom.js';
import { get, path } from '../../api.js';
import * as live from '../../live.js';
import * as format from '../../format.js';
import { every } from '../../poll.js';

const REFRESH_MS = 5000;
const KEEP_TRANSITIONS = 10;

export function upstreamsPanel(section, id, name, signal) {
  const body = h('div', { id: 'upstreams' });
  const breaker = h('div', { id: 'circuit-breaker' });
  const changes = h('ol', { class: 'transitions', 'aria-live': 'polite' }, h('li', { class: 'none' }, 'None yet.'));
  section.append(body, h('h3', null, 'Circuit breaker'), breaker,
    h('h3', null, 'Changes seen since this page opened'), changes);
  const refresh = every(REFRESH_MS, signal,
    async () => render(await get(path`/api/v1/vhosts/${id}/upstreams`, { signal })),
    e => replace(body, h('p', { class: 'error' }, e.summary || e.message)));

  function render(view) {
    replace(body, view.upstreams.length === 0 ? h('p', null, 'No upstreams: this vhost serves files only.')
      : h('div', { class: 'table-scroll' }, table('Upstreams as this instance sees them', [
        { label: 'Upstream', cell: u => u.url },
        { label: 'State', cell: u => h('span', { class: `badge state-${u.state}` }, u.state) },
        { label: 'Since', cell: u => format.ago(u.since) },
        { label: 'Why', cell: u => u.reason || '–' },
        { label: 'Weight now', class: 'num', cell: u => `${format.decimal(u.weightNow, 2)} of ${u.weight}` },
        { label: 'In flight', class: 'num', cell: u => format.count(u.inFlight) },
        { label: 'Requests', class: 'num', cell: u => format.count(u.requests) },
        { label: 'Failures', class: 'num', cell: u => format.count(u.failures) },
        { label: 'Ejections', class: 'num', cell: u => format.count(u.ejections) },
        { label: 'Overloaded', class: 'num', cell: u => format.count(u.overloaded) },
        { label: 'Last check', class: 'num', cell: u => u.lastCheckLatencyMillis === null ? '–'
          : format.ms(u.lastCheckLatencyMillis) },
      ], view.upstreams, u => ({ 'data-upstream': u.url }))));
    const b = view.circuitBreaker;
    replace(breaker, b ? facts([
      ['State', h('span', { class: `badge state-${b.state}` }, b.state)],
      ['Since', format.time(b.since)],
      ['Why', b.reason || '–'],
      ['Times opened', format.count(b.opens)],
    ]) : h('p', null, 'None configured.'));
  }

  const stop = live.onTransition((kind, data) => {
    if (data.vhost !== name) {
      return;
    }
    const what = kind === 'circuit' ? 'circuit breaker' : data.upstream;
    changes.querySelectorAll('.none').forEach(placeholder => placeholder.remove());
    changes.prepend(h('li', null, `${format.time(data.at)}: ${what} ${data.from} → ${data.to}`,
      data.reason ? ` (${data.reason})` : ''));
    while (changes.children.length > KEEP_TRANSITIONS) {
      changes.lastElementChild.remove();
    }
    refresh();
  });
  signal.addEventListener('abort', stop);
  return refresh();
}
