// Building the page from data without ever parsing data as HTML: strings become text nodes, attributes are set one
// by one. Vhost names, paths, user agents and referrers come from whoever sends requests through the proxy, so no
// API value may reach innerHTML (and the Content-Security-Policy forbids inline scripts and styles anyway).

/** Properties set on the element itself rather than as attributes: their live state, not their default. */
const PROPERTIES = new Set(['value', 'checked', 'selected', 'indeterminate']);

/**
 * Creates an element. props: attributes (false/null/undefined left out, true as an empty attribute), 'class',
 * 'on<event>' listeners, and the live properties above. children: nodes, strings, numbers, arrays, null.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

/** The same for SVG elements (sparklines). */
export function svg(tag, props, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setProps(el, props);
  append(el, children);
  return el;
}

function setProps(el, props) {
  if (!props) {
    return;
  }
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (PROPERTIES.has(key)) {
      el[key] = value;
    } else if (key === 'class') {
      el.setAttribute('class', value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

/** Appends children: a string or number becomes a text node, never markup. */
export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A table with a caption, a header row and one row per item, each cell built by its column's function. */
export function table(caption, columns, rows, rowProps) {
  return h('table', null,
    caption ? h('caption', null, caption) : null,
    h('thead', null, h('tr', null, columns.map(c => h('th', { scope: 'col', class: c.class }, c.label)))),
    h('tbody', null, rows.map(row => h('tr', rowProps ? rowProps(row) : null,
      columns.map(c => h('td', { class: c.class, 'data-label': c.label }, c.cell(row)))))));
}

/** A definition list of [term, description] pairs; a null description is left out. */
export function facts(pairs, props) {
  return h('dl', { class: 'facts', ...props },
    pairs.filter(([, value]) => value !== null && value !== undefined)
      .map(([term, value]) => h('div', null, h('dt', null, term), h('dd', null, value))));
}
