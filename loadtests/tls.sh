#!/usr/bin/env bash
# TLS benchmark: Portico's TLS listener against nginx's, the same certificate (ECDSA P-256, made at run time), the
# same protocol and cipher suite, the same forwarding work as run.sh (nginx-proxy.conf's servers, on port 18443).
#
#   bash loadtests/tls.sh             # warm-up, then 5 measured runs of 8 s per scenario and target
#   QUICK=1 bash loadtests/tls.sh     # smoke: 1 run of 2 s each, 1 s warm-up
#
# Scenarios (ONLY="..." picks some):
#   handshake-1.3 / handshake-1.2   a new connection per request, full handshake (openssl s_time -new: the client
#                                   keeps no session, offers no ticket), TLS 1.3 TLS_AES_128_GCM_SHA256 / TLS 1.2
#                                   ECDHE-ECDSA-AES128-GCM-SHA256; one 1 KiB GET forwarded per connection
#   resumed-1.3 / resumed-1.2       the same, every connection resuming the previous session (s_time -reuse:
#                                   TLS 1.3 PSK from a ticket; TLS 1.2 ticket or session id, whichever the server uses)
#   keepalive-1KiB                  1 KiB forwarded over kept-alive TLS 1.3 (wrk https://, 50 connections)
#   keepalive-gzip-1KiB             1 KiB of text forwarded and gzipped at level 5 over kept-alive TLS 1.3
#   h2-1KiB                         1 KiB forwarded over HTTP/2 on TLS 1.3 (h2load -c 10 -m 32: 10 connections, 32
#                                   streams in flight on each), to the same HTTP/1.1 origin
# Layout, CPU accounting, warm-up in rounds and the interleaving of targets are run.sh's (this script sources it);
# method and results: loadtests/README.md.
#
# Environment (besides run.sh's QUICK, ONLY, RUNS, DURATION_SECS, WARMUP_SECS, WARMUP_ROUNDS, CONNECTIONS,
# PROXY_CPU, LOAD_CPU, PORTICO_APP_DIR, PORTICO_JAVA_OPTS, PORTICO_*PORT, KEEP_WORK, HOLD):
#   S_TIME_CLIENTS=4             openssl s_time processes run side by side (each one connection at a time)
#   QUIET_LOAD=0.6, QUIET_WAIT_SECS=0
#                                before measuring, wait up to QUIET_WAIT_SECS for the 1-minute load average to fall
#                                below QUIET_LOAD (other work on the machine skews every figure)
set -euo pipefail

LOG_NAME=tls.sh
TLS_ONLY=${ONLY:-}
unset ONLY      # run.sh's ONLY names run.sh's scenarios
# shellcheck source=loadtests/run.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh"

S_TIME_CLIENTS=${S_TIME_CLIENTS:-4}
QUIET_LOAD=${QUIET_LOAD:-0.6}
QUIET_WAIT_SECS=${QUIET_WAIT_SECS:-0}
# Both proxies pin nothing for the client: the s_time scenarios ask for exactly one suite and protocol.
TLS13_ARGS="-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256"
TLS12_ARGS="-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256"
# name|tool|arguments. s_time: its mode and TLS choice; wrk: path|expected size|host|coding, as in run.sh.
TLS_SCENARIOS=("handshake-1.3|s_time|-new $TLS13_ARGS" "resumed-1.3|s_time|-reuse $TLS13_ARGS"
               "handshake-1.2|s_time|-new $TLS12_ARGS" "resumed-1.2|s_time|-reuse $TLS12_ARGS"
               "keepalive-1KiB|wrk|/1k.bin|1024|$BENCH_HOST|"
               "keepalive-gzip-1KiB|wrk|/1k.txt||$COMPRESS_HOST|gzip"
               "h2-1KiB|h2load|/1k.bin|1024|$BENCH_HOST|")
H2_CLIENTS=${H2_CLIENTS:-10}
H2_STREAMS=${H2_STREAMS:-32}
TLS_MEASURED=("${TLS_SCENARIOS[@]}")
if [[ -n $TLS_ONLY ]]; then
    TLS_MEASURED=()
    for scenario in "${TLS_SCENARIOS[@]}"; do
        if [[ " $TLS_ONLY " == *" ${scenario%%|*} "* ]]; then TLS_MEASURED+=("$scenario"); fi
    done
    ((${#TLS_MEASURED[@]} > 0)) || die "ONLY=$TLS_ONLY names no scenario"
fi

# Stored private keys are sealed with PORTICO_SECRET_KEY: the same one for both starts of Portico below.
export PORTICO_SECRET_KEY
PORTICO_SECRET_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')

# ----------------------------------------------------------------------------------------------------- targets
target_tls_port() { if [[ $1 == portico ]]; then echo "$PORTICO_TLS_PORT"; else echo "$NGINX_TLS_PORT"; fi; }
# wrk's server name (SNI) is the URL's host, 127.0.0.1: Portico answers it with its default certificate, nginx with
# its default server's; Host then routes (report.lua), as in run.sh.
target_url() { echo "https://127.0.0.1:$(target_tls_port "$1")"; }

upload_certificate() {  # prints the id Portico gives the certificate made by run.sh's prepare_work
    local body code
    body=$(jq -n --rawfile c "$WORK/tls/bench.crt" --rawfile k "$WORK/tls/bench.key" \
        '{certificate: $c, privateKey: $k}')
    code=$(curl -sS -m 10 -o "$WORK/certificate.json" -w '%{http_code}' -X POST \
        "http://127.0.0.1:$PORTICO_API_PORT/api/v1/certificates" -H "Authorization: Bearer $ADMIN_TOKEN" \
        -H 'Content-Type: application/json' -d "$body")
    [[ $code == 201 ]] || { cat "$WORK/certificate.json" >&2; die "uploading the certificate answered HTTP $code"; }
    jq -r .id "$WORK/certificate.json"
}

# Portico's configuration: the certificate, named by both vhosts, and (after a restart, since it is start-up
# configuration) the default certificate, for clients whose server name is no vhost's: s_time sends none, wrk
# sends 127.0.0.1. nginx's equivalent is the default server of its TLS port.
configure_portico() {
    local id upstreams="\"upstreams\":[{\"url\":\"http://127.0.0.1:$ORIGIN_PORT\"}]"
    id=$(upload_certificate)
    log "certificate $id uploaded"
    create_vhost bench-tls "$BENCH_HOST" "$upstreams,\"tls\":{\"certificate\":\"$id\"}"
    create_vhost bench-tls-compress "$COMPRESS_HOST" \
        "$upstreams,\"tls\":{\"certificate\":\"$id\"},\"compression\":{\"enabled\":true,\"levels\":{\"gzip\":5}}"
    log "restarting Portico with portico.tls.default-certificate=$id"
    stop_pid "$PORTICO_PID" TERM 45
    PORTICO_PID=""
    export PORTICO_TLS_DEFAULT_CERTIFICATE=$id
    start_portico
    grep -o 'TLS engine: [^"]*' "$WORK/portico.log" | tail -n 1 | sed 's/^/    Portico /' >&2 || true
}

# What each target negotiates (protocol, suite, key exchange) for the clients of the scenarios, and that a request
# through each answers 200 with the file: nothing is measured before both agree.
check_tls_targets() {
    local target port args session negotiated=()
    for target in "${TARGETS[@]}"; do
        port=$(target_tls_port "$target")
        for args in "$TLS13_ARGS" "$TLS12_ARGS" ""; do
            # shellcheck disable=SC2086  # a list of options
            session=$(openssl s_client -connect "127.0.0.1:$port" $args </dev/null 2>&1 \
                | awk '/^(New|Reused),/ { p = $0 } /Server Temp Key/ { k = $0 } END { print p " |" k }')
            [[ $session == New,* ]] || die "$target: no TLS session with '${args:-the defaults (as wrk)}': $session"
            log "$target ${args:-(as wrk)}: $session"
            negotiated+=("${args:-wrk} -> ${session#New, }")
        done
        local got
        got=$(curl -sS -k -m 5 -o /dev/null -w '%{http_code} %{size_download}' -H "Host: $BENCH_HOST" \
            "$(target_url "$target")/1k.bin")
        [[ $got == "200 1024" ]] || die "$target over TLS answered '$got' for /1k.bin, expected '200 1024'"
        got=$(curl -sS -k -m 5 -o /dev/null -D - -H "Host: $COMPRESS_HOST" -H 'Accept-Encoding: gzip' \
            "$(target_url "$target")/1k.txt" | tr -d '\r' | awk 'tolower($1) == "content-encoding:" { print $2 }')
        [[ $got == gzip ]] || die "$target over TLS did not gzip /1k.txt (Content-Encoding '$got')"
        if [[ " ${TLS_MEASURED[*]} " == *"|h2load|"* ]]; then
            got=$(curl -sS -k -m 5 --http2 -o /dev/null -w '%{http_version} %{http_code} %{size_download}' \
                -H "Host: $BENCH_HOST" "$(target_url "$target")/1k.bin")
            [[ $got == "2 200 1024" ]] || die "$target over h2 answered '$got' for /1k.bin, expected '2 200 1024'"
        fi
    done
    # The same protocol, suite and key exchange from both, for every client.
    local n=$((${#negotiated[@]} / 2)) i
    for ((i = 0; i < n; i++)); do
        [[ ${negotiated[i]} == "${negotiated[i + n]}" ]] \
            || die "the targets negotiate differently: '${negotiated[i]}' (Portico) vs '${negotiated[i + n]}' (nginx)"
    done
    log "response headers through Portico over TLS:"
    curl -sS -k -m 5 -o /dev/null -D - -H "Host: $BENCH_HOST" "$(target_url portico)/1k.bin" \
        | tr -d '\r' | sed -e '/^$/d' -e 's/^/    /' >&2
}

# wrk cannot be told a cipher suite, and the two servers' choices differ when left to the client's order (OpenSSL
# offers TLS_AES_256_GCM_SHA384 first; BoringSSL in Portico takes it, nginx is pinned to AES-128): OpenSSL's
# system-wide client defaults, read from OPENSSL_CONF, pin wrk (and the checks' s_client and curl) to the suite of
# the s_time scenarios. Exported after both servers started, so it reaches the clients only (s_time's own -tls1_x
# and -ciphersuites options override it).
pin_client_suite() {
    cat >"$WORK/openssl-client.cnf" <<'CNF'
openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_configuration
[ssl_configuration]
system_default = client_defaults
[client_defaults]
Ciphersuites = TLS_AES_128_GCM_SHA256
CNF
    export OPENSSL_CONF=$WORK/openssl-client.cnf
}

# ----------------------------------------------------------------------------------------------------- s_time
# The request s_time sends: it writes "GET <www> HTTP/1.0\r\n\r\n", so a Host header rides in the path argument and
# the trailing " HTTP/1.0" becomes a header's value. HTTP/1.0: both proxies close the connection after the
# response, which is what s_time waits for.
S_TIME_REQUEST=$'/1k.bin HTTP/1.0\r\nHost: '"$BENCH_HOST"$'\r\nX-Bench:'

# run_s_time TARGET ARGS SECONDS OUTPREFIX: S_TIME_CLIENTS processes on the load CPU for SECONDS, one file each.
run_s_time() {
    local port i pids=()
    port=$(target_tls_port "$1")
    for ((i = 1; i <= S_TIME_CLIENTS; i++)); do
        # shellcheck disable=SC2086  # a list of options
        timeout -k 5 $(($3 + 30)) taskset -c "$LOAD_CPU" openssl s_time -connect "127.0.0.1:$port" $2 \
            -time "$3" -www "$S_TIME_REQUEST" >"$4-$i.txt" 2>&1 &
        pids+=($!)
    done
    for ((i = 0; i < ${#pids[@]}; i++)); do
        wait "${pids[i]}" || echo "EXIT $?" >>"$4-$((i + 1)).txt"
    done
}

# s_time_counts PREFIX: "connections resumed bytes failures" summed over the client files of one run. s_time prints
# "N connections in Xs; ... bytes read B" per mode, and one character per connection: 'r' for a resumed one.
s_time_counts() {
    cat "$1"-*.txt | awk '
        / connections in [0-9.]+s;/ { n += $1; b += $NF }
        /^[*rt3]+$/ { r += gsub(/r/, "r") }
        /^EXIT |[Ee]rror|ERROR/ { f++ }
        END { printf "%d %d %d %d\n", n, r, b, f }'
}

# measure_s_time SCENARIO TARGET ARGS RUN: one run, recorded in run.sh's RESULTS format (p99 not measured: 0).
measure_s_time() {
    local before after jit_before jit prefix=$WORK/stime-$1-$2-$4 start end
    require_alive "$2"
    jit_before=$(jit_ticks "$2")
    before=$(target_ticks "$2")
    start=$(date +%s%N)
    run_s_time "$2" "$3" "$DURATION_SECS" "$prefix"
    end=$(date +%s%N)
    require_alive "$2"
    after=$(target_ticks "$2")
    jit=$(ticks_between "$jit_before" "$(jit_ticks "$2")")
    local n r bytes failures errors
    read -r n r bytes failures <<<"$(s_time_counts "$prefix")"
    ((n > 0)) || { cat "$prefix"-1.txt >&2; die "s_time made no connection ($2 $1)"; }
    # Each connection must have read the 1 KiB body and its head; a full-handshake scenario must resume none, a
    # resumed one all but the first of each client. The shortfall is counted as errors.
    errors=$failures
    ((bytes / n >= 1100)) || errors=$((errors + n))
    if [[ $3 == -new* ]]; then errors=$((errors + r)); else errors=$((errors + n - r)); fi
    RESULTS+="$1 $2 $4 $n $(((end - start) / 1000)) 0 $errors $((after - before)) $jit"$'\n'
    log "$(printf '%-20s %-8s run %d: %7.0f conn/s  resumed %d of %d  %d bytes/conn  errors %d  cpu %d ticks' \
        "$1" "$2" "$4" "$(awk -v n="$n" -v d="$((end - start))" 'BEGIN { print n / (d / 1e9) }')" "$r" "$n" \
        $((bytes / n)) "$errors" $((after - before)))"
}

# ----------------------------------------------------------------------------------------------------- h2load
# run_h2load TARGET PATH SECONDS OUTFILE HOST: h2load on the load CPU, HTTP/2 over TLS (ALPN h2), the host as
# :authority (the server name stays the URL's 127.0.0.1, as with wrk).
run_h2load() {
    timeout -k 5 $(($3 + 30)) taskset -c "$LOAD_CPU" h2load -t 1 -c "$H2_CLIENTS" -m "$H2_STREAMS" -D "$3" \
        -H ":authority: $5" "$(target_url "$1")$2" >"$4" 2>&1 || log "h2load exited with status $? ($1 $2)"
}

# measure_h2load SCENARIO TARGET PATH RUN BODY_BYTES HOST: one run, recorded in run.sh's RESULTS format (h2load
# reports no p99 over the whole run: 0); the requests counted are the 2xx responses.
measure_h2load() {
    local before after jit_before jit out=$WORK/h2load-$1-$2-$4.txt start end
    require_alive "$2"
    jit_before=$(jit_ticks "$2")
    before=$(target_ticks "$2")
    start=$(date +%s%N)
    run_h2load "$2" "$3" "$DURATION_SECS" "$out" "$6"
    end=$(date +%s%N)
    require_alive "$2"
    after=$(target_ticks "$2")
    jit=$(ticks_between "$jit_before" "$(jit_ticks "$2")")
    grep -q '^Application protocol: h2' "$out" || { cat "$out" >&2; die "$2 did not negotiate h2"; }
    local ok errors
    # "status codes: N 2xx, N 3xx, N 4xx, N 5xx". The streams still in flight when -D's time is up are cancelled
    # and reported failed: not errors. Any status but 2xx is.
    ok=$(awk '/^status codes:/ { print $3 }' "$out")
    errors=$(awk '/^status codes:/ { print $5 + $7 + $9 }' "$out")
    [[ -n $ok && -n $errors ]] || { cat "$out" >&2; die "could not read h2load's counts ($2 $1)"; }
    ((ok > 0)) || { cat "$out" >&2; die "h2load got no 2xx response ($2 $1)"; }
    # h2load -D measures its own duration after its connections are up; CPU is counted over the whole call.
    RESULTS+="$1 $2 $4 $ok $(((end - start) / 1000)) 0 $errors $((after - before)) $jit"$'\n'
    log "$(printf '%-20s %-8s run %d: %8.0f req/s  errors %d  cpu %d ticks' "$1" "$2" "$4" \
        "$(awk -v n="$ok" -v d="$((end - start))" 'BEGIN { print n / (d / 1e9) }')" "$errors" $((after - before)))"
}

# ----------------------------------------------------------------------------------------------------- quiet
# Other work on this 2-core machine skews everything: wait (bounded) for the load average to settle.
wait_quiet() {
    ((QUIET_WAIT_SECS > 0)) || return 0
    local waited=0 load
    while :; do
        load=$(cut -d ' ' -f 1 /proc/loadavg)
        if awk -v l="$load" -v q="$QUIET_LOAD" 'BEGIN { exit !(l < q) }'; then
            log "load average $load < $QUIET_LOAD after ${waited}s: measuring"
            return 0
        fi
        if ((waited >= QUIET_WAIT_SECS)); then
            log "WARNING: load average still $load after ${waited}s (wanted < $QUIET_LOAD): measuring anyway"
            return 0
        fi
        sleep 10
        waited=$((waited + 10))
    done
}

# ----------------------------------------------------------------------------------------------------- main
tls_main() {
    check_machine
    install_packages
    build_portico
    prepare_work
    log "work directory $WORK"
    start_nginx origin "$LOAD_CPU" "$ORIGIN_PORT"
    start_nginx proxy "$PROXY_CPU" "$NGINX_PORT"
    start_portico
    configure_portico
    pin_client_suite
    check_tls_targets
    if [[ ${HOLD:-0} == 1 ]]; then
        log "HOLD: Portico pid $PORTICO_PID on :$PORTICO_TLS_PORT (TLS), nginx proxy pid $NGINX_PID on" \
            ":$NGINX_TLS_PORT (TLS), origin pid $ORIGIN_PID; work directory $WORK. Ctrl-C stops everything."
        while kill -0 "$PORTICO_PID" 2>/dev/null; do sleep 1; done
        die "Portico stopped"
    fi
    wait_quiet

    local scenario name tool args path size host coding target run round
    local round_secs=$(((WARMUP_SECS + WARMUP_ROUNDS - 1) / WARMUP_ROUNDS))
    for scenario in "${TLS_MEASURED[@]}"; do
        IFS='|' read -r name tool args size host coding <<<"$scenario"
        path=$args
        log "$name: load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
        for ((round = 1; round <= WARMUP_ROUNDS; round++)); do
            for target in "${TARGETS[@]}"; do
                log "warm-up $round/$WARMUP_ROUNDS: $target $name for ${round_secs}s"
                if [[ $tool == s_time ]]; then
                    run_s_time "$target" "$args" "$round_secs" "$WORK/stime-$name-$target-warmup-$round"
                elif [[ $tool == h2load ]]; then
                    run_h2load "$target" "$path" "$round_secs" "$WORK/h2load-$name-$target-warmup-$round.txt" \
                        "$host"
                else
                    run_wrk "$target" "$path" "$round_secs" "$WORK/wrk-$name-$target-warmup-$round.txt" "$host" \
                        "" "$coding"
                fi
                require_alive "$target"
            done
        done
        # Interleaved run by run, as in run.sh.
        for ((run = 1; run <= RUNS; run++)); do
            for target in "${TARGETS[@]}"; do
                if [[ $tool == s_time ]]; then
                    measure_s_time "$name" "$target" "$args" "$run"
                elif [[ $tool == h2load ]]; then
                    measure_h2load "$name" "$target" "$path" "$run" "$size" "$host"
                else
                    measure "$name" "$target" "$path" "$run" "$size" "$host" "$coding"
                fi
            done
        done
    done
    report
    printf 'handshake-*/resumed-*: one connection per request (openssl s_time x%d), "req/s" are connections/s and\n' \
        "$S_TIME_CLIENTS"
    printf 'CPU ms/1k req is CPU ms per 1000 handshakes, each with one 1 KiB GET forwarded; p99 not measured.\n'
}

tls_main "$@"
