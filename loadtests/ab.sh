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
#   PATHS="/100k.bin /1k.bin"   what to fetch from bench.local (the forward scenarios of run.sh)
#   ROUNDS=12, SECS=10   measured rounds per path, seconds per measurement
#   WARMUP_SECS=60       per build and path before measuring, in four alternating parts
#   PORTICO_JAVA_OPTS    as in run.sh, for both builds
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${A_APP:?A_APP: the first build's quarkus-app directory}" "${B_APP:?B_APP: the second build's quarkus-app directory}"
PATHS=${PATHS:-/100k.bin /1k.bin}
ROUNDS=${ROUNDS:-12}
SECS=${SECS:-10}
WARMUP_SECS=${WARMUP_SECS:-60}
PROXY_CPU=${PROXY_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
A_PORT=8080
B_PORT=8090
CLK_TCK=$(getconf CLK_TCK)
LOG=$(mktemp /tmp/portico-ab.XXXXXX)

log() { printf '[ab.sh] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

RUN_PID='' B_PID=''
cleanup() {
    [[ -n $B_PID ]] && kill "$B_PID" 2>/dev/null || true
    [[ -n $RUN_PID ]] && kill "$RUN_PID" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

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
WORK=$(sed -E 's/.*work directory ([^ ]+)\..*/\1/' <<<"$HOLD_LINE")
DB_URL=$(grep -o 'local PostgreSQL is listening at [^ ]*' "$WORK/portico.log" | awk '{print $NF}')
[[ -n $DB_URL ]] || die "no local PostgreSQL URL in $WORK/portico.log"

log "starting build B on :$B_PORT with A's database ($DB_URL)"
mkdir -p "$WORK/b"
(
    cd "$WORK/b"
    export PORTICO_ADMIN_TOKEN="ab-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    export PORTICO_DATAPLANE_EVENT_LOOPS=1 PORTICO_DATAPLANE_HOST=127.0.0.1 PORTICO_DATAPLANE_PORT=$B_PORT
    export PORTICO_DATAPLANE_TLS_PORT=8453 QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=8091
    export QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=9010
    export QUARKUS_DATASOURCE_JDBC_URL=$DB_URL QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD=postgres
    # shellcheck disable=SC2086  # a list of flags
    exec taskset -c "$PROXY_CPU" java ${PORTICO_JAVA_OPTS:--XX:+UseSerialGC -Xms512m -Xmx512m} \
        -jar "$B_APP/quarkus-run.jar"
) >"$WORK/b/portico.log" 2>&1 &
B_PID=$!
for _ in $(seq 1 120); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: bench.local' "http://127.0.0.1:$B_PORT/1k.bin" || true)
    [[ $code == 200 ]] && break
    kill -0 "$B_PID" 2>/dev/null || { tail -n 30 "$WORK/b/portico.log" >&2; die "build B stopped"; }
    sleep 1
done
[[ $code == 200 ]] || die "build B does not serve bench.local (log: $WORK/b/portico.log)"

# CPU ms per 1000 requests of PID while wrk loads PORT with PATH for SECS seconds; no error allowed.
measure() {
    local pid=$1 port=$2 path=$3 secs=$4 u0 s0 u1 s1 out requests
    read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
    out=$(taskset -c "$LOAD_CPU" wrk -t1 -c50 -d"${secs}s" -H 'Host: bench.local' "http://127.0.0.1:$port$path")
    read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
    grep -q 'Non-2xx\|Socket errors' <<<"$out" && die "errors from :$port$path: $out"
    requests=$(awk '/requests in/{print $1}' <<<"$out")
    awk -v t=$(((u1 - u0) + (s1 - s0))) -v r="$requests" -v hz="$CLK_TCK" 'BEGIN{printf "%.1f", t * 1000 / hz * 1000 / r}'
}

for path in $PATHS; do
    part=$((WARMUP_SECS / 4))
    log "warming both builds up on $path (${WARMUP_SECS}s each)"
    for _ in 1 2 3 4; do
        measure "$A_PID" "$A_PORT" "$path" "$part" >/dev/null
        measure "$B_PID" "$B_PORT" "$path" "$part" >/dev/null
    done
    ratios=() sum_a=0 sum_b=0
    for round in $(seq 1 "$ROUNDS"); do
        if ((round % 2)); then
            a=$(measure "$A_PID" "$A_PORT" "$path" "$SECS"); b=$(measure "$B_PID" "$B_PORT" "$path" "$SECS")
        else   # every other round B goes first, so neither build always follows the other
            b=$(measure "$B_PID" "$B_PORT" "$path" "$SECS"); a=$(measure "$A_PID" "$A_PORT" "$path" "$SECS")
        fi
        ratio=$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", b / a}')
        ratios+=("$ratio")
        sum_a=$(awk -v s="$sum_a" -v x="$a" 'BEGIN{print s + x}')
        sum_b=$(awk -v s="$sum_b" -v x="$b" 'BEGIN{print s + x}')
        printf '%-10s round %2d  A %6.1f  B %6.1f  CPU ms/1000 req  B/A %s\n' "$path" "$round" "$a" "$b" "$ratio"
    done
    median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
    printf '%-10s B/A: %.3f over all rounds (%s against %s), median of the rounds %.3f\n' "$path" \
        "$(awk -v a="$sum_a" -v b="$sum_b" 'BEGIN{print b / a}')" "$sum_b" "$sum_a" "$median"
done
