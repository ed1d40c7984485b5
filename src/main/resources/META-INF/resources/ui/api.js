// Every call to the management API goes through here: JSON in and out, the session cookie (sent by the browser,
// unreadable to scripts), the CSRF header on state-changing calls, and RFC 9457 problems turned into ApiError.

const SESSION = '/api/v1/session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// The CSRF token lives only in this variable: never in localStorage, sessionStorage or a URL, where another script
// or a log could read it. A reload gets it again from GET /api/v1/session.
let csrfToken = null;
let session = null;
const signedOutListeners = new Set();

/** An API answer that was not a success: the problem document, and its invalid fields by JSON path. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    /** [{field, reason}] as the problem lists them (errors[]); empty when it names no field. */
    this.fieldErrors = Array.isArray(problem.errors) ? problem.errors : [];
  }

  /** The title and the detail, for a message that names no field. */
  get summary() {
    const { title, detail } = this.problem;
    return title && detail && title !== detail ? `${title}: ${detail}` : (detail || title || this.message);
  }
}

/** Called with the reason when a call finds the session gone (expired, signed out elsewhere, server restarted). */
export function onSignedOut(listener) {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * Calls the API. options: json (a value sent as JSON), text (a JSON text sent as it is: the power users' view,
 * so the server sees exactly what was typed), ifMatch (an entity tag), signal. Resolves to {status, body, etag}
 * for a 2xx; rejects with ApiError otherwise, or with status 0 when the server cannot be reached.
 */
export async function call(method, path, options = {}) {
  const headers = { Accept: 'application/json' };
  let body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
  } else if (options.text !== undefined) {
    body = options.text;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  if (UNSAFE.has(method) && csrfToken) {
    headers['X-Portico-Csrf'] = csrfToken;
  }
  if (options.ifMatch) {
    headers['If-Match'] = options.ifMatch;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (e) {
    if (e.name === 'AbortError') {
      throw e;
    }
    throw new ApiError(0, { title: 'Portico cannot be reached', detail: e.message });
  }
  const parsed = await parse(response);
  if (response.ok) {
    return { status: response.status, body: parsed, etag: response.headers.get('ETag') };
  }
  const problem = parsed && typeof parsed === 'object' ? parsed
    : { title: response.statusText || `HTTP ${response.status}`, status: response.status };
  const error = new ApiError(response.status, problem);
  if (response.status === 401 && path !== SESSION) {
    forget();
    signedOutListeners.forEach(listener => listener(error.summary));
  }
  throw error;
}

async function parse(response) {
  const type = response.headers.get('Content-Type') || '';
  if (response.status === 204 || !type.includes('json')) {
    return null;
  }
  try {
    return await response.json();
  } catch {
    return null;
  }
}

export const get = (path, options) => call('GET', path, options).then(r => r.body);

/** The current session ({expiresAt, csrfToken}) or null when not signed in. */
export async function loadSession() {
  try {
    const { body } = await call('GET', SESSION);
    remember(body);
    return session;
  } catch (e) {
    if (e.status === 401) {
      forget();
      return null;
    }
    throw e;
  }
}

/** Exchanges the admin token for a session cookie; the token is not kept. Rejects with ApiError (401: wrong). */
export async function signIn(token) {
  const { body } = await call('POST', SESSION, { json: { token } });
  remember(body);
  return session;
}

export async function signOut() {
  try {
    await call('DELETE', SESSION);
  } finally {
    forget();
  }
}

export const currentSession = () => session;

function remember(body) {
  session = { expiresAt: body.expiresAt };
  csrfToken = body.csrfToken;
}

function forget() {
  session = null;
  csrfToken = null;
}

/** A tagged template: path`/api/v1/vhosts/${id}/cache` with every value percent-encoded. */
export function path(template, ...values) {
  return template.reduce((out, part, i) => out + part + (i < values.length ? encodeURIComponent(values[i]) : ''), '');
}
