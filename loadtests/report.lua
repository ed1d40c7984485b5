-- wrk script for loadtests/run.sh.
--   * sends the Host header the targets route on (BENCH_HOST, default bench.local), so Portico and the nginx
--     comparator receive byte-identical requests;
--   * prints one machine-readable line when the run is over, which run.sh parses:
--       RESULT requests=N duration_us=N p50_us=N p99_us=N max_us=N non2xx=N socket_errors=N bytes=N bad=N
--     non2xx is wrk's own count of responses with a status above 399 (its "Non-2xx or 3xx responses");
--     socket_errors adds up connect, read, write and timeout errors; bad counts responses that were not status
--     200 with exactly EXPECT_BYTES of body (when set) and, when ACCEPT_ENCODING names a coding, that coding.
-- Latencies are wrk's (closed loop, so they are optimistic under overload: no coordinated-omission correction).

wrk.headers["Host"] = os.getenv("BENCH_HOST") or "bench.local"
-- The compression scenarios ask for one coding and check that every response came with it.
local coding = os.getenv("ACCEPT_ENCODING") or ""
if coding ~= "" then
   wrk.headers["Accept-Encoding"] = coding
end

-- Every response is checked: status 200 and exactly EXPECT_BYTES of body (when set). wrk runs one Lua state per
-- thread; run.sh uses -t1, so the counter below sees every response.
local expect_bytes = tonumber(os.getenv("EXPECT_BYTES") or "")
local bad = 0

function response(status, headers, body)
   if status ~= 200 or (expect_bytes and #body ~= expect_bytes)
         or (coding ~= "" and (headers["Content-Encoding"] or headers["content-encoding"]) ~= coding) then
      bad = bad + 1
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d non2xx=%d socket_errors=%d bytes=%d bad=%d\n",
      summary.requests, summary.duration,
      latency:percentile(50.0), latency:percentile(99.0), latency.max,
      e.status, e.connect + e.read + e.write + e.timeout, summary.bytes, bad))
end
