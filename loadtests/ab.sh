#!/usr/bin/env bash
# Two builds of Portico side by side: which one spends less CPU per forwarded request on this machine, now.
#
#   A_APP=/tmp/app-before B_APP=/tmp/app-after bash loadtests/ab.sh
#
# Why: on a shared 2-core VM the CPU per request of the same build moves by a third between runs minutes apart
# (loadtests/README.md), so two run.sh runs, one per build, say little about a change of a few per cent. Here both
# builds run at once, each with one event loop and both pinned to the proxy CPU, sharing one database (and so the
# same vhosts); the same wrk loads them in turn, ROUNDS times, and every round compares two measurements taken
# seconds apart. Build A is started by run.sh (HOLD=1: its origin, nginx and database), build B next to it.
#
# Environment:
#   A_APP, B_APP         packaged fast-jars (target/quarkus-app of each build; copy them out of the worktrees)
#   NAMES="100KiB 1KiB"  run.sh scenarios to measure (their path, size and host); forwarding ones by default
#   ROUNDS=12, SECS=10   measured rounds per scenario, seconds per measurement
#   WARMUP_SECS=60       per build and scenario before measuring, in four alternating parts
#   PORTICO_JAVA_OPTS    as in run.sh, for both builds
set -euo pipefail
export LC_ALL=C

LOG_NAME=ab.sh
unset ONLY
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"   # proc_ticks, run_wrk, result_field, SCENARIOS

: "${A_APP:?A_APP: the first build's quarkus-app directory}" "${B_APP:?B_APP: the second build's quarkus-app directory}"
NAMES=${NAMES:-100KiB 1KiB}
ROUNDS=${ROUNDS:-12}
SECS=${SECS:-10}
WARMUP_SECS=${WARMUP_SECS:-60}
A_PORT=8080
B_PORT=8090
OUT=$(mktemp -d /tmp/portico-ab.XXXXXX)
LOG=$OUT/run.log

RUN_PID='' B_PID=''
stop_builds() {
    [[ -n $B_PID ]] && kill "$B_PID" 2>/dev/null || true
    [[ -n $RUN_PID ]] && kill "$RUN_PID" 2>/dev/null || true
    wait 2>/dev/null || true
}
# Replaces run.sh's own trap: what runs here is stopped here; run.sh stops what it started itself.
trap stop_builds EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "starting build A with run.sh HOLD=1 (log: $LOG)"
PORTICO_APP_DIR=$A_APP HOLD=1 bash "$HERE/run.sh" >"$LOG" 2>&1 &
RUN_PID=$!
for _ in $(seq 1 180); do
    grep -q 'HOLD: Portico pid' "$LOG" && break
    kill -0 "$RUN_PID" 2>/dev/null || { tail -n 30 "$LOG" >&2; die "run.sh stopped"; }
    sleep 1
done
HOLD_LINE=$(grep 'HOLD: Portico pid' "$LOG") || die "run.sh did not get ready"
A_PID=$(sed -E 's/.*Portico pid ([0-9]+).*/\1/' <<<"$HOLD_LINE")
HOLD_WORK=$(sed -E 's/.*work directory ([^ ]+)\..*/\1/' <<<"$HOLD_LINE")
DB_URL=$(grep -o 'local PostgreSQL is listening at [^ ]*' "$HOLD_WORK/portico.log" | awk '{print $NF}')
[[ -n $DB_URL ]] || die "no local PostgreSQL URL in $HOLD_WORK/portico.log"

log "starting build B on :$B_PORT with A's database ($DB_URL)"
mkdir -p "$HOLD_WORK/b"
(
    cd "$HOLD_WORK/b"
    export PORTICO_ADMIN_TOKEN="ab-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    export PORTICO_DATAPLANE_EVENT_LOOPS=1 PORTICO_DATAPLANE_HOST=127.0.0.1 PORTICO_DATAPLANE_PORT=$B_PORT
    export PORTICO_DATAPLANE_TLS_PORT=8453 QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=8091
    export QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=9010
    export QUARKUS_DATASOURCE_JDBC_URL=$DB_URL QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD=postgres
    # shellcheck disable=SC2086  # a list of flags
    exec taskset -c "$PROXY_CPU" java ${PORTICO_JAVA_OPTS:--XX:+UseSerialGC -Xms512m -Xmx512m} \
        -jar "$B_APP/quarkus-run.jar"
) >"$HOLD_WORK/b/portico.log" 2>&1 &
B_PID=$!
for _ in $(seq 1 120); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: bench.local' "http://127.0.0.1:$B_PORT/1k.bin" || true)
    [[ $code == 200 ]] && break
    kill -0 "$B_PID" 2>/dev/null || { tail -n 30 "$HOLD_WORK/b/portico.log" >&2; die "build B stopped"; }
    sleep 1
done
[[ $code == 200 ]] || die "build B does not serve bench.local (log: $HOLD_WORK/b/portico.log)"

# CPU ms per 1000 requests of PID while wrk loads PORT with the scenario for SECS seconds; every response is
# checked for status and size (run.sh's report.lua), and any failure stops the comparison.
cpu_per_1000() {    # cpu_per_1000 PID PORT PATH SIZE HOST SECS
    local before after out=$OUT/wrk.txt line requests
    before=$(proc_ticks "$1")
    PORTICO_PORT=$2 run_wrk portico "$3" "$6" "$out" "$5" "$4"
    after=$(proc_ticks "$1")
    line=$(grep '^RESULT ' "$out" | tail -n 1) || { cat "$out" >&2; die "no RESULT line from wrk (:$2$3)"; }
    (($(result_field bad "$line") + $(result_field socket_errors "$line") == 0)) || die "errors from :$2$3: $line"
    requests=$(result_field requests "$line")
    awk -v t=$((after - before)) -v r="$requests" -v hz="$CLK_TCK" 'BEGIN{printf "%.1f", t * 1000 / hz * 1000 / r}'
}

for wanted in $NAMES; do
    scenario=''
    for candidate in "${SCENARIOS[@]}"; do
        [[ ${candidate%%:*} == "$wanted" ]] && scenario=$candidate
    done
    IFS=: read -r name path size host coding <<<"$scenario"
    [[ -n $scenario && -n $size && -z $coding ]] || die "$wanted: not a run.sh scenario of fixed size without a coding"
    part=$((WARMUP_SECS / 4))
    log "warming both builds up on $name (${WARMUP_SECS}s each)"
    for _ in 1 2 3 4; do
        cpu_per_1000 "$A_PID" "$A_PORT" "$path" "$size" "$host" "$part" >/dev/null
        cpu_per_1000 "$B_PID" "$B_PORT" "$path" "$size" "$host" "$part" >/dev/null
    done
    ratios=() sum_a=0 sum_b=0
    for round in $(seq 1 "$ROUNDS"); do
        if ((round % 2)); then
            a=$(cpu_per_1000 "$A_PID" "$A_PORT" "$path" "$size" "$host" "$SECS")
            b=$(cpu_per_1000 "$B_PID" "$B_PORT" "$path" "$size" "$host" "$SECS")
        else   # every other round B goes first, so neither build always follows the other
            b=$(cpu_per_1000 "$B_PID" "$B_PORT" "$path" "$size" "$host" "$SECS")
            a=$(cpu_per_1000 "$A_PID" "$A_PORT" "$path" "$size" "$host" "$SECS")
        fi
        ratio=$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", b / a}')
        ratios+=("$ratio")
        sum_a=$(awk -v s="$sum_a" -v x="$a" 'BEGIN{print s + x}')
        sum_b=$(awk -v s="$sum_b" -v x="$b" 'BEGIN{print s + x}')
        printf '%-10s round %2d  A %6.1f  B %6.1f  CPU ms/1000 req  B/A %s\n' "$name" "$round" "$a" "$b" "$ratio"
    done
    median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
    printf '%-10s B/A: %.3f over all rounds (%s against %s), median of the rounds %.3f\n' "$name" \
        "$(awk -v a="$sum_a" -v b="$sum_b" 'BEGIN{print b / a}')" "$sum_b" "$sum_a" "$median"
done
