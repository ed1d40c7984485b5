// Sign-in: the admin token is sent once to POST /api/v1/session and exchanged for an HttpOnly cookie; the page keeps
// nothing of it (the field is cleared whatever the answer).

import { h } from '../../dom.js';
import { signIn } from '../../api.js';

export const title = 'Sign in';

export function mount(root, { message, signedIn }) {
  const error = h('p', { class: 'field-error', id: 'token-error', role: 'alert' });
  const token = h('input', {
    id: 'token', name: 'token', type: 'password', required: true, autocomplete: 'current-password',
    spellcheck: 'false', 'aria-describedby': 'token-help token-error',
  });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h('form', { class: 'signin', novalidate: true },
    h('h1', null, 'Sign in to Portico'),
    message ? h('p', { class: 'notice info', id: 'signin-message' }, message) : null,
    h('div', { class: 'field' },
      h('label', { for: 'token' }, 'Admin token'),
      h('p', { class: 'help', id: 'token-help' },
        'PORTICO_ADMIN_TOKEN, or the token Portico printed at its first start. It is exchanged for a session ' +
        'cookie and not stored by this page.'),
      token, error),
    button);

  form.addEventListener('submit', async event => {
    event.preventDefault();
    const value = token.value.trim();
    token.value = '';
    error.textContent = '';
    token.removeAttribute('aria-invalid');
    if (!value) {
      fail('Enter the admin token.');
      return;
    }
    button.disabled = true;
    try {
      const session = await signIn(value);
      signedIn(session);
    } catch (e) {
      fail(e.status === 401 ? 'That token is not valid.' : e.summary || e.message);
    } finally {
      button.disabled = false;
    }
  });

  function fail(text) {
    error.textContent = text;
    token.setAttribute('aria-invalid', 'true');
    token.focus();
  }

  root.append(form);
  token.focus();
}
