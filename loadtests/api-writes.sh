#!/usr/bin/env bash
# Management API write latency under churn (issue 18): creates, updates and deletes of vhosts at a fixed rate
# (open loop: a slow answer does not slow the schedule) while wrk sends traffic through the data plane. Reports
# p50 / p99 / max per operation and overall, and every answer that was not 2xx.
#
#   bash loadtests/api-writes.sh                  # 20 writes/s for 60 s, 20 wrk connections on the data plane
#   RATE=40 DURATION=30 bash loadtests/api-writes.sh
#
# Loopback only; bounded in time. Portico on CPU 0 with one event loop and its embedded PostgreSQL, as run.sh
# starts it (this script sources it for its functions); the origin, wrk and the API client on CPU 1.
#
# Environment (besides run.sh's PORTICO_APP_DIR, PORTICO_JAVA_OPTS, PORTICO_*PORT, KEEP_WORK):
#   RATE=20 DURATION=60   writes per second, seconds
#   KEEP=50               vhosts kept alive: past that, each create is followed by a delete of the oldest
#   CONNECTIONS=20        wrk connections on the data plane
#   ORIGIN_PORT_W=18111   the origin's port
set -euo pipefail

LOG_NAME=api-writes.sh
unset ONLY
WRK_CONNECTIONS=${CONNECTIONS:-20}   # before run.sh sets its own default
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"

RATE=${RATE:-20}
DURATION=${DURATION:-60}
KEEP=${KEEP:-50}
ORIGIN_PORT_W=${ORIGIN_PORT_W:-18111}
WRITES_HOST=writes.local
ORIGIN_W_PID=""

api_writes_main() {
    check_machine
    install_packages
    build_portico
    prepare_work
    log "work directory $WORK"
    (exec taskset -c "$LOAD_CPU" java -Xmx128m "$HERE/ResilienceOrigin.java" "$ORIGIN_PORT_W" origin) \
        >>"$WORK/logs/origin.log" 2>&1 &
    ORIGIN_W_PID=$!
    trap 'status=$?; stop_pid "$ORIGIN_W_PID" TERM 5; (exit "$status"); cleanup' EXIT
    wait_http "http://127.0.0.1:$ORIGIN_PORT_W/healthz" 60 "$ORIGIN_W_PID" || die "the origin did not come up"
    start_portico
    create_vhost writes-traffic "$WRITES_HOST" "\"upstreams\":[{\"url\":\"http://127.0.0.1:$ORIGIN_PORT_W\"}]"
    wait_http "http://127.0.0.1:$PORTICO_PORT/" 30 "$PORTICO_PID" || true

    log "data-plane traffic: wrk -c$WRK_CONNECTIONS for $((DURATION + 10))s; API writes: $RATE/s for ${DURATION}s"
    timeout -k 5 $((DURATION + 70)) taskset -c "$LOAD_CPU" wrk -t1 -c"$WRK_CONNECTIONS" -d$((DURATION + 10))s \
        --latency -H "Host: $WRITES_HOST" "http://127.0.0.1:$PORTICO_PORT/" >"$WORK/wrk.txt" 2>&1 &
    local wrk_pid=$!
    sleep 5
    printf '\nAPI writes run %s (commit %s): %s writes/s for %ss, %s vhosts kept, wrk -c%s on the data plane\n' \
        "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$RATE" "$DURATION" "$KEEP" "$WRK_CONNECTIONS"
    timeout -k 5 $((DURATION + 120)) taskset -c "$LOAD_CPU" python3 - "http://127.0.0.1:$PORTICO_API_PORT" \
        "$ADMIN_TOKEN" "$RATE" "$DURATION" "$KEEP" "$ORIGIN_PORT_W" \
        "http://127.0.0.1:$PORTICO_MGMT_PORT/q/metrics" <<'PY'
import collections, concurrent.futures, json, re, sys, threading, time, urllib.error, urllib.request

base, token, rate, duration, keep, origin, metrics = sys.argv[1], sys.argv[2], float(sys.argv[3]), \
    int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]

PHASES = ["commit", "publish", "reload_read", "reload_compile"]

def phase_series():
    """portico_configuration_write_seconds per phase: count, sum, max and the histogram's cumulative buckets."""
    text = urllib.request.urlopen(metrics, timeout=10).read().decode()
    found = {}
    for phase in PHASES:
        values = {"buckets": {}}
        for line in text.splitlines():
            m = re.match(r'portico_configuration_write_seconds_(count|sum|max|bucket)\{(.*)\} ([0-9.eE+-]+)$', line)
            if not m or 'phase="%s"' % phase not in m.group(2):
                continue
            if m.group(1) == "bucket":
                le = re.search(r'le="([^"]+)"', m.group(2)).group(1)
                values["buckets"][float("inf") if le == "+Inf" else float(le)] = float(m.group(3))
            else:
                values[m.group(1)] = float(m.group(3))
        found[phase] = values
    return found

phases_before = phase_series()
lock = threading.Lock()
times = collections.defaultdict(list)
failures = collections.Counter()
alive = collections.deque()   # (id, etag) of the vhosts this run created, oldest first

def call(method, path, body=None, etag=None):
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    if etag:
        headers["If-Match"] = etag
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text, tag = response.status, response.read(), response.headers.get("ETag")
    except urllib.error.HTTPError as e:
        status, text, tag = e.code, e.read(), None
    except Exception as e:
        status, text, tag = type(e).__name__, b"", None
    elapsed = (time.perf_counter() - started) * 1000
    return status, text, tag, elapsed

def vhost(n, variant):
    return {"name": "w%d" % n, "hostnames": ["w%d.writes.local" % n],
            "upstreams": [{"url": "http://127.0.0.1:" + origin}], "readTimeout": "%ds" % (30 + variant)}

def record(op, status, elapsed):
    with lock:
        times[op].append(elapsed)
        if not (isinstance(status, int) and 200 <= status < 300):
            failures["%s %s" % (op, status)] += 1

def operation(i):
    if i % 2 == 0 or not alive:
        status, text, tag, elapsed = call("POST", "/api/v1/vhosts", vhost(i, 0))
        record("create", status, elapsed)
        if status == 201:
            with lock:
                alive.append((json.loads(text)["id"], tag, i))
                oldest = alive.popleft() if len(alive) > keep else None
            if oldest:
                status, _, _, elapsed = call("DELETE", "/api/v1/vhosts/" + oldest[0])
                record("delete", status, elapsed)
    else:
        with lock:
            target = alive.popleft() if alive else None
        if target is None:
            return
        vid, tag, n = target
        status, text, new_tag, elapsed = call("PUT", "/api/v1/vhosts/" + vid, vhost(n, i % 7), tag)
        record("update", status, elapsed)
        with lock:
            alive.append((vid, new_tag if status == 200 else tag, n))

start = time.perf_counter()
with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
    i = 0
    while True:
        due = start + i / rate
        if due - start >= duration:
            break
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        pool.submit(operation, i)
        i += 1

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

every = [t for op in times for t in times[op]]
for op in ["create", "update", "delete"] + ["all"]:
    values = every if op == "all" else times.get(op, [])
    if values:
        print("%-7s n=%-5d p50=%7.1f ms  p99=%7.1f ms  max=%7.1f ms" % (op, len(values), pct(values, 50),
              pct(values, 99), max(values)))
# Where the writes' time went (ConfigurationWriteTimings): publish = waiting for the reloader + a reload.
phases_after = phase_series()
for phase in PHASES:
    a, b = phases_after[phase], phases_before[phase]
    n = a.get("count", 0) - b.get("count", 0)
    if n <= 0:
        continue
    mean = (a.get("sum", 0) - b.get("sum", 0)) / n * 1000
    p99 = next((le for le in sorted(a["buckets"]) if a["buckets"][le] - b["buckets"].get(le, 0) >= 0.99 * n),
               float("inf"))
    print("phase %-14s n=%-5d mean=%7.1f ms  p99<=%7.0f ms  max=%7.1f ms" % (phase, n, mean, p99 * 1000,
          a.get("max", 0) * 1000))
print("non-2xx or failed answers: " + (", ".join("%s x%d" % kv for kv in sorted(failures.items())) or "none"))
# Leave no vhost of this run behind (the embedded database goes with the work directory anyway).
for vid, tag, n in list(alive):
    call("DELETE", "/api/v1/vhosts/" + vid)
PY
    wait "$wrk_pid" || log "wrk exited with status $?"
    awk '/requests in|Requests\/sec|Non-2xx|Socket errors/' "$WORK/wrk.txt" | sed 's/^/data plane: /'
    awk '$1 == "50%" || $1 == "99%" { print "data plane: latency " $1 " " $2 }' "$WORK/wrk.txt"
}

api_writes_main "$@"
