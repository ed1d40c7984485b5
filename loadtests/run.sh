#!/usr/bin/env bash
# Starter benchmark: Portico and nginx, each as a reverse proxy in front of the same nginx origin.
#
#   bash loadtests/run.sh             # 5 measured runs of 8 s per scenario and target, after a warm-up
#   QUICK=1 bash loadtests/run.sh     # smoke: 1 run of 2 s each, 1 s warm-up
#
# Layout (2 CPUs needed): the proxy under test on CPU 0 (Portico with one event loop, or one nginx worker); the
# origin and wrk on CPU 1. Traffic stays on 127.0.0.1. Method and caveats: loadtests/README.md.
#
# Environment (all optional):
#   QUICK=1                      smoke mode
#   ONLY="1KiB hit-1KiB"         measure only these scenarios
#   RUNS, DURATION_SECS, WARMUP_SECS, WARMUP_ROUNDS, CONNECTIONS
#                                override the run shape (defaults 5, 8, 30, 5, 50)
#   PROXY_CPU=0, LOAD_CPU=1      the two CPUs
#   PORTICO_APP_DIR              a packaged fast-jar (default: target/quarkus-app; built when missing)
#   PORTICO_JAVA_OPTS            JVM flags (default: -XX:+UseSerialGC -Xms512m -Xmx512m)
#   QUARKUS_DATASOURCE_JDBC_URL (+ _USERNAME, _PASSWORD)   use this PostgreSQL instead of an embedded one
#   PORTICO_PORT, PORTICO_API_PORT, PORTICO_MGMT_PORT      Portico's ports (default 8080, 8081, 9000)
#   PORTICO_TLS_PORT             Portico's TLS listener (default 8443; the TLS scenarios are in tls.sh)
#   KEEP_WORK=1                  keep the temporary directory (logs, access log) even after a successful run
#   HOLD=1                       measure nothing: start everything, check it, print the PIDs and wait (to profile
#                                or strace a target by hand); Ctrl-C stops it all
set -euo pipefail
export LC_ALL=C       # "." as the decimal separator in printf and awk

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

if [[ ${QUICK:-0} == 1 ]]; then
    RUNS=${RUNS:-1} DURATION_SECS=${DURATION_SECS:-2} WARMUP_SECS=${WARMUP_SECS:-1} WARMUP_ROUNDS=${WARMUP_ROUNDS:-1}
else
    # A JVM pinned to one core compiles its hot paths for far longer than nginx needs to start: 30 s of warm-up
    # per target and scenario, then five measured runs whose median is reported.
    RUNS=${RUNS:-5} DURATION_SECS=${DURATION_SECS:-8} WARMUP_SECS=${WARMUP_SECS:-30}
fi
# The warm-up is cut into rounds that alternate the targets like the measured runs do, so that it also covers what
# every run brings: 50 connections opened and closed, and an idle proxy while the other target is measured. The JIT
# compiles branches never taken so far as traps; warmed up by one long run, Portico met its first connection close
# and first idle loop inside a measured run, and recompiled its hottest methods there (PrintCompilation: the event
# loop, the read path and the request handler "made not entrant"), costing a run 0.1-1.4 s of CPU for the compiler.
WARMUP_ROUNDS=${WARMUP_ROUNDS:-5}
if ((WARMUP_ROUNDS < 1 || WARMUP_SECS < WARMUP_ROUNDS)); then
    printf '[run.sh] ERROR: WARMUP_ROUNDS (%s) must be 1 to WARMUP_SECS (%s)\n' "$WARMUP_ROUNDS" "$WARMUP_SECS" >&2
    exit 1
fi
CONNECTIONS=${CONNECTIONS:-50}
PROXY_CPU=${PROXY_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
PORTICO_APP_DIR=${PORTICO_APP_DIR:-$ROOT/target/quarkus-app}
# SerialGC is what the JVM picks by itself for one CPU; G1's concurrent refinement and barriers cost about 60%
# more CPU per request on a single pinned core (measured: 70-80 vs 43-50 CPU ms per 1000 1 KiB requests).
PORTICO_JAVA_OPTS=${PORTICO_JAVA_OPTS:--XX:+UseSerialGC -Xms512m -Xmx512m}
PORTICO_PORT=${PORTICO_PORT:-8080}
PORTICO_API_PORT=${PORTICO_API_PORT:-8081}
PORTICO_MGMT_PORT=${PORTICO_MGMT_PORT:-9000}
PORTICO_TLS_PORT=${PORTICO_TLS_PORT:-8443}
ORIGIN_PORT=18081        # fixed in nginx-origin.conf
NGINX_PORT=18080         # fixed in nginx-proxy.conf
NGINX_TLS_PORT=18443     # fixed in nginx-proxy.conf (the TLS scenarios of tls.sh)
BENCH_HOST=bench.local
CLK_TCK=$(getconf CLK_TCK)

# name:path:expected size in bytes:host[:coding]. bench.local forwards every request; cache.local answers from the
# proxy's response cache (Portico's in-memory cache, nginx's proxy_cache), filled during the warm-up; static.local
# serves the same files from the proxy's own disk (Portico's "static" block, nginx's root), no origin involved;
# compress.local forwards and compresses text with the coding the client asks for (its size is then not checked,
# its Content-Encoding is). nginx has gzip only: the br and zstd scenarios measure Portico alone.
CACHE_HOST=cache.local
STATIC_HOST=static.local
COMPRESS_HOST=compress.local
SCENARIOS=("1KiB:/1k.bin:1024:$BENCH_HOST" "100KiB:/100k.bin:102400:$BENCH_HOST"
           "hit-1KiB:/1k.bin:1024:$CACHE_HOST" "hit-100KiB:/100k.bin:102400:$CACHE_HOST"
           "static-1KiB:/1k.bin:1024:$STATIC_HOST" "static-100KiB:/100k.bin:102400:$STATIC_HOST"
           "gzip-1KiB:/1k.txt::$COMPRESS_HOST:gzip" "gzip-100KiB:/100k.txt::$COMPRESS_HOST:gzip"
           "br-1KiB:/1k.txt::$COMPRESS_HOST:br" "br-100KiB:/100k.txt::$COMPRESS_HOST:br"
           "zstd-1KiB:/1k.txt::$COMPRESS_HOST:zstd" "zstd-100KiB:/100k.txt::$COMPRESS_HOST:zstd")
# ONLY="1KiB hit-1KiB" measures just those scenarios (all are still checked at start).
MEASURED=("${SCENARIOS[@]}")
if [[ -n ${ONLY:-} ]]; then
    MEASURED=()
    for scenario in "${SCENARIOS[@]}"; do
        if [[ " $ONLY " == *" ${scenario%%:*} "* ]]; then MEASURED+=("$scenario"); fi
    done
    ((${#MEASURED[@]} > 0)) || { printf '[run.sh] ERROR: ONLY=%s names no scenario\n' "$ONLY" >&2; exit 1; }
fi
TARGETS=(portico nginx)

WORK=""
ORIGIN_PID="" NGINX_PID="" PORTICO_PID=""
POLICY_RC_CREATED=0
VHOSTS_TO_DELETE=()
# 32 hex digits: Portico refuses to start with a token shorter than 16 characters.
ADMIN_TOKEN="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"

# tls.sh sources this file for its functions and sets its own name here.
LOG_NAME=${LOG_NAME:-run.sh}
log() { printf '[%s] %s\n' "$LOG_NAME" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ----------------------------------------------------------------------------------------------------- cleanup
stop_pid() {    # stop_pid PID SIGNAL SECONDS: signal one process we started, wait, then SIGKILL
    local pid=$1 signal=$2 secs=$3 i
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -s "$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < secs * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    log "process $pid did not stop after SIG$signal within ${secs}s; killing it"
    kill -s KILL "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    set +e
    if [[ -n $PORTICO_PID ]] && kill -0 "$PORTICO_PID" 2>/dev/null; then
        local url
        for url in "${VHOSTS_TO_DELETE[@]}"; do
            curl -sS -m 5 -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN_TOKEN" "$url"
        done
    fi
    # Portico drains and stops its embedded PostgreSQL itself on SIGTERM.
    stop_pid "$PORTICO_PID" TERM 45
    # If the JVM had to be killed, its embedded PostgreSQL is left behind: stop it by the PID it wrote, after
    # checking that this PID really is a postgres serving our data directory.
    if [[ -n $WORK && -f $WORK/pgdata/postmaster.pid ]]; then
        local pg_pid
        pg_pid=$(head -n 1 "$WORK/pgdata/postmaster.pid")
        if [[ $pg_pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pg_pid/cmdline" 2>/dev/null | grep -q "$WORK/pgdata"; then
            stop_pid "$pg_pid" INT 10
        fi
    fi
    stop_pid "$NGINX_PID" TERM 10
    stop_pid "$ORIGIN_PID" TERM 10
    if ((POLICY_RC_CREATED)); then
        rm -f /usr/sbin/policy-rc.d
    fi
    if [[ -n $WORK && -d $WORK ]]; then
        if [[ $status -ne 0 || ${KEEP_WORK:-0} == 1 ]]; then
            log "logs kept in $WORK (portico.log, logs/)"
        else
            rm -rf "$WORK"
        fi
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ----------------------------------------------------------------------------------------------------- checks
port_in_use() { ss -Htln "sport = :$1" 2>/dev/null | grep -q .; }

check_machine() {
    local cpus
    cpus=$(taskset -cp $$ | sed 's/.*: //')
    if ! taskset -c "$PROXY_CPU" true 2>/dev/null || ! taskset -c "$LOAD_CPU" true 2>/dev/null; then
        die "CPUs $PROXY_CPU and $LOAD_CPU are needed (this process may use: $cpus); set PROXY_CPU/LOAD_CPU"
    fi
    [[ $PROXY_CPU != "$LOAD_CPU" ]] || die "PROXY_CPU and LOAD_CPU must differ"
    local port
    for port in "$ORIGIN_PORT" "$NGINX_PORT" "$NGINX_TLS_PORT" "$PORTICO_PORT" "$PORTICO_TLS_PORT" \
        "$PORTICO_API_PORT" "$PORTICO_MGMT_PORT"; do
        ! port_in_use "$port" || die "port $port is already in use (another Portico or nginx running?)"
    done
    command -v java >/dev/null || die "java (17+) is needed to run Portico"
    command -v curl >/dev/null || die "curl is needed"
}

install_packages() {
    local need=()
    command -v nginx >/dev/null || need+=(nginx)
    command -v wrk >/dev/null || need+=(wrk)
    command -v openssl >/dev/null || need+=(openssl)     # the benchmark certificate (and tls.sh's s_time)
    command -v h2load >/dev/null || need+=(nghttp2-client)   # tls.sh's h2 scenario
    command -v jq >/dev/null || need+=(jq)
    ((${#need[@]} == 0)) && return 0
    [[ $(id -u) == 0 ]] || die "missing ${need[*]}: run 'sudo apt-get install -y nginx wrk' first"
    command -v apt-get >/dev/null || die "missing ${need[*]} and no apt-get to install them"
    # The Debian nginx package starts a system-wide nginx on port 80 after installing; policy-rc.d (the standard
    # Debian switch) forbids that for the duration of the install.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        POLICY_RC_CREATED=1
    fi
    log "installing ${need[*]} from Debian packages"
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get update -qq
    local pkg
    for pkg in "${need[@]}"; do
        if [[ $pkg == nginx ]]; then
            timeout 300 apt-get install -y -qq nginx-light >/dev/null \
                || timeout 300 apt-get install -y -qq nginx >/dev/null
        else
            timeout 300 apt-get install -y -qq "$pkg" >/dev/null
        fi
    done
    if ((POLICY_RC_CREATED)); then
        rm -f /usr/sbin/policy-rc.d
        POLICY_RC_CREATED=0
    fi
}

# ----------------------------------------------------------------------------------------------------- fixtures
# Deterministic content: a 64-character alphabet repeated up to the size (no randomness, same bytes every run).
make_file() {
    awk -v n="$2" 'BEGIN {
        s = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
        while (n > 0) { k = n < 64 ? n : 64; printf "%s", substr(s, 1, k); n -= k }
    }' >"$1"
}

# Real English text for the compression scenarios, the same on every Debian machine: the licence texts of the
# base-files package, in name order, cut to the size.
make_text() {
    local licences
    licences=$(find /usr/share/common-licenses -maxdepth 1 -type f | sort)
    # shellcheck disable=SC2086  # one path per word
    cat $licences >"$1.all"     # (not piped into head: with pipefail, cat's SIGPIPE would end the script)
    head -c "$2" "$1.all" >"$1"
    rm -f "$1.all"
    [[ $(stat -c %s "$1") == "$2" ]] || die "not enough text in /usr/share/common-licenses for $1"
}

prepare_work() {
    WORK=$(mktemp -d /tmp/portico-bench.XXXXXX)
    # nginx started as root runs its workers as "nobody": they must be able to read www/.
    chmod 755 "$WORK"
    mkdir -p "$WORK/www" "$WORK/logs" "$WORK/tmp"
    make_file "$WORK/www/1k.bin" 1024
    make_file "$WORK/www/100k.bin" 102400
    make_text "$WORK/www/1k.txt" 1024
    make_text "$WORK/www/100k.txt" 102400
    chmod 644 "$WORK"/www/*
    # nginx resolves ssl_certificate against the directory of its configuration file (not the -p prefix): the
    # configurations run from the work directory, next to the certificate.
    cp "$HERE/nginx-origin.conf" "$HERE/nginx-proxy.conf" "$WORK/"
    make_certificate "$WORK/tls"
}

# A throw-away ECDSA P-256 certificate for the TLS listeners, naming the benchmark's hosts: nginx reads it from
# tls/ (nginx-proxy.conf), tls.sh uploads the same one to Portico.
make_certificate() {
    mkdir -p "$1"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=$BENCH_HOST" \
        -addext "subjectAltName=DNS:$BENCH_HOST,DNS:$CACHE_HOST,DNS:$STATIC_HOST,DNS:$COMPRESS_HOST" \
        -keyout "$1/bench.key" -out "$1/bench.crt" 2>/dev/null || die "openssl could not make a certificate"
    chmod 644 "$1/bench.crt"
}

wait_http() {   # wait_http URL SECONDS [PID]: until URL answers 2xx; fail early if PID died
    local url=$1 secs=$2 pid=${3:-} i
    for ((i = 0; i < secs * 5; i++)); do
        curl -fsS -m 1 -o /dev/null "$url" 2>/dev/null && return 0
        if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
            return 1
        fi
        sleep 0.2
    done
    return 1
}

start_nginx() {     # start_nginx NAME CPU PORT: sets the global PID variable for NAME
    local name=$1 cpu=$2 port=$3 conf=$WORK/nginx-$1.conf
    nginx -t -q -p "$WORK/" -c "$conf" -e "$WORK/logs/$name-error.log" \
        || die "nginx rejected $conf (see $WORK/logs/$name-error.log)"
    taskset -c "$cpu" nginx -p "$WORK/" -c "$conf" -e "$WORK/logs/$name-error.log" \
        >"$WORK/logs/$name.out" 2>&1 &
    local pid=$!
    if [[ $name == origin ]]; then ORIGIN_PID=$pid; else NGINX_PID=$pid; fi
    wait_http "http://127.0.0.1:$port/1k.bin" 10 "$pid" || die "nginx $name did not come up on port $port"
    log "nginx $name listening on 127.0.0.1:$port (pid $pid, CPU $cpu)"
}

build_portico() {
    [[ -f $PORTICO_APP_DIR/quarkus-run.jar ]] && return 0
    [[ $PORTICO_APP_DIR == "$ROOT/target/quarkus-app" ]] || die "no quarkus-run.jar in $PORTICO_APP_DIR"
    log "building Portico (./mvnw -B -q package -DskipTests)"
    (cd "$ROOT" && timeout 900 ./mvnw -B -q package -DskipTests) || die "the build failed"
}

start_portico() {
    local db_note
    if [[ -n ${QUARKUS_DATASOURCE_JDBC_URL:-} ]]; then
        db_note="PostgreSQL from QUARKUS_DATASOURCE_JDBC_URL"
    else
        db_note="embedded PostgreSQL in $WORK/pgdata"
    fi
    log "starting Portico on CPU $PROXY_CPU ($db_note)"
    # Started from $WORK so that no .env or config/ of the repository is picked up. Bound to 127.0.0.1 only: the
    # management API runs with a throw-away token. One event loop, like nginx's one worker.
    (
        cd "$WORK"
        export PORTICO_ADMIN_TOKEN=$ADMIN_TOKEN
        export PORTICO_LOCAL_DB_DIR=$WORK/pgdata
        export PORTICO_DATAPLANE_EVENT_LOOPS=1
        export PORTICO_DATAPLANE_HOST=127.0.0.1 PORTICO_DATAPLANE_PORT=$PORTICO_PORT
        export QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$PORTICO_API_PORT
        export QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=$PORTICO_MGMT_PORT
        export PORTICO_DATAPLANE_TLS_PORT=$PORTICO_TLS_PORT
        # shellcheck disable=SC2086  # PORTICO_JAVA_OPTS is a list of flags
        exec taskset -c "$PROXY_CPU" java $PORTICO_JAVA_OPTS -jar "$PORTICO_APP_DIR/quarkus-run.jar"
    ) >"$WORK/portico.log" 2>&1 &
    PORTICO_PID=$!
    if ! wait_http "http://127.0.0.1:$PORTICO_MGMT_PORT/q/health/ready" 120 "$PORTICO_PID"; then
        tail -n 40 "$WORK/portico.log" >&2 || true
        die "Portico did not become ready (log: $WORK/portico.log)"
    fi
    log "Portico ready (pid $PORTICO_PID)"
}

create_vhost() {     # create_vhost NAME HOST FIELDS_JSON: the vhost's fields besides name and hostnames
    local api=http://127.0.0.1:$PORTICO_API_PORT/api/v1/vhosts code
    code=$(curl -sS -m 10 -o "$WORK/vhost-$1.json" -w '%{http_code}' -X POST "$api" \
        -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
        -d "{\"name\":\"$1\",\"hostnames\":[\"$2\"],$3}")
    case $code in
        201)
            log "vhost $1 ($2) created: $3"
            if [[ -n ${QUARKUS_DATASOURCE_JDBC_URL:-} ]]; then   # an external database: do not leave it behind
                local id
                id=$(grep -o '"id":"[^"]*"' "$WORK/vhost-$1.json" | head -n 1 | cut -d '"' -f 4)
                [[ -n $id ]] && VHOSTS_TO_DELETE+=("$api/$id")
            fi
            ;;
        409) log "vhost $1 already exists in this database; using it as it is" ;;
        *) cat "$WORK/vhost-$1.json" >&2; die "creating vhost $1 answered HTTP $code" ;;
    esac
}

# Each target must return the right file before anything is measured.
check_targets() {
    local scenario name path size host target port got
    local coding expected
    for scenario in "${SCENARIOS[@]}"; do
        IFS=: read -r name path size host coding <<<"$scenario"
        for target in $(scenario_targets "$coding"); do
            port=$(target_port "$target")
            if [[ -n $coding ]]; then
                # status and Content-Encoding, e.g. "200 br"
                got=$(curl -sS -m 5 -o /dev/null -D - -H "Host: $host" -H "Accept-Encoding: $coding" \
                    "http://127.0.0.1:$port$path" | tr -d '\r' \
                    | awk 'NR == 1 { s = $2 } tolower($1) == "content-encoding:" { e = $2 } END { print s " " e }')
                expected="200 $coding"
            else
                got=$(curl -sS -m 5 -o /dev/null -w '%{http_code} %{size_download}' \
                    -H "Host: $host" "http://127.0.0.1:$port$path")
                expected="200 $size"
            fi
            [[ $got == "$expected" ]] || die "$target $host$path answered '$got', expected '$expected'"
        done
    done
    log "both targets serve every scenario; response headers through Portico, forwarded, from the cache, from disk:"
    for host in "$BENCH_HOST" "$CACHE_HOST" "$STATIC_HOST"; do
        curl -sS -m 5 -o /dev/null -D - -H "Host: $host" "http://127.0.0.1:$PORTICO_PORT/1k.bin" \
            | tr -d '\r' | sed -e '/^$/d' -e 's/^/    /' >&2
    done
    log "and through nginx from its cache and from disk:"
    for host in "$CACHE_HOST" "$STATIC_HOST"; do
        curl -sS -m 5 -o /dev/null -D - -H "Host: $host" "http://127.0.0.1:$NGINX_PORT/1k.bin" \
            | tr -d '\r' | sed -e '/^$/d' -e 's/^/    /' >&2
    done
}

# ----------------------------------------------------------------------------------------------------- measuring
target_port() { if [[ $1 == portico ]]; then echo "$PORTICO_PORT"; else echo "$NGINX_PORT"; fi; }

# Where wrk sends a target's requests (tls.sh redefines it for https).
target_url() { echo "http://127.0.0.1:$(target_port "$1")"; }

# The targets of a scenario, by its coding: nginx (Debian's) compresses with gzip only.
scenario_targets() { if [[ -z $1 || $1 == gzip ]]; then echo "${TARGETS[*]}"; else echo portico; fi; }

# utime + stime of one process (all its threads), in clock ticks: fields 14 and 15 of /proc/PID/stat, counted
# after the parenthesised command name, which may itself contain spaces.
proc_ticks() {
    local stat rest
    stat=$(<"/proc/$1/stat") || return 1
    rest=${stat##*) }
    local -a f
    read -r -a f <<<"$rest"
    echo $((f[11] + f[12]))
}

# CPU ticks of a target: the JVM for Portico (not its embedded PostgreSQL child); master + workers for nginx.
target_ticks() {
    local total pid
    if [[ $1 == portico ]]; then
        proc_ticks "$PORTICO_PID"
        return
    fi
    total=$(proc_ticks "$NGINX_PID")
    for pid in $(pgrep -P "$NGINX_PID" || true); do
        total=$((total + $(proc_ticks "$pid" || echo 0)))
    done
    echo "$total"
}

# CPU ticks of Portico's JIT compiler threads (C1/C2 CompilerThreadN), 0 for nginx: CPU a run spends compiling
# rather than serving, counted in the target's total like any other thread and reported apart (report's "JIT"
# column) so that a run still warming up shows as one. The JVM starts and stops compiler threads as its queue
# grows and shrinks; the ticks of one that ended between two readings are lost, so the difference is a floor.
jit_ticks() {
    local total=0 task stat rest
    local -a f
    if [[ $1 == portico ]]; then
        for task in /proc/"$PORTICO_PID"/task/*; do
            [[ $(<"$task/comm") == C[12]\ CompilerThre* ]] 2>/dev/null || continue
            stat=$(<"$task/stat") 2>/dev/null || continue
            rest=${stat##*) }
            read -r -a f <<<"$rest"
            total=$((total + f[11] + f[12]))
        done
    fi
    echo "$total"
}

# ticks_between BEFORE AFTER: AFTER - BEFORE, not below 0 (jit_ticks' threads can end)
ticks_between() { echo $(($2 > $1 ? $2 - $1 : 0)); }

run_wrk() {     # run_wrk TARGET PATH SECONDS OUTFILE HOST [EXPECTED_BODY_BYTES [CODING]]
    # Bounded twice: wrk's own -d, and timeout(1) in case wrk hangs.
    EXPECT_BYTES=${6:-} ACCEPT_ENCODING=${7:-} BENCH_HOST=$5 timeout -k 5 $(($3 + 30)) \
        taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"$3"s --timeout 5s -s "$HERE/report.lua" \
        "$(target_url "$1")$2" >"$4" 2>&1 || log "wrk exited with status $? ($1 $2)"
}

result_field() {     # result_field NAME LINE: the number after " NAME=" in a RESULT line
    [[ $2 =~ \ $1=([0-9]+) ]] || die "no $1 in: $2"
    echo "${BASH_REMATCH[1]}"
}

RESULTS=""   # lines: scenario target run requests duration_us p99_us errors cpu_ticks [jit_ticks]

require_alive() {   # require_alive TARGET: stop with a clear message when a proxy under test has died
    local pid=$NGINX_PID
    [[ $1 == portico ]] && pid=$PORTICO_PID
    kill -0 "$pid" 2>/dev/null && return 0
    [[ $1 == portico ]] && tail -n 20 "$WORK/portico.log" >&2
    die "$1 (pid $pid) is no longer running; logs in $WORK"
}

measure() {     # measure SCENARIO TARGET PATH RUN BODY_BYTES HOST CODING
    local before after jit_before jit out=$WORK/wrk-$1-$2-$4.txt line
    require_alive "$2"
    jit_before=$(jit_ticks "$2")
    before=$(target_ticks "$2")
    run_wrk "$2" "$3" "$DURATION_SECS" "$out" "$6" "$5" "$7"
    require_alive "$2"
    after=$(target_ticks "$2")
    jit=$(ticks_between "$jit_before" "$(jit_ticks "$2")")
    line=$(grep '^RESULT ' "$out" | tail -n 1) || { cat "$out" >&2; die "no RESULT line from wrk ($2 $3)"; }
    # RESULT requests=N duration_us=N p50_us=N p99_us=N max_us=N non2xx=N socket_errors=N bytes=N
    local requests duration p99 sockerr bad
    requests=$(result_field requests "$line")
    duration=$(result_field duration_us "$line")
    p99=$(result_field p99_us "$line")
    sockerr=$(result_field socket_errors "$line")
    bad=$(result_field bad "$line")     # every response checked: status 200 and the file's exact size
    RESULTS+="$1 $2 $4 $requests $duration $p99 $((bad + sockerr)) $((after - before)) $jit"$'\n'
    log "$(printf '%-10s %-8s run %d: %8.0f req/s  p99 %6.2f ms  errors %d  cpu %d ticks (JIT %d)' "$1" "$2" \
        "$4" "$(awk -v r="$requests" -v d="$duration" 'BEGIN { print r / (d / 1e6) }')" \
        "$(awk -v p="$p99" 'BEGIN { print p / 1000 }')" $((bad + sockerr)) $((after - before)) "$jit")"
}

report() {
    printf '\nResults: median of %d run(s) of %ds, wrk -t1 -c%d; errors summed over the runs\n' \
        "$RUNS" "$DURATION_SECS" "$CONNECTIONS"
    awk -v tck="$CLK_TCK" '
        function median(list,    n, a, i, j, t) {     # insertion sort, then the middle (mean of two if even)
            n = split(list, a, " ")
            for (i = 2; i <= n; i++) {
                t = a[i]
                for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
                a[j + 1] = t
            }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        NF >= 8 {   # scenario target run requests duration_us p99_us errors cpu_ticks [jit_ticks]
            k = $1 SUBSEP $2
            if (!(k in seen)) { seen[k] = 1; order[++count] = k }
            rps[k] = rps[k] " " $4 / ($5 / 1e6)
            p99[k] = p99[k] " " $6 / 1000
            err[k] += $7
            cpu[k] = cpu[k] " " ($4 > 0 ? ($8 * 1000 / tck) / $4 * 1000 : 0)    # CPU ms per 1000 requests
            if (NF >= 9 && $2 == "portico") jit[k] = jit[k] " " ($8 > 0 ? 100 * $9 / $8 : 0)   # % of the CPU
        }
        END {
            head = "%-19s %-8s %12s %10s %8s %14s %13s %6s\n"
            row = "%-19s %-8s %12.0f %10.2f %8d %14.1f %13s %6s\n"
            printf head, "scenario", "target", "req/s", "p99 ms", "errors", "CPU ms/1k req", "CPU vs nginx", "JIT"
            for (i = 1; i <= count; i++) {
                k = order[i]; split(k, parts, SUBSEP)
                c = median(cpu[k]); n = cpu[parts[1] SUBSEP "nginx"]
                ratio = (n != "" && median(n) > 0) ? sprintf("%.2fx", c / median(n)) : "-"
                compiling = (k in jit) ? sprintf("%.1f%%", median(jit[k])) : "-"
                printf row, parts[1], parts[2], median(rps[k]), median(p99[k]), err[k], c, ratio, compiling
            }
        }' <<<"$RESULTS"
    printf 'CPU: utime+stime of the proxy process(es) on CPU %s, from /proc/PID/stat (%s ticks/s).\n' \
        "$PROXY_CPU" "$CLK_TCK"
    printf 'JIT: the share of the CPU above that Portico spent in its JIT compiler threads (median of the runs);\n'
    printf 'well above 0%% means Portico was still compiling its hot paths: not warmed up yet.\n'
}

# ----------------------------------------------------------------------------------------------------- main
main() {
    check_machine
    install_packages
    build_portico
    prepare_work
    log "work directory $WORK"
    start_nginx origin "$LOAD_CPU" "$ORIGIN_PORT"
    start_nginx proxy "$PROXY_CPU" "$NGINX_PORT"
    start_portico
    local upstreams="\"upstreams\":[{\"url\":\"http://127.0.0.1:$ORIGIN_PORT\"}]"
    create_vhost bench "$BENCH_HOST" "$upstreams"
    create_vhost bench-cache "$CACHE_HOST" "$upstreams,\"cache\":{\"enabled\":true}"
    # The files the origin serves, served by the proxy itself (nginx: root www in nginx-proxy.conf).
    create_vhost bench-static "$STATIC_HOST" "\"static\":{\"root\":\"$WORK/www\"}"
    create_vhost bench-compress "$COMPRESS_HOST" "$upstreams,\"compression\":{\"enabled\":true}"
    check_targets
    if [[ ${HOLD:-0} == 1 ]]; then
        log "HOLD: Portico pid $PORTICO_PID on :$PORTICO_PORT, nginx proxy pid $NGINX_PID on :$NGINX_PORT," \
            "origin pid $ORIGIN_PID on :$ORIGIN_PORT; work directory $WORK. Ctrl-C (or SIGTERM) stops everything."
        while kill -0 "$PORTICO_PID" 2>/dev/null; do sleep 1; done
        die "Portico stopped"
    fi

    local scenario name path size host coding target run
    for scenario in "${MEASURED[@]}"; do
        IFS=: read -r name path size host coding <<<"$scenario"
        local round round_secs=$(((WARMUP_SECS + WARMUP_ROUNDS - 1) / WARMUP_ROUNDS))
        for ((round = 1; round <= WARMUP_ROUNDS; round++)); do
            for target in $(scenario_targets "$coding"); do
                log "warm-up $round/$WARMUP_ROUNDS: $target $host$path for ${round_secs}s"
                run_wrk "$target" "$path" "$round_secs" "$WORK/wrk-$name-$target-warmup-$round.txt" "$host" "" \
                    "$coding"
                require_alive "$target"
            done
        done
        # Interleave the targets run by run, so slow drift on the machine affects both alike.
        for ((run = 1; run <= RUNS; run++)); do
            for target in $(scenario_targets "$coding"); do
                measure "$name" "$target" "$path" "$run" "$size" "$host" "$coding"
            done
        done
    done
    report
}

# Sourced (by tls.sh): functions only.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
