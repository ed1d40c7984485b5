// The vhost list: open, edit, disable or enable, and delete. Changes carry If-Match with the version the list
// showed, so acting on a vhost someone changed meanwhile is refused (412) and said, not applied to what was not seen.

import { h, replace, table } from '../../dom.js';
import { call, get, path } from '../../api.js';
import { confirmAction } from '../../dialog.js';

export const title = 'Vhosts';

export async function mount(root, ctx) {
  const body = h('div');
  root.append(
    h('div', { class: 'page-head' }, h('h1', null, 'Vhosts'),
      h('a', { class: 'button primary', href: '#/vhosts/new', id: 'new-vhost' }, 'New vhost')),
    body);

  async function load() {
    const vhosts = await get('/api/v1/vhosts', { signal: ctx.signal });
    if (vhosts.length === 0) {
      replace(body, h('p', null, 'No vhosts yet. A vhost maps host names to upstreams (or a directory); ',
        h('a', { href: '#/vhosts/new' }, 'create one'), '.'));
      return;
    }
    replace(body, h('div', { class: 'table-scroll' }, table('Every vhost, by name', [
      { label: 'Name', cell: v => h('a', { href: `#/vhost/${encodeURIComponent(v.id)}` }, v.name) },
      { label: 'Host names', cell: v => v.hostnames.join(', ') },
      { label: 'Upstreams', cell: v => upstreams(v) },
      { label: 'State', cell: v => h('span', { class: `badge ${v.enabled ? 'on' : 'off'}` },
        v.enabled ? 'enabled' : 'disabled') },
      { label: 'Version', class: 'num', cell: v => String(v.version) },
      { label: 'Actions', class: 'actions', cell: v => actions(v) },
    ], vhosts, v => ({ 'data-vhost': v.name }))));
  }

  function upstreams(v) {
    const list = v.upstreams || [];
    const parts = list.slice(0, 2).map(u => u.url);
    if (list.length > 2) {
      parts.push(`and ${list.length - 2} more`);
    }
    if (v.static) {
      parts.unshift(`files from ${v.static.root}`);
    }
    return parts.join(', ');
  }

  function actions(v) {
    return [
      h('a', { class: 'button', href: `#/vhosts/${encodeURIComponent(v.id)}/edit`,
        'aria-label': `Edit ${v.name}` }, 'Edit'),
      h('button', { type: 'button', 'aria-label': `${v.enabled ? 'Disable' : 'Enable'} ${v.name}`,
        onclick: () => toggle(v) }, v.enabled ? 'Disable' : 'Enable'),
      h('a', { class: 'button', href: `#/analytics/${encodeURIComponent(v.id)}`,
        'aria-label': `Analytics of ${v.name}` }, 'Analytics'),
      h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${v.name}`,
        onclick: () => remove(v) }, 'Delete'),
    ];
  }

  async function toggle(v) {
    // The read-only fields of a GET may be sent back; the server ignores them.
    const changed = { ...v, enabled: !v.enabled };
    await act(() => call('PUT', path`/api/v1/vhosts/${v.id}`, { json: changed, ifMatch: `"${v.version}"` }),
      `${v.name} is ${changed.enabled ? 'enabled' : 'disabled'}.`, v);
  }

  async function remove(v) {
    const sure = await confirmAction(`Delete ${v.name}?`,
      `Its host names (${v.hostnames.join(', ')}) stop being served at once, and its analytics are deleted.`,
      'Delete');
    if (sure) {
      await act(() => call('DELETE', path`/api/v1/vhosts/${v.id}`, { ifMatch: `"${v.version}"` }),
        `${v.name} is deleted.`, v);
    }
  }

  async function act(change, done, v) {
    try {
      await change();
      ctx.notify(done, 'success');
    } catch (e) {
      ctx.notify(e.status === 412
        ? `${v.name} was changed by someone else since this list was loaded, so nothing was done. ` +
          'The list now shows its current state; try again if you still want to.'
        : `${v.name}: ${e.summary}`, 'error');
    }
    await load();
  }

  await load();
}
