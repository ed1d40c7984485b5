// Create or edit a vhost: the form of every field, or the same vhost as JSON for power users. Errors from the API
// appear beside the field they name and in a summary at the top; an edit is sent with If-Match, so a vhost someone
// else changed meanwhile is reported as a conflict instead of being overwritten.

import { h, replace } from '../../dom.js';
import { call, path } from '../../api.js';
import { confirmAction } from '../../dialog.js';
import { SECTIONS } from './fields.js';
import { vhostForm } from './form.js';

export const title = 'Vhost';

export async function mount(root, ctx) {
  const id = ctx.params.id;
  let etag = null;
  let current = null;
  let mode = 'form';

  const form = vhostForm(SECTIONS);
  const summary = h('div', { class: 'error-summary', id: 'error-summary', tabindex: '-1', hidden: true });
  const json = h('textarea', { id: 'vhost-json', class: 'code', rows: 24, spellcheck: 'false',
    'aria-describedby': 'vhost-json-help vhost-json-error' });
  const jsonError = h('p', { class: 'field-error', id: 'vhost-json-error' });
  const jsonView = h('div', { class: 'field', hidden: true },
    h('label', { for: 'vhost-json' }, 'The vhost as JSON'),
    h('p', { class: 'help', id: 'vhost-json-help' },
      'Sent exactly as written. Read-only fields (id, version, createdAt, updatedAt, warnings) are ignored.'),
    json, jsonError);
  const formButton = h('button', { type: 'button', 'aria-pressed': 'true', id: 'mode-form' }, 'Form');
  const jsonButton = h('button', { type: 'button', 'aria-pressed': 'false', id: 'mode-json' }, 'JSON');
  const save = h('button', { type: 'submit', class: 'primary', id: 'save' }, id ? 'Save' : 'Create');
  const heading = h('h1', null, id ? 'Edit vhost' : 'New vhost');
  const warnings = h('div');
  const formEl = h('form', { class: 'editor', novalidate: true },
    summary, warnings,
    h('div', { class: 'segmented', role: 'group', 'aria-label': 'Edit as' }, formButton, jsonButton),
    form.el, jsonView,
    h('div', { class: 'actions sticky-actions' }, save,
      h('a', { class: 'button', href: id ? `#/vhost/${encodeURIComponent(id)}` : '#/vhosts' }, 'Cancel'),
      id ? h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete') : null));
  root.append(heading, formEl);

  if (id) {
    await load();
  } else {
    form.fill({ upstreams: [{}] });
  }

  async function load() {
    const answer = await call('GET', path`/api/v1/vhosts/${id}`, { signal: ctx.signal });
    etag = answer.etag;
    current = answer.body;
    heading.textContent = `Edit ${current.name}`;
    ctx.setTitle(`Edit ${current.name}`);
    form.fill(current);
    json.value = JSON.stringify(strip(current), null, 2);
    replace(warnings, (current.warnings || []).length === 0 ? null : h('div', { class: 'notice warning' },
      h('p', null, 'Accepted, but not working as it stands:'),
      h('ul', null, current.warnings.map(w => h('li', null, `${w.field}: ${w.reason}`)))));
  }

  formButton.addEventListener('click', () => switchTo('form'));
  jsonButton.addEventListener('click', () => switchTo('json'));

  function switchTo(next) {
    if (next === mode) {
      return;
    }
    jsonError.textContent = '';
    if (next === 'json') {
      json.value = JSON.stringify(form.read().value, null, 2);
    } else {
      let parsed;
      try {
        parsed = JSON.parse(json.value);
      } catch (e) {
        jsonError.textContent = `Not valid JSON: ${e.message}`;
        return;
      }
      form.fill(parsed);
    }
    mode = next;
    form.el.hidden = mode !== 'form';
    jsonView.hidden = mode !== 'json';
    formButton.setAttribute('aria-pressed', String(mode === 'form'));
    jsonButton.setAttribute('aria-pressed', String(mode === 'json'));
  }

  formEl.addEventListener('submit', async event => {
    event.preventDefault();
    clearErrors();
    let text;
    if (mode === 'json') {
      try {
        JSON.parse(json.value);
      } catch (e) {
        jsonError.textContent = `Not valid JSON: ${e.message}`;
        json.focus();
        return;
      }
      text = json.value;
    } else {
      const { value, problems } = form.read();
      if (problems.length) {
        showErrors('The vhost was not saved', problems);
        return;
      }
      text = JSON.stringify(value);
    }
    await send(text, etag);
  });

  async function send(text, ifMatch) {
    save.disabled = true;
    try {
      const answer = id
        ? await call('PUT', path`/api/v1/vhosts/${id}`, { text, ifMatch })
        : await call('POST', '/api/v1/vhosts', { text });
      if (!id) {
        ctx.notify(`${answer.body.name} is created and serving.`, 'success', true);
        ctx.navigate(`#/vhost/${encodeURIComponent(answer.body.id)}`);
        return;
      }
      etag = answer.etag;
      current = answer.body;
      form.fill(current);
      json.value = JSON.stringify(strip(current), null, 2);
      ctx.notify(`Saved: ${current.name} is at version ${current.version}.`, 'success');
    } catch (e) {
      if (e.status === 412) {
        await conflict(text);
      } else if (e.fieldErrors.length) {
        showErrors('The vhost was not saved', e.fieldErrors, e.summary);
      } else {
        showErrors('The vhost was not saved', [], e.summary);
      }
    } finally {
      save.disabled = false;
    }
  }

  function clearErrors() {
    form.clearErrors();
    jsonError.textContent = '';
    summary.hidden = true;
    summary.replaceChildren();
  }

  /** The summary at the top; in the form each error also stands beside its field. */
  function showErrors(heading, errors, detail) {
    const unplaced = mode === 'form' ? form.showErrors(errors) : errors;
    const placed = errors.filter(e => !unplaced.includes(e));
    replace(summary,
      h('h2', null, heading),
      detail && errors.length === 0 ? h('p', null, detail) : null,
      errors.length ? h('ul', null,
        placed.map(e => h('li', null, h('button', { type: 'button', class: 'link',
          onclick: () => focusField(e.field) }, `${e.field}: ${e.reason}`))),
        unplaced.map(e => h('li', null, e.field ? `${e.field}: ${e.reason}` : e.reason))) : null);
    summary.hidden = false;
    summary.focus();
  }

  function focusField(field) {
    const input = form.inputFor(field);
    if (input) {
      input.focus();
    }
  }

  async function conflict(text) {
    let now = null;
    try {
      now = await call('GET', path`/api/v1/vhosts/${id}`);
    } catch (e) {
      // Deleted meanwhile, or the server is away: the message below still holds.
    }
    const mine = current ? current.version : '?';
    const outcome = text === null ? 'It was not deleted.' : 'Your changes are not saved.';
    const loadTheirs = h('button', { type: 'button', onclick: () => { clearErrors(); reload(); } },
      'Load their version (drop my changes)');
    // A refused deletion (text null) is not repeated blindly: the user looks at their version first.
    const overwrite = now && text !== null ? h('button', { type: 'button', class: 'danger',
      onclick: () => { clearErrors(); send(text, now.etag); } }, 'Save mine over theirs') : null;
    replace(summary,
      h('h2', null, 'Conflict: someone else changed this vhost'),
      h('p', { id: 'conflict-message' }, now
        ? `You started from version ${mine}, but it is now at version ${now.body.version}` +
          `${now.body.updatedAt ? ` (changed ${new Date(now.body.updatedAt).toLocaleString('en-GB')})` : ''}. ` +
          outcome
        : `You started from version ${mine}, but it has been deleted or changed since. ${outcome}`),
      h('div', { class: 'actions' }, loadTheirs, overwrite));
    summary.hidden = false;
    summary.focus();
  }

  async function reload() {
    try {
      await load();
      ctx.notify('Loaded the current version.', 'info');
    } catch (e) {
      showErrors('The vhost could not be loaded', [], e.summary);
    }
  }

  async function remove() {
    const name = current ? current.name : 'this vhost';
    if (!await confirmAction(`Delete ${name}?`, 'Its host names stop being served at once, and its analytics are ' +
      'deleted.', 'Delete')) {
      return;
    }
    try {
      await call('DELETE', path`/api/v1/vhosts/${id}`, { ifMatch: etag });
      ctx.notify(`${name} is deleted.`, 'success', true);
      ctx.navigate('#/vhosts');
    } catch (e) {
      if (e.status === 412) {
        await conflict(null);
      } else {
        showErrors('The vhost was not deleted', [], e.summary);
      }
    }
  }
}

/** The vhost without the fields only a GET has, for the JSON view. */
function strip(vhost) {
  const { id, version, createdAt, updatedAt, warnings, ...definition } = vhost;
  return definition;
}
