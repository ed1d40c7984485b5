#!/usr/bin/env bash
# The cost of access policies on the hot path (issue 17): forwarding 1 KiB through a vhost with no policy against
# the same through a vhost with an IP rule, a rate limit (high enough that nothing is refused) and basic auth (a
# good credential, remembered after its first bcrypt check). Both get byte-identical requests apart from the Host
# (two names of the same length), each with the same Authorization header. Reports requests per second and
# Portico's CPU time per request for each, and the difference.
#
#   bash loadtests/policies.sh                    # warm-up 2 x 10 s each, then 2 x 20 s each, alternating (~3 min)
#   RUNS=3 DURATION_SECS=30 bash loadtests/policies.sh
#
# Loopback only; every run bounded (wrk -d and timeout). Portico on CPU 0 with one event loop, the nginx origin and
# wrk on CPU 1, as run.sh arranges them (this script sources it for its functions).
set -euo pipefail

LOG_NAME=policies.sh
unset ONLY
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"

RUNS=${POLICY_RUNS:-2}
DURATION_SECS=${POLICY_SECS:-20}
WARMUP_SECS=${POLICY_WARMUP_SECS:-10}
PLAIN_HOST=plain.local
GUARD_HOST=guard.local
# ann:bench-password; the vhost stores only its bcrypt hash.
AUTHORIZATION="Basic $(printf 'ann:bench-password' | base64)"

policy_wrk() {   # policy_wrk HOST SECONDS OUTFILE
    EXPECT_BYTES=1024 BENCH_HOST=$1 timeout -k 5 $(($2 + 30)) \
        taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"$2"s --timeout 5s -s "$HERE/report.lua" \
        -H "Authorization: $AUTHORIZATION" "http://127.0.0.1:$PORTICO_PORT/1k.bin" >"$3" 2>&1 ||
        log "wrk exited with status $? ($1)"
}

policy_measure() {   # policy_measure NAME HOST RUN: appends "NAME requests duration_us ticks bad" to RESULTS
    local out=$WORK/wrk-$1-$3.txt before after line
    require_alive portico
    before=$(target_ticks portico)
    policy_wrk "$2" "$DURATION_SECS" "$out"
    after=$(target_ticks portico)
    line=$(grep '^RESULT ' "$out" | tail -n 1) || { cat "$out" >&2; die "no RESULT line from wrk ($1)"; }
    local requests duration bad sockerr
    requests=$(result_field requests "$line")
    duration=$(result_field duration_us "$line")
    bad=$(result_field bad "$line")
    sockerr=$(result_field socket_errors "$line")
    RESULTS+="$1 $requests $duration $((after - before)) $((bad + sockerr))"$'\n'
    log "$(printf '%-8s run %d: %8.0f req/s  cpu %d ticks  errors %d' "$1" "$3" \
        "$(awk -v r="$requests" -v d="$duration" 'BEGIN { print r / (d / 1e6) }')" $((after - before)) \
        $((bad + sockerr)))"
}

policies_main() {
    check_machine
    install_packages
    build_portico
    prepare_work
    log "work directory $WORK"
    start_nginx origin "$LOAD_CPU" "$ORIGIN_PORT"
    start_portico
    local upstreams="\"upstreams\":[{\"url\":\"http://127.0.0.1:$ORIGIN_PORT\"}]"
    create_vhost plain "$PLAIN_HOST" "$upstreams"
    create_vhost guard "$GUARD_HOST" "$upstreams,\"access\":{\"allow\":[\"127.0.0.0/8\"]},\
\"rateLimit\":{\"requestsPerSecond\":1000000,\"burst\":1000000,\"key\":\"client\"},\
\"basicAuth\":{\"realm\":\"bench\",\"users\":[{\"name\":\"ann\",\"password\":\"bench-password\"}]}"
    local code host
    for host in "$PLAIN_HOST" "$GUARD_HOST"; do
        code=$(curl -sS -m 10 -o /dev/null -w '%{http_code}' -H "Host: $host" -H "Authorization: $AUTHORIZATION" \
            "http://127.0.0.1:$PORTICO_PORT/1k.bin")
        [[ $code == 200 ]] || die "$host answered $code to the start-up check"
    done
    code=$(curl -sS -m 10 -o /dev/null -w '%{http_code}' -H "Host: $GUARD_HOST" "http://127.0.0.1:$PORTICO_PORT/1k.bin")
    [[ $code == 401 ]] || die "$GUARD_HOST let a request without credentials through ($code)"

    local round run
    for round in 1 2; do
        for host in "$PLAIN_HOST" "$GUARD_HOST"; do
            log "warm-up $round/2: $host for ${WARMUP_SECS}s"
            policy_wrk "$host" "$WARMUP_SECS" "$WORK/wrk-warmup-$host-$round.txt"
        done
    done
    for ((run = 1; run <= RUNS; run++)); do
        policy_measure plain "$PLAIN_HOST" "$run"
        policy_measure policies "$GUARD_HOST" "$run"
    done

    printf '\nPolicies run %s (commit %s), forward 1 KiB, %d x %d s each, wrk -c%d\n' "$(date -u +%Y-%m-%dT%H:%MZ)" \
        "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" "$RUNS" "$DURATION_SECS" "$CONNECTIONS"
    printf '%s' "$RESULTS" | awk -v tck="$CLK_TCK" '
        { req[$1] += $2; dur[$1] += $3; ticks[$1] += $4; bad[$1] += $5 }
        END {
            for (n in req) {
                rps[n] = req[n] / (dur[n] / 1e6); us[n] = ticks[n] / tck * 1e6 / req[n]
                printf "%-9s %9.0f req/s  %6.2f us CPU/request  errors %d\n", n, rps[n], us[n], bad[n]
            }
            printf "policies vs plain: throughput %+.1f%%, CPU per request %+.1f%%\n",
                100 * (rps["policies"] / rps["plain"] - 1), 100 * (us["policies"] / us["plain"] - 1)
        }'
}

policies_main "$@"
