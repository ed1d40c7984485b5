// The console's frame: the sign-in gate, the navigation and a hash router that loads each page's module on first
// use. A page is a folder under pages/ whose module exports title and mount(root, ctx); adding one is its folder and
// one line in PAGES (certificates and access policy will come that way).

import { h, replace } from './dom.js';
import * as api from './api.js';
import * as live from './live.js';

const PAGES = [
  { route: 'overview', nav: 'Overview', load: () => import('./pages/overview/overview.js') },
  { route: 'vhosts', nav: 'Vhosts', load: () => import('./pages/vhosts/list.js') },
  { route: 'vhosts/new', load: () => import('./pages/vhosts/editor.js') },
  { route: 'vhosts/:id/edit', load: () => import('./pages/vhosts/editor.js') },
  { route: 'vhost/:id', load: () => import('./pages/vhost/detail.js') },
  { route: 'analytics', nav: 'Analytics', load: () => import('./pages/analytics/analytics.js') },
  { route: 'analytics/:id', load: () => import('./pages/analytics/analytics.js') },
];
const HOME = '#/overview';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const notice = document.getElementById('notice');
const signOutButton = document.getElementById('sign-out');
const liveState = document.getElementById('live-state');

let signedIn = false;
let scope = null;
let renders = 0;
let firstRender = true;
let expiry = null;
let pendingNotice = null;

/** The route and its parameters for a location hash such as #/vhosts/3f0c/edit?x=1; null when none matches. */
function match(hash) {
  const [path, query] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  for (const page of PAGES) {
    const pattern = page.route.split('/');
    if (pattern.length !== parts.length) {
      continue;
    }
    const params = {};
    if (pattern.every((p, i) => p.startsWith(':') ? (params[p.slice(1)] = decodeURIComponent(parts[i])) : p === parts[i])) {
      return { page, params, query: new URLSearchParams(query || '') };
    }
  }
  return null;
}

function buildNav() {
  replace(nav, h('ul', null, PAGES.filter(p => p.nav).map(p =>
    h('li', null, h('a', { href: `#/${p.route}`, 'data-route': p.route }, p.nav)))));
}

function markCurrent(route) {
  const section = route.split('/')[0];
  nav.querySelectorAll('a').forEach(a => {
    const own = a.getAttribute('data-route');
    const current = own === section || (own === 'vhosts' && section === 'vhost');
    if (current) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  });
}

/** Shows a message in the status line now, or (next: true) after the coming navigation. */
function notify(text, kind = 'info', next = false) {
  if (next) {
    pendingNotice = { text, kind };
    return;
  }
  notice.className = `notice ${kind}`;
  notice.textContent = text;
}

async function render() {
  const current = ++renders;
  if (scope) {
    scope.abort();
  }
  scope = new AbortController();
  const signal = scope.signal;
  if (!signedIn) {
    showSignIn();
    return;
  }
  const found = match(location.hash);
  if (!found) {
    location.replace(HOME);
    return;
  }
  notify('');
  if (pendingNotice) {
    notify(pendingNotice.text, pendingNotice.kind);
    pendingNotice = null;
  }
  markCurrent(found.page.route);
  let module;
  try {
    module = await found.page.load();
  } catch (e) {
    replace(main, h('p', { class: 'error' }, `This page could not be loaded: ${e.message}`));
    return;
  }
  if (current !== renders) {
    return;
  }
  const root = h('div', { class: 'page' });
  replace(main, root);
  const ctx = {
    params: found.params,
    query: found.query,
    signal,
    notify,
    navigate: hash => {
      location.hash = hash;
    },
    setTitle: title => {
      document.title = `${title} · Portico`;
    },
  };
  ctx.setTitle(module.title || found.page.nav || 'Portico');
  try {
    await module.mount(root, ctx);
  } catch (e) {
    if (e.name !== 'AbortError' && current === renders && e.status !== 401) {
      root.append(h('p', { class: 'error', role: 'alert' }, e.summary || e.message));
    }
  }
  if (!firstRender && current === renders) {
    const heading = root.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }
  firstRender = false;
}

async function showSignIn(message) {
  setFrame(false);
  const module = await import('./pages/signin/signin.js');
  document.title = 'Sign in · Portico';
  const root = h('div', { class: 'page' });
  replace(main, root);
  module.mount(root, { message, signedIn: session => enter(session) });
}

function enter(session) {
  signedIn = true;
  setFrame(true);
  live.start();
  clearTimeout(expiry);
  const left = Date.parse(session.expiresAt) - Date.now();
  if (left > 0 && left < 2 ** 31) {
    expiry = setTimeout(() => leave('Your session has expired. Sign in again.'), left);
  }
  if (!match(location.hash)) {
    location.replace(HOME);
  }
  render();
}

function leave(message) {
  signedIn = false;
  clearTimeout(expiry);
  live.stop();
  if (scope) {
    scope.abort();
  }
  showSignIn(message);
}

function setFrame(visible) {
  nav.hidden = !visible;
  signOutButton.hidden = !visible;
  liveState.hidden = !visible;
  if (!visible) {
    notify('');
  }
}

live.onState(state => {
  const text = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', off: 'Offline' }[state];
  liveState.textContent = text;
  liveState.className = `live-state ${state}`;
});

api.onSignedOut(() => {
  if (signedIn) {
    leave('Your session has ended. Sign in again.');
  }
});

signOutButton.addEventListener('click', async () => {
  try {
    await api.signOut();
  } catch (e) {
    // Signed out here either way: the cookie is the server's to drop, and a failed call leaves nothing usable.
  }
  leave('You are signed out.');
});

// The skip link must not become a route: it moves the focus to the page instead.
document.getElementById('skip-link').addEventListener('click', event => {
  event.preventDefault();
  main.focus();
});

window.addEventListener('hashchange', () => render());

buildNav();
api.loadSession().then(session => session ? enter(session) : showSignIn(), e => showSignIn(e.summary || e.message));
