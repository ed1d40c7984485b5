// Panels that show server state read it again every few seconds while their page is open.

/**
 * Returns run(): it calls load() now, then again `ms` after each call ends, until signal aborts; a failure other than
 * the abort goes to fail(error) and the polling goes on. Calling run() again reads at once (after a change).
 */
export function every(ms, signal, load, fail) {
  let timer = null;
  signal.addEventListener('abort', () => clearTimeout(timer));
  const run = async () => {
    clearTimeout(timer);
    try {
      await load();
    } catch (e) {
      if (e.name === 'AbortError') {
        return;
      }
      fail(e);
    }
    if (!signal.aborted) {
      timer = setTimeout(run, ms);
    }
  };
  return run;
}
