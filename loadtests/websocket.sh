#!/usr/bin/env bash
# WebSocket benchmark: echo round trips through Portico's tunnels and through nginx's (proxy_pass with Upgrade), to
# the same Java echo origin (WsBench.java), measured by CPU per message on the proxy's CPU.
#
#   bash loadtests/websocket.sh           # warm-up, then 5 measured runs of 8 s per scenario and target
#   QUICK=1 bash loadtests/websocket.sh   # smoke: 1 run of 2 s each, 1 s warm-up
#
# Scenarios (ONLY="..." picks some): ws-echo-64B, ws-echo-4KiB: WS_CONNECTIONS clients each sending a binary
# message and the next as soon as its echo is back. A "request" in the report is one round trip: two frames
# through the proxy. Layout, CPU accounting, warm-up rounds and interleaving are run.sh's (this script sources it):
# the proxy on CPU 0, origin and load generator on CPU 1.
#
# Environment (besides run.sh's QUICK, ONLY, RUNS, DURATION_SECS, WARMUP_SECS, WARMUP_ROUNDS, PROXY_CPU, LOAD_CPU,
# PORTICO_APP_DIR, PORTICO_JAVA_OPTS, PORTICO_*PORT, KEEP_WORK, HOLD):
#   WS_CONNECTIONS=50           concurrent WebSocket connections
set -euo pipefail

LOG_NAME=websocket.sh
WS_ONLY=${ONLY:-}
unset ONLY      # run.sh's ONLY names run.sh's scenarios
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"

WS_CONNECTIONS=${WS_CONNECTIONS:-50}
WS_HOST=ws.local
WS_ORIGIN_PORT=18091     # fixed in nginx-ws.conf
WS_NGINX_PORT=18082      # fixed in nginx-ws.conf
WS_SCENARIOS=("ws-echo-64B 64" "ws-echo-4KiB 4096")
WS_MEASURED=("${WS_SCENARIOS[@]}")
if [[ -n $WS_ONLY ]]; then
    WS_MEASURED=()
    for scenario in "${WS_SCENARIOS[@]}"; do
        if [[ " $WS_ONLY " == *" ${scenario%% *} "* ]]; then WS_MEASURED+=("$scenario"); fi
    done
    ((${#WS_MEASURED[@]} > 0)) || die "ONLY=$WS_ONLY names no scenario"
fi

ws_port() { if [[ $1 == portico ]]; then echo "$PORTICO_PORT"; else echo "$WS_NGINX_PORT"; fi; }

start_ws_origin() {
    (exec taskset -c "$LOAD_CPU" java -Xmx256m -cp "$PORTICO_APP_DIR/lib/main/*" "$HERE/WsBench.java" origin \
        "$WS_ORIGIN_PORT") >"$WORK/logs/ws-origin.log" 2>&1 &
    ORIGIN_PID=$!
    wait_http "http://127.0.0.1:$WS_ORIGIN_PORT/" 60 "$ORIGIN_PID" || die "the echo origin did not come up"
    log "echo origin listening on 127.0.0.1:$WS_ORIGIN_PORT (pid $ORIGIN_PID, CPU $LOAD_CPU)"
}

# run_ws TARGET SIZE SECONDS OUTFILE
run_ws() {
    timeout -k 5 $(($3 + 90)) taskset -c "$LOAD_CPU" java -Xmx512m -cp "$PORTICO_APP_DIR/lib/main/*" \
        "$HERE/WsBench.java" load "ws://127.0.0.1:$(ws_port "$1")/echo" "$WS_HOST" "$WS_CONNECTIONS" "$3" "$2" \
        >"$4" 2>&1 || log "the load generator exited with status $? ($1 $2 bytes)"
}

# measure_ws SCENARIO TARGET SIZE RUN: one run in run.sh's RESULTS format (a round trip counts as a request).
measure_ws() {
    local before after out=$WORK/ws-$1-$2-$4.txt line
    require_alive "$2"
    before=$(target_ticks "$2")
    run_ws "$2" "$3" "$DURATION_SECS" "$out"
    require_alive "$2"
    after=$(target_ticks "$2")
    line=$(grep '^RESULT ' "$out" | tail -n 1) || { cat "$out" >&2; die "no RESULT line from WsBench ($2 $1)"; }
    local messages duration p99 errors
    messages=$(result_field messages "$line")
    duration=$(result_field duration_us "$line")
    p99=$(result_field p99_us "$line")
    errors=$(result_field errors "$line")
    RESULTS+="$1 $2 $4 $messages $duration $p99 $errors $((after - before))"$'\n'
    log "$(printf '%-14s %-8s run %d: %8.0f msg/s  p99 %6.2f ms  errors %d  cpu %d ticks' "$1" "$2" "$4" \
        "$(awk -v r="$messages" -v d="$duration" 'BEGIN { print r / (d / 1e6) }')" \
        "$(awk -v p="$p99" 'BEGIN { print p / 1000 }')" "$errors" $((after - before)))"
}

ws_main() {
    check_machine
    port_in_use "$WS_ORIGIN_PORT" && die "port $WS_ORIGIN_PORT is already in use"
    port_in_use "$WS_NGINX_PORT" && die "port $WS_NGINX_PORT is already in use"
    install_packages
    build_portico
    prepare_work
    cp "$HERE/nginx-ws.conf" "$WORK/"
    log "work directory $WORK"
    start_ws_origin
    start_nginx ws "$PROXY_CPU" "$WS_NGINX_PORT"
    start_portico
    create_vhost bench-ws "$WS_HOST" "\"upstreams\":[{\"url\":\"http://127.0.0.1:$WS_ORIGIN_PORT\"}]"
    local target check
    for target in "${TARGETS[@]}"; do
        run_ws "$target" 64 1 "$WORK/ws-check-$target.txt"
        check=$(grep '^RESULT ' "$WORK/ws-check-$target.txt") || { cat "$WORK/ws-check-$target.txt" >&2
            die "no WebSocket echo through $target"; }
        [[ $(result_field errors "$check") == 0 && $(result_field messages "$check") -gt 0 ]] \
            || die "WebSocket echo through $target: $check"
        log "$target relays WebSocket echoes: $check"
    done
    if [[ ${HOLD:-0} == 1 ]]; then
        log "HOLD: Portico pid $PORTICO_PID on :$PORTICO_PORT, nginx pid $NGINX_PID on :$WS_NGINX_PORT, origin" \
            "pid $ORIGIN_PID; work directory $WORK. Ctrl-C stops everything."
        while kill -0 "$PORTICO_PID" 2>/dev/null; do sleep 1; done
        die "Portico stopped"
    fi

    local scenario name size run round round_secs=$(((WARMUP_SECS + WARMUP_ROUNDS - 1) / WARMUP_ROUNDS))
    for scenario in "${WS_MEASURED[@]}"; do
        read -r name size <<<"$scenario"
        for ((round = 1; round <= WARMUP_ROUNDS; round++)); do
            for target in "${TARGETS[@]}"; do
                log "warm-up $round/$WARMUP_ROUNDS: $target $name for ${round_secs}s"
                run_ws "$target" "$size" "$round_secs" "$WORK/ws-$name-$target-warmup-$round.txt"
                require_alive "$target"
            done
        done
        for ((run = 1; run <= RUNS; run++)); do
            for target in "${TARGETS[@]}"; do
                measure_ws "$name" "$target" "$size" "$run"
            done
        done
    done
    CONNECTIONS=$WS_CONNECTIONS report
    printf 'ws-echo-*: "req/s" are echo round trips per second (two frames through the proxy each), CPU ms/1k req\n'
    printf 'is CPU ms per 1000 round trips; %d WebSocket connections, one message in flight on each.\n' \
        "$WS_CONNECTIONS"
}

ws_main "$@"
