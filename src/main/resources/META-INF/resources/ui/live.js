// One EventSource on /api/v1/stats/stream for the whole console, and the last minutes of it, so a page opened now
// already has a history to chart. Each stats event carries counters since start; what the charts need per interval
// (requests/s by status class, error and hit ratios, bytes/s, cache results/s) is the difference to the event before.

import { get } from './api.js';

/** Intervals kept: five minutes of one-second events. */
export const KEEP = 300;
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
export const CACHE_RESULTS = ['hit', 'stale', 'revalidated', 'collapsed', 'miss', 'bypass'];
const SERVED_FROM_CACHE = ['hit', 'stale', 'revalidated', 'collapsed'];

const points = [];
const listeners = new Set();
const transitionListeners = new Set();
const stateListeners = new Set();
let previous = null;
let source = null;
let state = 'off';
let retry = null;

/** Opens the stream (once; later calls do nothing while it is open). */
export function start() {
  if (source) {
    return;
  }
  clearTimeout(retry);
  setState('connecting');
  source = new EventSource('/api/v1/stats/stream');
  source.addEventListener('open', () => setState('live'));
  source.addEventListener('stats', event => receive(JSON.parse(event.data)));
  for (const name of ['upstream', 'circuit']) {
    source.addEventListener(name, event => {
      const data = JSON.parse(event.data);
      transitionListeners.forEach(listener => listener(name, data));
    });
  }
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED) {
      setState('reconnecting');
      return;
    }
    // The server refused the stream (the session ended, or it restarts): a plain call tells which. A 401 there
    // signs the console out; anything else means trying again shortly.
    source = null;
    setState('reconnecting');
    retry = setTimeout(() => get('/api/v1/stats').then(start, e => e.status === 401 ? stop() : start()), 3000);
  });
}

/** Closes the stream and forgets its history (signing out). */
export function stop() {
  clearTimeout(retry);
  if (source) {
    source.close();
    source = null;
  }
  points.length = 0;
  previous = null;
  setState('off');
}

/** Calls listener(point) for every interval; returns the function that stops it. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls listener(kind, data) for each upstream or circuit transition ('upstream' | 'circuit'). */
export function onTransition(listener) {
  transitionListeners.add(listener);
  return () => transitionListeners.delete(listener);
}

/** Calls listener(state) now and on each change: 'connecting', 'live', 'reconnecting' or 'off'. */
export function onState(listener) {
  stateListeners.add(listener);
  listener(state);
  return () => stateListeners.delete(listener);
}

/** The intervals kept, oldest first: {t (epoch seconds), connections, total, vhosts: {name: measures}}. */
export function history() {
  return points;
}

function setState(next) {
  state = next;
  stateListeners.forEach(listener => listener(next));
}

function receive(stats) {
  const at = Date.parse(stats.time);
  const seconds = previous ? Math.max(0.001, (at - Date.parse(previous.time)) / 1000) : stats.intervalSeconds;
  const before = new Map((previous ? previous.vhosts : []).map(v => [v.vhost, v]));
  const vhosts = {};
  for (const v of stats.vhosts) {
    vhosts[v.vhost] = measures(v, before.get(v.vhost), seconds);
  }
  const point = {
    t: at / 1000,
    connections: stats.connections,
    total: measures(stats.total, previous && previous.total, seconds),
    vhosts,
  };
  previous = stats;
  points.push(point);
  if (points.length > KEEP) {
    points.shift();
  }
  listeners.forEach(listener => listener(point));
}

/** One vhost's interval: rates from the difference of its counters (null on the first event, which has none). */
function measures(now, before, seconds) {
  // A counter that went down means the server restarted: the interval counts from zero.
  const delta = (a, b) => before ? Math.max(0, (a || 0) - (b || 0)) : null;
  const perSecond = (a, b) => before ? delta(a, b) / seconds : null;
  const status = {};
  let completed = 0;
  for (const c of STATUS_CLASSES) {
    const d = delta(now.status[c], before && before.status[c]);
    status[c] = d === null ? null : d / seconds;
    completed += d || 0;
  }
  const cache = {};
  let served = 0;
  let looked = 0;
  for (const r of CACHE_RESULTS) {
    const d = delta(now.cache[r], before && before.cache[r]);
    cache[r] = d === null ? null : d / seconds;
    if (SERVED_FROM_CACHE.includes(r)) {
      served += d || 0;
    }
    if (r !== 'bypass') {
      looked += d || 0;
    }
  }
  const errors = delta(now.status['5xx'], before && before.status['5xx']);
  return {
    requests: now.requests,
    rps: now.requestsPerSecond,
    inFlight: now.inFlight,
    status,
    errorRatio: before && completed > 0 ? errors / completed : null,
    cache,
    hitRatio: before && looked > 0 ? served / looked : null,
    bytesIn: perSecond(now.bytesIn, before && before.bytesIn),
    bytesOut: perSecond(now.bytesOut, before && before.bytesOut),
    latency: now.latencyMs,
    upstreamLatency: now.upstreamLatencyMs,
  };
}
