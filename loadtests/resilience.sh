#!/usr/bin/env bash
# Resilience under failure (issue 15): three origins behind one vhost, a steady GET load, and an incident in the
# middle: one origin killed (and restarted half-way through), another made slow. Reports, per phase, the requests
# clients got, the errors they saw (and why), latency percentiles, the share retries added against the budget, and
# each origin's share of the traffic (the slow one's share must drop with random_two by latency).
#
#   bash loadtests/resilience.sh                       # before 20 s, incident 60 s, after 20 s (~2 minutes)
#   BALANCE='"balance":"round_robin"' bash loadtests/resilience.sh    # the same against another policy
#
# Loopback only; bounded in time (every phase is a wrk run with -d and a timeout). Portico on CPU 0 with one event
# loop, as run.sh starts it (this script sources it for its functions); origins and wrk on CPU 1.
#
# Environment (besides run.sh's PORTICO_APP_DIR, PORTICO_JAVA_OPTS, PORTICO_*PORT, KEEP_WORK):
#   BEFORE_SECS=20 INCIDENT_SECS=60 AFTER_SECS=20   phase lengths
#   CONNECTIONS=20                                  wrk connections
#   SLOW_MS=200                                     the slow origin's added latency
#   BALANCE='"balance":"random_two","balanceBy":"latency"'   the vhost's balancing fields
set -euo pipefail

LOG_NAME=resilience.sh
unset ONLY
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"

BEFORE_SECS=${BEFORE_SECS:-20}
INCIDENT_SECS=${INCIDENT_SECS:-60}
AFTER_SECS=${AFTER_SECS:-20}
CONNECTIONS=${CONNECTIONS:-20}
SLOW_MS=${SLOW_MS:-200}
BALANCE=${BALANCE:-'"balance":"random_two","balanceBy":"latency"'}
RES_HOST=res.local
ORIGIN_PORTS=(18101 18102 18103)
ORIGIN_PIDS=("" "" "")

start_origin() {    # start_origin INDEX
    local port=${ORIGIN_PORTS[$1]}
    (exec taskset -c "$LOAD_CPU" java -Xmx128m -Dsun.net.httpserver.nodelay=true "$HERE/ResilienceOrigin.java" "$port" "origin-$1") \
        >>"$WORK/logs/origin-$1.log" 2>&1 &
    ORIGIN_PIDS[$1]=$!
    wait_http "http://127.0.0.1:$port/healthz" 60 "${ORIGIN_PIDS[$1]}" || die "origin $1 did not come up"
}

stop_origins() {
    local pid
    for pid in "${ORIGIN_PIDS[@]}"; do
        stop_pid "$pid" TERM 5
    done
}

origin_count() { curl -sS -m 5 "http://127.0.0.1:${ORIGIN_PORTS[$1]}/__count" 2>/dev/null || echo 0; }

metric() {   # metric SERIES_PREFIX: the sum of every sample whose line starts with it
    curl -sS -m 5 "http://127.0.0.1:$PORTICO_MGMT_PORT/q/metrics" |
        awk -v p="$1" 'index($0, p) == 1 { sum += $NF } END { printf "%d\n", sum }'
}

run_phase() {   # run_phase NAME SECONDS
    timeout -k 5 $(($2 + 60)) taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"$2"s --latency --timeout 10s \
        -H "Host: $RES_HOST" "http://127.0.0.1:$PORTICO_PORT/" >"$WORK/wrk-$1.txt" 2>&1 ||
        log "wrk exited with status $? in phase $1"
}

phase_line() {   # phase_line NAME: requests, errors, p50, p99 from wrk's report
    local f=$WORK/wrk-$1.txt requests non2xx socket p50 p99
    requests=$(awk '/requests in/ { print $1 }' "$f")
    non2xx=$(awk '/Non-2xx or 3xx responses/ { print $NF }' "$f")
    socket=$(awk '/Socket errors/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$f")
    p50=$(awk '$1 == "50%" { print $2 }' "$f")
    p99=$(awk '$1 == "99%" { print $2 }' "$f")
    printf '%-9s requests=%-8s non-2xx=%-6s socket-errors=%-6s p50=%-9s p99=%s\n' "$1" "${requests:-0}" \
        "${non2xx:-0}" "${socket:-0}" "${p50:-?}" "${p99:-?}"
}

resilience_main() {
    check_machine
    install_packages
    build_portico
    prepare_work
    log "work directory $WORK"
    local i
    for i in 0 1 2; do start_origin "$i"; done
    trap 'status=$?; stop_origins; (exit "$status"); cleanup' EXIT
    start_portico
    local upstreams="\"upstreams\":[{\"url\":\"http://127.0.0.1:${ORIGIN_PORTS[0]}\"},"
    upstreams+="{\"url\":\"http://127.0.0.1:${ORIGIN_PORTS[1]}\"},{\"url\":\"http://127.0.0.1:${ORIGIN_PORTS[2]}\"}]"
    create_vhost resilience "$RES_HOST" "$upstreams,$BALANCE,\"retry\":{\"on\":[\"connect_failure\",\"reset\",\"timeout\",\"502\",\"503\",\"504\"],\"perTryTimeout\":\"1s\"},\"healthCheck\":{\"path\":\"/healthz\",\"interval\":\"1s\",\"timeout\":\"500ms\",\"rise\":2,\"fall\":2}"
    wait_http "http://127.0.0.1:$PORTICO_PORT/" 30 "$PORTICO_PID" || true
    log "warm-up 10 s"
    run_phase warmup 10

    local counts_before=() counts_incident=() retries0 retries1 requests0 requests1 exhausted0 exhausted1
    log "phase before: ${BEFORE_SECS}s"
    run_phase before "$BEFORE_SECS"

    for i in 0 1 2; do counts_before[$i]=$(origin_count "$i"); done
    retries0=$(metric 'portico_retries_total') exhausted0=$(metric 'portico_retry_budget_exhausted_total')
    requests0=$(metric "portico_requests_total{")
    log "phase incident: ${INCIDENT_SECS}s (origin-0 killed at once and restarted after $((INCIDENT_SECS / 2))s;" \
        "origin-1 ${SLOW_MS} ms slow)"
    stop_pid "${ORIGIN_PIDS[0]}" KILL 5
    curl -sS -m 5 -o /dev/null "http://127.0.0.1:${ORIGIN_PORTS[1]}/__slow?ms=$SLOW_MS"
    ( sleep $((INCIDENT_SECS / 2)); start_origin 0; echo "${ORIGIN_PIDS[0]}" >"$WORK/origin-0.pid" ) &
    local restarter=$!
    run_phase incident "$INCIDENT_SECS"
    wait "$restarter" || log "origin-0 did not restart"
    ORIGIN_PIDS[0]=$(cat "$WORK/origin-0.pid" 2>/dev/null || echo "")
    for i in 0 1 2; do counts_incident[$i]=$(origin_count "$i"); done
    retries1=$(metric 'portico_retries_total') exhausted1=$(metric 'portico_retry_budget_exhausted_total')
    requests1=$(metric "portico_requests_total{")
    curl -sS -m 5 -o /dev/null "http://127.0.0.1:${ORIGIN_PORTS[1]}/__slow?ms=0"

    log "phase after: ${AFTER_SECS}s"
    run_phase after "$AFTER_SECS"

    printf '\nResilience run %s (commit %s), policy: {%s}\n' "$(date -u +%Y-%m-%dT%H:%MZ)" \
        "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" "$BALANCE"
    phase_line before
    phase_line incident
    phase_line after
    local total=$((requests1 - requests0)) retried=$((retries1 - retries0))
    printf 'incident: %d retries for %d requests (%s%%), budget exhausted %d times\n' "$retried" "$total" \
        "$(awk -v r="$retried" -v t="$total" 'BEGIN { printf "%.1f", (t > 0 ? 100 * r / t : 0) }')" \
        "$((exhausted1 - exhausted0))"
    printf 'incident share by origin (origin-0 killed then restarted, origin-1 slow):'
    # origin-0 restarted with a fresh count: its incident share is what it served since the restart.
    local served=("${counts_incident[0]}" $((counts_incident[1] - counts_before[1])) \
        $((counts_incident[2] - counts_before[2])))
    local sum=$((served[0] + served[1] + served[2]))
    for i in 0 1 2; do
        printf ' origin-%d=%d (%s%%)' "$i" "${served[$i]}" \
            "$(awk -v s="${served[$i]}" -v t="$sum" 'BEGIN { printf "%.1f", (t > 0 ? 100 * s / t : 0) }')"
    done
    printf '\nclient-visible non-2xx answers over the whole run, by status and reason (access log; none listed = none):\n'
    grep -ho '"status":[0-9]*,.*"reason":[^,]*' "$WORK"/logs/access*.log 2>/dev/null |
        sed -E 's/^"status":([0-9]+),.*"reason":(.*)$/\1 \2/' | awk '$1 !~ /^2/' | sort | uniq -c || true
}

resilience_main "$@"
