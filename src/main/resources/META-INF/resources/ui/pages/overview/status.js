// The instance's status from GET /api/v1/status, read again every few seconds: database, last reload, data plane,
// certificates about to expire, access log, upstreams. Each check says OK or Problem in words, not only in colour.

import { h, replace } from '../../dom.js';
import { get } from '../../api.js';
import * as format from '../../format.js';
import { every } from '../../poll.js';

const REFRESH_MS = 5000;

/** Fills section with the status and keeps it current until signal aborts. */
export async function statusPanel(section, signal) {
  const body = h('div', { class: 'checks' });
  const updated = h('p', { class: 'help' });
  section.append(body, updated);
  const refresh = every(REFRESH_MS, signal, async () => {
    const status = await get('/api/v1/status', { signal });
    replace(body, checks(status).map(check));
    updated.textContent = `Read at ${new Date().toLocaleTimeString('en-GB', { hour12: false })}`;
  }, e => replace(body, check({ name: 'Management API', ok: false, lines: [e.summary || e.message] })));
  await refresh();
}

function check({ name, ok, lines }) {
  return h('div', { class: `status-check ${ok ? 'ok' : 'problem'}`, 'data-check': name },
    h('h3', null, h('span', { class: 'badge' }, ok ? 'OK' : 'Problem'), ' ', name),
    h('ul', null, lines.map(line => h('li', null, line))));
}

function checks(status) {
  // Lists the server leaves out or sends as null read as empty.
  const s = { ...status };
  for (const key of ['certificateWarnings', 'vhostsWithoutHealthyUpstream', 'dnsProblems', 'staticRootWarnings']) {
    s[key] = s[key] || [];
  }
  const log = s.accessLog || { enabled: false };
  return [
    {
      name: 'Database', ok: s.databaseReachable,
      lines: [s.databaseReachable ? 'Reachable' : `Unreachable: ${s.databaseError || 'no answer'}`],
    },
    {
      name: 'Configuration', ok: !s.lastReloadError,
      lines: [
        `Version ${s.snapshotVersion} with ${s.vhostCount} vhosts, loaded ${format.time(s.snapshotBuiltAt)} ` +
        `(${format.ago(s.snapshotBuiltAt)})`,
        s.lastReloadError ? `Last reload failed ${format.time(s.lastReloadErrorAt)}: ${s.lastReloadError}. ` +
          'The previous configuration stays in service.' : null,
      ].filter(Boolean),
    },
    {
      name: 'Data plane', ok: s.dataPlaneListening,
      lines: [s.dataPlaneListening ? `Listening on port ${s.dataPlanePort}` : 'Not listening',
        `${format.count(s.inFlightRequests)} requests in flight`],
    },
    {
      name: 'Certificates', ok: s.certificateWarnings.length === 0,
      lines: s.certificateWarnings.length === 0 ? ['None expires within 14 days']
        : s.certificateWarnings.map(w => `${w.names && w.names.length ? w.names.join(', ') : w.certificate || 'TLS'}: ${w.problem}`),
    },
    {
      name: 'Access log', ok: !log.enabled || log.writable,
      lines: !log.enabled ? ['Off'] : [
        log.writable ? `Writing to ${log.path}` : `Not writable: ${log.path}`,
        log.lastError ? `Last error ${format.time(log.lastErrorAt)}: ${log.lastError}` : null,
        `${format.count(log.droppedLines)} lines dropped since start`,
      ].filter(Boolean),
    },
    {
      name: 'Upstreams', ok: s.vhostsWithoutHealthyUpstream.length === 0 && s.dnsProblems.length === 0,
      lines: [
        ...s.vhostsWithoutHealthyUpstream.map(v => `${v}: no upstream takes traffic (503 no_healthy_upstream)`),
        ...s.dnsProblems.map(d => `DNS ${d.name}: ${d.error} since ${format.time(d.since)}`),
      ].concat(s.vhostsWithoutHealthyUpstream.length || s.dnsProblems.length ? [] : ['Every vhost has an upstream taking traffic']),
    },
    {
      name: 'Static roots', ok: s.staticRootWarnings.length === 0,
      lines: s.staticRootWarnings.length === 0 ? ['Every static root can be served']
        : s.staticRootWarnings.map(w => `${w.vhost}: ${w.root} ${w.problem}`),
    },
  ];
}
