// The cache panel of one vhost (GET /api/v1/vhosts/{id}/cache, every two seconds): entries, memory, hit ratio,
// evictions, and a purge of everything, one path or a prefix (DELETE with ?path= or ?prefix=).

import { facts, h, replace } from '../../dom.js';
import { call, get, path } from '../../api.js';
import * as format from '../../format.js';
import { every } from '../../poll.js';

const REFRESH_MS = 2000;

export function cachePanel(section, id, signal) {
  const body = h('div', { id: 'cache-facts' });
  section.append(body, purgeForm());
  const refresh = every(REFRESH_MS, signal,
    async () => render(await get(path`/api/v1/vhosts/${id}/cache`, { signal })),
    e => replace(body, h('p', { class: 'error' }, e.summary || e.message)));

  function render(c) {
    const used = h('meter', { min: 0, max: Math.max(1, c.maxBytes), value: c.bytes, 'aria-label': 'Cache memory used' });
    replace(body,
      c.enabled ? null : h('p', { class: 'notice info' }, 'The cache is off for this vhost (Edit → Cache).'),
      facts([
        ['Entries', h('span', { id: 'cache-entries' }, format.count(c.entries))],
        ['Memory', h('span', null, used, ` ${format.bytes(c.bytes)} of ${format.bytes(c.maxBytes)}`)],
        ['Body bytes', format.bytes(c.bodyBytes)],
        ['Hit ratio', h('span', { id: 'cache-hit-ratio' }, format.percent(c.hitRatio))],
        ['Hits', format.count(c.hits)],
        ['Stale', format.count(c.stale)],
        ['Revalidated', format.count(c.revalidated)],
        ['Collapsed', format.count(c.collapsed)],
        ['Misses', format.count(c.misses)],
        ['Bypassed', format.count(c.bypassed)],
        ['Evictions', h('span', { id: 'cache-evictions' }, format.count(c.evictions))],
      ]));
  }

  function purgeForm() {
    const scopes = [['all', 'Everything'], ['path', 'One path'], ['prefix', 'A path prefix']];
    const radios = scopes.map(([value, label], i) => {
      const radio = h('input', { type: 'radio', name: 'purge-scope', id: `purge-${value}`, value, checked: i === 0 });
      return h('div', { class: 'field check' }, radio, h('label', { for: `purge-${value}` }, label));
    });
    const target = h('input', { id: 'purge-target', type: 'text', placeholder: '/img/logo.png or /img/',
      spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'purge-target-error', disabled: true });
    const error = h('p', { class: 'field-error', id: 'purge-target-error' });
    const result = h('p', { id: 'purge-result', role: 'status' });
    const button = h('button', { type: 'submit', id: 'purge' }, 'Purge');
    const form = h('form', { class: 'purge', novalidate: true },
      h('fieldset', null, h('legend', null, 'Purge'), radios,
        h('div', { class: 'field' }, h('label', { for: 'purge-target' }, 'Path or prefix'), target, error)),
      button, result);
    const scope = () => form.querySelector('input[name="purge-scope"]:checked').value;
    form.addEventListener('change', () => {
      target.disabled = scope() === 'all';
    });
    form.addEventListener('submit', async event => {
      event.preventDefault();
      error.textContent = '';
      target.removeAttribute('aria-invalid');
      result.textContent = '';
      const chosen = scope();
      const query = chosen === 'all' ? '' : `?${chosen}=${encodeURIComponent(target.value.trim())}`;
      button.disabled = true;
      try {
        const { body: purged } = await call('DELETE', path`/api/v1/vhosts/${id}/cache` + query);
        result.textContent = `Purged ${purged.purged} ${purged.purged === 1 ? 'URI' : 'URIs'}` +
          (purged.replicasNotified ? ', and told the other replicas.' : '; the other replicas could not be told.');
        refresh();
      } catch (e) {
        const mine = e.fieldErrors.filter(f => f.field === 'path' || f.field === 'prefix');
        if (mine.length) {
          error.textContent = mine.map(f => f.reason).join('; ');
          target.setAttribute('aria-invalid', 'true');
          target.focus();
        } else {
          result.textContent = `Not purged: ${e.summary}`;
        }
      } finally {
        button.disabled = false;
      }
    });
    return form;
  }

  return refresh();
}
