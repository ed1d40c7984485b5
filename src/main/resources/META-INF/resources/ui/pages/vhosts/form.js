// The vhost form, built from the field list in fields.js: each field becomes a labelled control with its help and an
// error line, read back into the JSON the API takes, filled from the JSON a GET returns, and shown the API's
// errors[] beside the control whose JSON path they name (upstreams[0].url, cache.maxSize). Values are not checked
// here: the server is the one validator, and a text where a number belongs is sent as text so it says why.

import { h, replace } from '../../dom.js';

let serial = 0;
const nextId = () => `f${++serial}`;

/** The form of sections (see fields.js): {el, read(), fill(vhost), showErrors(errors), clearErrors()}. */
export function vhostForm(sections) {
  const controls = [];
  const el = h('div', { class: 'vhost-form' }, sections.map(s => {
    const inner = s.fields.map(field => {
      const control = build(field);
      controls.push(control);
      return control.el;
    });
    return h('details', { class: 'section', open: s.open }, h('summary', null, s.section), inner);
  }));
  const root = objectOf(controls);
  // Marks every control with its JSON path (data-path) from the start, not only once errors arrive.
  root.entries('', []);
  return {
    el,
    /** {value, problems}: problems are what could not be turned into JSON ({field, reason}), e.g. a map line. */
    read() {
      const problems = [];
      const value = root.read(problems) || {};
      return { value, problems };
    },
    fill(vhost) {
      root.fill(vhost || {});
    },
    /** Shows each error beside its field; returns those no field of the form matches. */
    showErrors(errors) {
      const entries = [];
      root.entries('', entries);
      const unmatched = [];
      for (const error of errors) {
        const entry = nearest(entries, error.field || '');
        if (!entry) {
          unmatched.push(error);
          continue;
        }
        entry.error.append(h('span', null, error.reason));
        entry.input.setAttribute('aria-invalid', 'true');
        for (let d = entry.input.closest('details'); d; d = d.parentElement.closest('details')) {
          d.open = true;
        }
      }
      return unmatched;
    },
    clearErrors() {
      el.querySelectorAll('.field-error').forEach(e => e.replaceChildren());
      el.querySelectorAll('[aria-invalid]').forEach(e => e.removeAttribute('aria-invalid'));
    },
    /** The input for a JSON path, to move the focus to from an error summary. */
    inputFor(field) {
      const entries = [];
      root.entries('', entries);
      const entry = nearest(entries, field);
      return entry && entry.input;
    },
  };
}

/** The entry whose path is the field's, or the longest one the field lies under (hostnames for hostnames[2]). */
function nearest(entries, field) {
  let best = null;
  for (const entry of entries) {
    const under = field === entry.path || field.startsWith(`${entry.path}.`) || field.startsWith(`${entry.path}[`);
    if (under && (!best || entry.path.length > best.path.length)) {
      best = entry;
    }
  }
  return best;
}

function build(field) {
  if (field.type === 'group') {
    return group(field);
  }
  if (field.type === 'rows') {
    return rows(field);
  }
  return scalar(field);
}

/** An object whose keys are the controls' fields: undefined values are left out, an empty object is undefined. */
function objectOf(controls) {
  return {
    read(problems, prefix = '') {
      const out = {};
      for (const c of controls) {
        const value = c.read(problems, join(prefix, c.key));
        if (value !== undefined) {
          out[c.key] = value;
        }
      }
      return Object.keys(out).length ? out : undefined;
    },
    fill(value) {
      controls.forEach(c => c.fill(value ? value[c.key] : undefined));
    },
    entries(prefix, out) {
      controls.forEach(c => c.entries(join(prefix, c.key), out));
    },
  };
}

const join = (prefix, key) => prefix ? `${prefix}.${key}` : key;

function scalar(field) {
  const id = nextId();
  const describedBy = [field.help ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(' ');
  const common = { id, 'data-key': field.key, 'aria-describedby': describedBy, required: field.required };
  let input;
  if (field.type === 'bool') {
    input = h('input', { ...common, type: 'checkbox', checked: !!field.default });
  } else if (field.type === 'select') {
    input = h('select', common,
      h('option', { value: '' }, field.placeholder ? `default (${field.placeholder})` : 'not set'),
      field.options.map(o => h('option', { value: o }, o)));
  } else if (['list', 'map', 'textarea', 'json'].includes(field.type)) {
    input = h('textarea', { ...common, rows: field.type === 'list' || field.type === 'map' ? 2 : field.rows || 4,
      placeholder: field.placeholder, spellcheck: 'false', class: field.type === 'json' ? 'code' : null });
  } else {
    input = h('input', { ...common, type: 'text', placeholder: field.placeholder, spellcheck: 'false',
      inputmode: field.type === 'int' ? 'numeric' : field.type === 'number' ? 'decimal' : null,
      autocomplete: 'off' });
  }
  const label = h('label', { for: id }, field.label, field.required ? h('span', { class: 'required' }, ' (required)') : null);
  const help = field.help ? h('p', { class: 'help', id: `${id}-help` }, field.help) : null;
  const error = h('p', { class: 'field-error', id: `${id}-error` });
  const el = field.type === 'bool'
    ? h('div', { class: 'field check' }, input, label, help, error)
    : h('div', { class: 'field' }, label, help, input, error);
  return {
    key: field.key,
    el,
    read(problems, path) {
      return readValue(field, input, problems, path);
    },
    fill(value) {
      if (field.type === 'bool') {
        input.checked = value === undefined || value === null ? !!field.default : !!value;
      } else if (field.type === 'list') {
        input.value = Array.isArray(value) ? value.join('\n') : '';
      } else if (field.type === 'map') {
        input.value = value ? Object.entries(value).map(([k, v]) => `${k}: ${v}`).join('\n') : '';
      } else if (field.type === 'json') {
        input.value = value === undefined || value === null || (Array.isArray(value) && !value.length) ? ''
          : JSON.stringify(value, null, 2);
      } else {
        input.value = value === undefined || value === null ? '' : String(value);
      }
    },
    entries(path, out) {
      input.setAttribute('data-path', path);
      out.push({ path, input, error });
    },
  };
}

function readValue(field, input, problems, path) {
  if (field.type === 'bool') {
    return input.checked;
  }
  const text = input.value;
  if (field.type === 'list') {
    const items = text.split('\n').map(s => s.trim()).filter(Boolean);
    return items.length ? items : undefined;
  }
  if (field.type === 'map') {
    const map = {};
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) {
        return;
      }
      const colon = line.indexOf(':');
      if (colon <= 0) {
        problems.push({ field: path, reason: `line ${i + 1} is not Name: value` });
        return;
      }
      map[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    });
    return Object.keys(map).length ? map : undefined;
  }
  if (field.type === 'json') {
    // A block too rich for form fields (routes) is edited as the JSON the API takes.
    if (!text.trim()) {
      return undefined;
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      problems.push({ field: path, reason: `is not valid JSON: ${e.message}` });
      return undefined;
    }
  }
  const trimmed = field.type === 'textarea' ? text : text.trim();
  if (trimmed === '') {
    return undefined;
  }
  if (field.type === 'int' && /^-?\d+$/.test(trimmed)) {
    return Number(trimmed);
  }
  if (field.type === 'number' && /^-?\d+(\.\d+)?$/.test(trimmed)) {
    return Number(trimmed);
  }
  return trimmed;
}

function group(field) {
  const controls = field.fields.map(build);
  const inner = objectOf(controls);
  const body = h('div', { class: 'group-body' }, controls.map(c => c.el));
  const id = nextId();
  const toggle = field.optional ? h('input', { type: 'checkbox', id, 'aria-controls': `${id}-body` }) : null;
  body.id = `${id}-body`;
  const error = h('p', { class: 'field-error', id: `${id}-error` });
  const el = h('fieldset', { class: 'group', 'data-key': field.key },
    h('legend', null, toggle ? [toggle, h('label', { for: id }, field.label)] : field.label),
    field.help ? h('p', { class: 'help' }, field.help) : null,
    error, body);
  const sync = () => {
    body.hidden = toggle ? !toggle.checked : false;
  };
  if (toggle) {
    toggle.addEventListener('change', sync);
  }
  sync();
  return {
    key: field.key,
    el,
    read(problems, path) {
      if (toggle && !toggle.checked) {
        return undefined;
      }
      const value = inner.read(problems, path);
      // A switched-on optional group with nothing filled in is {}: on, with every default.
      return value === undefined && toggle ? {} : value;
    },
    fill(value) {
      if (toggle) {
        toggle.checked = value !== undefined && value !== null;
        sync();
      }
      inner.fill(value || undefined);
    },
    entries(path, out) {
      out.push({ path, input: toggle || el, error });
      inner.entries(path, out);
    },
  };
}

function rows(field) {
  // This list's JSON path, known once the form has marked its paths; rows added later are marked with it.
  let path = null;
  const list = h('div', { class: 'rows' });
  const items = [];
  const error = h('p', { class: 'field-error', id: `${nextId()}-error` });
  const add = h('button', { type: 'button', class: 'add-row' }, `Add ${field.item.toLowerCase()}`);
  const el = h('fieldset', { class: 'group rows-group', 'data-key': field.key },
    h('legend', null, field.label),
    field.help ? h('p', { class: 'help' }, field.help) : null,
    error, list, add);

  function addRow(value) {
    const controls = field.fields.map(build);
    const inner = objectOf(controls);
    const legend = h('legend');
    const remove = h('button', { type: 'button', class: 'quiet remove-row' }, 'Remove');
    const item = { inner, legend, remove, el: h('fieldset', { class: 'row' }, legend, controls.map(c => c.el), remove) };
    remove.addEventListener('click', () => {
      items.splice(items.indexOf(item), 1);
      item.el.remove();
      relabel();
      add.focus();
    });
    items.push(item);
    list.append(item.el);
    inner.fill(value);
    relabel();
    if (path) {
      inner.entries(`${path}[${items.length - 1}]`, []);
    }
    return item;
  }

  function relabel() {
    items.forEach((item, i) => {
      const name = `${field.item} ${i + 1}`;
      item.legend.textContent = name;
      item.remove.setAttribute('aria-label', `Remove ${name.toLowerCase()}`);
      if (path) {
        item.inner.entries(`${path}[${i}]`, []);
      }
    });
  }

  add.addEventListener('click', () => {
    const item = addRow(undefined);
    const first = item.el.querySelector('input, select, textarea');
    if (first) {
      first.focus();
    }
  });

  return {
    key: field.key,
    el,
    read(problems, path) {
      const values = items.map((item, i) => item.inner.read(problems, `${path}[${i}]`) || {});
      return values.length ? values : undefined;
    },
    fill(value) {
      items.length = 0;
      replace(list);
      (Array.isArray(value) ? value : []).forEach(v => addRow(v));
      if (items.length < (field.min || 0)) {
        addRow(undefined);
      }
    },
    entries(own, out) {
      path = own;
      out.push({ path: own, input: add, error });
      items.forEach((item, i) => item.inner.entries(`${own}[${i}]`, out));
    },
  };
}
