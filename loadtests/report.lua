-- wrk script for loadtests/run.sh.
--   * sends the Host header the targets route on (BENCH_HOST, default bench.local), so Portico and the nginx
--     comparator receive byte-identical requests;
--   * prints one machine-readable line when the run is over, which run.sh parses:
--       RESULT requests=N duration_us=N p50_us=N p99_us=N max_us=N non2xx=N socket_errors=N bytes=N
--     non2xx is wrk's own count of responses with a status above 399 (its "Non-2xx or 3xx responses");
--     socket_errors adds up connect, read, write and timeout errors.
-- Latencies are wrk's (closed loop, so they are optimistic under overload: no coordinated-omission correction).

wrk.headers["Host"] = os.getenv("BENCH_HOST") or "bench.local"

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d non2xx=%d socket_errors=%d bytes=%d\n",
      summary.requests, summary.duration,
      latency:percentile(50.0), latency:percentile(99.0), latency.max,
      e.status, e.connect + e.read + e.write + e.timeout, summary.bytes))
end
