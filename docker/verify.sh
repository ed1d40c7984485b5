#!/usr/bin/env bash
# docker/verify.sh: proves the JVM image and the Kubernetes manifests work, on a machine with podman and no registry.
#
#   sudo bash docker/verify.sh          (root: apt-get, podman, and PostgreSQL run as the postgres user)
#
# Steps, each one failing the run loudly:
#   1. installs podman, runc, debootstrap and PostgreSQL 15 from Debian when missing; checks that ports 8080, 8081
#      and 9000 are free (the containers use the host's network, on the image's default ports);
#   2. builds a local base image when it does not exist yet (no registry is reachable): Debian bookworm by
#      debootstrap, OpenJDK 17 and curl, user 185 with WORKDIR /home/default like the UBI base, and a stand-in for
#      the UBI image's run-java.sh so that docker/Dockerfile.jvm runs unchanged, ENTRYPOINT included;
#   3. packages the app (./mvnw -B package -DskipTests) and builds docker/Dockerfile.jvm on that base
#      (podman build --from), with the Dockerfile's own .dockerignore;
#   4. starts PostgreSQL 15 on a free port and a demo origin (python3 -m http.server);
#   5. runs the image as the Kubernetes Deployment does (read-only root, /tmp on tmpfs, no capabilities):
#      waits for /q/health/ready, creates a vhost through the API, proxies one request on 8080 and finds that
#      request's access-log line on the container's standard output (podman logs), checks the metric and
#      /api/v1/status, and stops it with SIGTERM (graceful drain; exit status 143, the JVM's after SIGTERM);
#   6. runs it again with the access log pointed at the old default file (logs/access.log, unwritable on the
#      read-only root): readiness must be DOWN and say why, the metric 0;
#   7. runs k8s/configmap.yaml and k8s/deployment.yaml with `podman kube play` (database URL and image name
#      replaced; host network, one replica and no ports list, which podman needs here; the Secret as a podman
#      secret), checks readiness, the liveness probe (podman's healthcheck) and the security context, proxies a
#      request and finds its line in the pod's log, then `podman kube down`.
# Everything started is removed on exit; the base image (cache) and the app image stay (podman rmi to delete).
#
# Takes 2 to 5 minutes (the first base image about 3 more); not part of .ci/run (too slow). Settings (environment):
#   BASE_IMAGE   local base image, built when missing   (localhost/portico-base-debian-jre:17)
#   IMAGE        the app image built from Dockerfile.jvm (localhost/portico-jvm:verify)
#   MIRROR       Debian mirror for debootstrap           (http://deb.debian.org/debian)
#   SKIP_PACKAGE=1  use target/quarkus-app as it is
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

BASE_IMAGE="${BASE_IMAGE:-localhost/portico-base-debian-jre:17}"
IMAGE="${IMAGE:-localhost/portico-jvm:verify}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
PG_BIN=/usr/lib/postgresql/15/bin
TOKEN="verify-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
NAME=portico-verify
STARTED=$(date +%s)
PASSED=()

log() { printf '[verify %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[verify %s] FAILED: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }
pass() { PASSED+=("$*"); log "ok: $*"; }
# grep that reads its whole input: grep -q stops at the first match, and with pipefail the writer's SIGPIPE
# (podman logs, curl) would fail the pipeline.
has() { grep "$@" >/dev/null; }

[[ $(id -u) -eq 0 ]] || die "run as root (apt-get, podman as root, PostgreSQL as the postgres user)"

# ------------------------------------------------------------------------------------------- 1. tools and ports
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v debootstrap >/dev/null || missing+=(debootstrap)
[[ -x $PG_BIN/pg_ctl ]] || missing+=(postgresql-15)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
    log "installing ${missing[*]} from Debian packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update"
    apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]}"
fi
command -v python3 >/dev/null || die "python3 is needed (demo origin, JSON checks)"
[[ -x ./mvnw ]] || die "no ./mvnw in $ROOT"

port_free() { python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("0.0.0.0", int(sys.argv[1])))' "$1" 2>/dev/null; }
for port in 8080 8081 9000; do
    port_free "$port" || die "port $port is in use: the image listens on 8080 (proxy), 8081 (API) and 9000 (health) of the host's network; stop what uses it (ss -ltnp | grep :$port)"
done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Podman as BUILD-FACTS.md found it working here: runc (crun fails on this kernel's hybrid cgroups), cgroupfs (no
# systemd), explicit ulimits (podman's default nofile is above this machine's hard limit and is refused).
# The same settings in a containers.conf of our own, for `podman kube play`, which has no --ulimit.
WORK="$(mktemp -d /tmp/portico-verify.XXXXXX)"
# 16384 each, or the hard limit when lower (here nofile 20000; an nproc of 65536 was refused although the hard
# limit is 96362, 32768 worked).
hard_nofile=$(ulimit -Hn); [[ $hard_nofile == unlimited || $hard_nofile -gt 16384 ]] && hard_nofile=16384
hard_nproc=$(ulimit -Hu); [[ $hard_nproc == unlimited || $hard_nproc -gt 16384 ]] && hard_nproc=16384
ULIMITS=(--ulimit "nofile=$hard_nofile:$hard_nofile" --ulimit "nproc=$hard_nproc:$hard_nproc")
cat >"$WORK/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$hard_nofile:$hard_nofile", "nproc=$hard_nproc:$hard_nproc"]
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
events_logger = "file"
EOF
export CONTAINERS_CONF="$WORK/containers.conf"
pm() { podman --cgroup-manager=cgroupfs --runtime runc "$@"; }

PG_DIR=""
ORIGIN_PID=""
KUBE_FILE=""
cleanup() {
    local rc=$?
    set +e
    [[ -n $KUBE_FILE ]] && pm kube down "$KUBE_FILE" >/dev/null 2>&1
    [[ -n $KUBE_FILE ]] && pm pod rm --ignore -f portico-pod-0 portico-pod-1 >/dev/null 2>&1
    [[ -n $KUBE_FILE ]] && pm secret rm portico-secrets >/dev/null 2>&1
    for container in "$NAME" "$NAME-unwritable"; do
        pm rm --ignore -f -t 0 "$container" >/dev/null 2>&1
    done
    [[ -n $ORIGIN_PID ]] && kill "$ORIGIN_PID" 2>/dev/null
    if [[ -n $PG_DIR && -f $PG_DIR/data/postmaster.pid ]]; then
        su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D '$PG_DIR/data' -m fast -w stop" >/dev/null 2>&1
    fi
    [[ -n $PG_DIR ]] && rm -rf "$PG_DIR"
    rm -rf "$WORK"
    if ((rc != 0)); then
        printf '[verify] FAILED after %ss (exit %s); what passed before:\n' "$(($(date +%s) - STARTED))" "$rc" >&2
        printf '  - %s\n' "${PASSED[@]:-nothing}" >&2
    fi
}
trap cleanup EXIT

# ------------------------------------------------------------------------------------------- 2. local base image
if pm image exists "$BASE_IMAGE"; then
    log "base image $BASE_IMAGE exists (delete it with podman rmi to rebuild)"
else
    log "building base image $BASE_IMAGE: debootstrap bookworm + openjdk-17-jre-headless from $MIRROR"
    rootfs="$WORK/rootfs"
    debootstrap --variant=minbase --include=openjdk-17-jre-headless,curl,ca-certificates bookworm "$rootfs" \
        "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; die "debootstrap"; }
    # The UBI OpenJDK images' conventions that Dockerfile.jvm relies on: user 185 ("default", group 0) with home
    # and working directory /home/default, and /deployments.
    echo 'default:x:185:0:default:/home/default:/sbin/nologin' >>"$rootfs/etc/passwd"
    mkdir -p "$rootfs/home/default" "$rootfs/deployments"
    chown 185:0 "$rootfs/home/default" "$rootfs/deployments"
    # A stand-in for /opt/jboss/container/java/run/run-java.sh, the ENTRYPOINT of Dockerfile.jvm: it exec's the JVM
    # (PID 1, so SIGTERM reaches it) with the variables the Dockerfile sets. The real script also sizes the heap
    # and more; only this contract is verified here, not the script itself.
    mkdir -p "$rootfs/opt/jboss/container/java/run"
    cat >"$rootfs/opt/jboss/container/java/run/run-java.sh" <<'EOF'
#!/bin/sh
# Stand-in for the UBI OpenJDK run-java.sh, made by Portico's docker/verify.sh for a local Debian base image.
set -eu
exec java ${JAVA_MAX_MEM_RATIO:+-XX:MaxRAMPercentage=$JAVA_MAX_MEM_RATIO} ${GC_CONTAINER_OPTIONS:-} \
    ${JAVA_OPTS_APPEND:-} -jar "${JAVA_APP_JAR:?JAVA_APP_JAR is not set}" "$@"
EOF
    chmod 755 "$rootfs/opt/jboss/container/java/run/run-java.sh"
    rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
    tar -C "$rootfs" -c . | pm import --change 'WORKDIR /home/default' --change 'USER 185' \
        --change 'ENV LANG=C.UTF-8' - "$BASE_IMAGE" >/dev/null || die "podman import of the base image"
    rm -rf "$rootfs"
fi
java_version=$(pm run --rm --network=host "${ULIMITS[@]}" --entrypoint java "$BASE_IMAGE" -version 2>&1) \
    || die "java -version in the base image: $java_version"
java_version=${java_version%%$'\n'*}
[[ $java_version == *'"17.'* ]] || die "the base image has no Java 17: $java_version"
pass "base image $BASE_IMAGE: Debian bookworm, $java_version"

# ------------------------------------------------------------------------------------------- 3. app image
if [[ ${SKIP_PACKAGE:-0} != 1 ]]; then
    log "packaging the app: ./mvnw -B package -DskipTests"
    ./mvnw -B -q package -DskipTests >"$WORK/package.log" 2>&1 || { tail -30 "$WORK/package.log"; die "./mvnw package"; }
fi
[[ -f target/quarkus-app/quarkus-run.jar ]] || die "no target/quarkus-app/quarkus-run.jar"
log "building $IMAGE from docker/Dockerfile.jvm on $BASE_IMAGE"
previous_image=$(pm image inspect "$IMAGE" --format '{{.Id}}' 2>/dev/null || true)
pm build --from "$BASE_IMAGE" --ignorefile docker/Dockerfile.jvm.dockerignore -f docker/Dockerfile.jvm \
    -t "$IMAGE" . >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; die "podman build"; }
# The previous build of $IMAGE would stay behind untagged.
if [[ -n $previous_image && $previous_image != $(pm image inspect "$IMAGE" --format '{{.Id}}') ]]; then
    pm rmi "$previous_image" >/dev/null 2>&1 || true
fi
[[ $(pm image inspect "$IMAGE" --format '{{.Config.User}}') == 185 ]] || die "the image does not run as user 185"
pm image inspect "$IMAGE" --format '{{range .Config.Env}}{{println .}}{{end}}' | has -x 'PORTICO_ACCESS_LOG_FILE=stdout' \
    || die "the image does not set PORTICO_ACCESS_LOG_FILE=stdout"
pass "image $IMAGE built from docker/Dockerfile.jvm (user 185, PORTICO_ACCESS_LOG_FILE=stdout, $(pm image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%d MB", $1/1000000}'))"

# ------------------------------------------------------------------------------------------- 4. PostgreSQL, origin
PG_DIR="$(mktemp -d /tmp/portico-verify-pg.XXXXXX)"
chown postgres "$PG_DIR"
PG_PORT="$(free_port)"
log "starting PostgreSQL 15 on 127.0.0.1:$PG_PORT"
su postgres -s /bin/sh -c "$PG_BIN/initdb -D '$PG_DIR/data' -A trust -U postgres -E UTF8 >'$PG_DIR/initdb.log' 2>&1" \
    || { cat "$PG_DIR/initdb.log"; die "initdb"; }
su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D '$PG_DIR/data' -l '$PG_DIR/server.log' -w -t 60 \
    -o \"-p $PG_PORT -k '$PG_DIR' -c listen_addresses=127.0.0.1\" start" >/dev/null \
    || { cat "$PG_DIR/server.log"; die "pg_ctl start"; }
for db in portico portico_kube; do
    su postgres -s /bin/sh -c "$PG_BIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -qc 'create database $db'" >/dev/null \
        || die "create database $db"
done

ORIGIN_PORT="$(free_port)"
mkdir -p "$WORK/site"
echo "hello from the verify origin" >"$WORK/site/hello.txt"
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$WORK/site" >"$WORK/origin.log" 2>&1 &
ORIGIN_PID=$!
for _ in $(seq 50); do curl -fsS "http://127.0.0.1:$ORIGIN_PORT/hello.txt" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://127.0.0.1:$ORIGIN_PORT/hello.txt" >/dev/null || die "the demo origin did not start"

# ------------------------------------------------------------------------------------------- helpers
# Waits until $1 (a URL) answers 2xx, while container $2 runs; prints its log and fails otherwise.
await_ok() {
    local url=$1 container=$2 deadline=$(($(date +%s) + 180))
    while ! curl -fsS -o /dev/null "$url" 2>/dev/null; do
        if [[ $(pm inspect "$container" --format '{{.State.Running}}' 2>/dev/null) != true ]]; then
            pm logs "$container" 2>&1 | tail -40
            die "container $container is not running (waiting for $url)"
        fi
        (($(date +%s) < deadline)) || { pm logs "$container" 2>&1 | tail -40; die "$url did not answer 2xx within 180 s"; }
        sleep 1
    done
}

# python3 -c with a JSON document on stdin: exits non-zero (and says why) unless the assertion holds.
json_check() {
    python3 -c "
import json, sys
doc = json.load(sys.stdin)
$1
" || die "$2"
}

# Creates vhost $1 for Host $2, proxies GET /hello.txt with request id $3; checks status and body.
proxy_one() {
    local name=$1 host=$2 id=$3
    curl -fsS -o /dev/null -X POST http://127.0.0.1:8081/api/v1/vhosts -H "Authorization: Bearer $TOKEN" \
        -H 'Content-Type: application/json' \
        -d "{\"name\":\"$name\",\"hostnames\":[\"$host\"],\"upstreams\":[{\"url\":\"http://127.0.0.1:$ORIGIN_PORT\"}]}" \
        || die "creating vhost $name through the API"
    local body
    body=$(curl -sS -H "Host: $host" -H "X-Request-Id: $id" -w '\n%{http_code}' http://127.0.0.1:8080/hello.txt) \
        || die "request through the proxy"
    [[ $(tail -1 <<<"$body") == 200 && $(head -1 <<<"$body") == "hello from the verify origin" ]] \
        || die "proxied request answered: $body"
}

# Waits (up to 10 s) for the access-log line of request id $2 in container $1's standard output; checks it.
find_log_line() {
    local container=$1 id=$2 vhost=$3 line="" deadline=$(($(date +%s) + 10))
    while [[ -z $line ]]; do
        line=$(pm logs "$container" 2>/dev/null | grep -F "\"requestId\":\"$id\"" | grep '^{' || true)
        [[ -n $line ]] && break
        (($(date +%s) < deadline)) || { pm logs "$container" 2>&1 | tail -20; die "no access-log line for $id in podman logs $container"; }
        sleep 0.5
    done
    json_check "assert doc['status'] == 200 and doc['vhost'] == '$vhost' and doc['path'] == '/hello.txt' and doc['method'] == 'GET', doc" \
        "the access-log line of $id: $line" <<<"$line"
    LOG_LINE=$line
}

# ------------------------------------------------------------------------------------------- 5. the image, as k8s runs it
log "running $IMAGE (read-only root, tmpfs /tmp, no capabilities, host network)"
pm run -d --name "$NAME" --network=host "${ULIMITS[@]}" --stop-timeout 40 \
    --read-only --tmpfs /tmp --cap-drop=ALL --security-opt no-new-privileges \
    -e QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/portico" \
    -e QUARKUS_DATASOURCE_USERNAME=postgres -e QUARKUS_DATASOURCE_PASSWORD=unused \
    -e PORTICO_ADMIN_TOKEN="$TOKEN" \
    "$IMAGE" >/dev/null || die "podman run $IMAGE"
t0=$(date +%s)
await_ok http://127.0.0.1:9000/q/health/ready "$NAME"
pass "container ready in $(($(date +%s) - t0)) s (/q/health/ready 200) with the image's own ENTRYPOINT, as UID $(pm exec "$NAME" id -u)"
curl -sS http://127.0.0.1:9000/q/health/ready | json_check \
    "c = [x for x in doc['checks'] if x['name'] == 'access-log'][0]; assert c['status'] == 'UP' and c['data']['destination'] == 'stdout' and c['data']['writable'], c" \
    "readiness has no UP access-log check with destination stdout"
proxy_one verify verify.test verify-request-1
pass "vhost created through the API; GET /hello.txt through :8080 answered 200 from the demo origin"
find_log_line "$NAME" verify-request-1 verify
pass "its access-log line is on the container's standard output (podman logs): $LOG_LINE"
pm logs "$NAME" 2>/dev/null | has 'INFO.*Access log: standard output (json)' \
    || die "the application log does not say the access log goes to standard output"
curl -fsS http://127.0.0.1:9000/q/metrics | has -E '^portico_access_log_writable\{destination="stdout",?\} 1\.0$' \
    || die "portico_access_log_writable{destination=\"stdout\"} is not 1"
curl -fsS -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8081/api/v1/status | json_check \
    "a = doc['accessLog']; assert a['enabled'] and a['path'] == 'stdout' and a['writable'] and a['lastError'] is None and a['droppedLines'] == 0, a" \
    "/api/v1/status accessLog"
pass "portico_access_log_writable{destination=\"stdout\"} 1, /api/v1/status accessLog writable, 0 lines dropped"
pm stop -t 40 "$NAME" >/dev/null || die "podman stop"
# A JVM ended by SIGTERM exits with 143 (128 + 15) after its shutdown hooks ran; a kill would be 137.
exit_code=$(pm inspect "$NAME" --format '{{.State.ExitCode}}')
[[ $exit_code == 0 || $exit_code == 143 ]] || { pm logs "$NAME" | tail -20; die "the container exited with $exit_code on SIGTERM"; }
pm logs "$NAME" 2>/dev/null | has 'Data plane drained' || die "no 'Data plane drained' in the log after SIGTERM"
pass "SIGTERM (podman stop): the data plane drained and the JVM, PID 1 through the entrypoint, exited with $exit_code (143 = after SIGTERM, not killed)"
pm rm "$NAME" >/dev/null

# ------------------------------------------------------------------------------------------- 6. an unwritable access log
log "running $IMAGE with PORTICO_ACCESS_LOG_FILE=logs/access.log (the plain default) on the read-only root"
pm run -d --name "$NAME-unwritable" --network=host "${ULIMITS[@]}" --read-only --tmpfs /tmp --cap-drop=ALL \
    -e QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/portico" \
    -e QUARKUS_DATASOURCE_USERNAME=postgres -e QUARKUS_DATASOURCE_PASSWORD=unused \
    -e PORTICO_ADMIN_TOKEN="$TOKEN" -e PORTICO_ACCESS_LOG_FILE=logs/access.log \
    "$IMAGE" >/dev/null || die "podman run (unwritable access log)"
await_ok http://127.0.0.1:9000/q/health/started "$NAME-unwritable"
ready=$(curl -sS -w '\n%{http_code}' http://127.0.0.1:9000/q/health/ready)
[[ $(tail -1 <<<"$ready") == 503 ]] || die "readiness answered $(tail -1 <<<"$ready"), not 503, with an unwritable access log"
head -n -1 <<<"$ready" | json_check \
    "c = [x for x in doc['checks'] if x['name'] == 'access-log'][0]; assert c['status'] == 'DOWN' and c['data']['lastError'].startswith('cannot open /home/default/logs/access.log'), c; print(c['data']['lastError'])" \
    "readiness does not report the access log DOWN with its reason" >"$WORK/reason"
curl -fsS http://127.0.0.1:9000/q/metrics | has -E '^portico_access_log_writable\{destination="/home/default/logs/access.log",?\} 0\.0$' \
    || die "portico_access_log_writable is not 0 for the unwritable file"
pm logs "$NAME-unwritable" 2>&1 | has 'ERROR.*Access log: /home/default/logs/access.log cannot be opened' \
    || die "no error about the access log in the application log"
pass "unwritable access log (old default on a read-only root): /q/health/ready 503 with access-log DOWN ('$(cat "$WORK/reason")'), metric 0, an ERROR at start"
pm rm -f -t 0 "$NAME-unwritable" >/dev/null

# ------------------------------------------------------------------------------------------- 7. podman kube play
log "podman kube play: k8s/configmap.yaml + a Secret + k8s/deployment.yaml"
KUBE="$WORK/kube"
mkdir -p "$KUBE"
sed "s#jdbc:postgresql://postgres.database.svc.cluster.local:5432/portico#jdbc:postgresql://127.0.0.1:$PG_PORT/portico_kube#" \
    k8s/configmap.yaml >"$KUBE/configmap.yaml"
has "127.0.0.1:$PG_PORT/portico_kube" "$KUBE/configmap.yaml" || die "could not point configmap.yaml at the test database"
has 'PORTICO_ACCESS_LOG_FILE: "stdout"' "$KUBE/configmap.yaml" || die "configmap.yaml does not set PORTICO_ACCESS_LOG_FILE"
# The image name is what kustomization.yaml's images: entry would set. The pod uses the host's network (the
# database and the demo origin listen on the host's loopback), where podman refuses port mappings: the container's
# `ports:` list goes (under hostNetwork it only names the ports; the probes then use the port numbers), and one
# replica (podman kube play starts one pod per replica; on one host network only the first can bind the ports).
awk -v image="$IMAGE" '
    /^          image: portico:jvm$/ { print "          image: " image; next }
    /^          ports:$/ { skipping = 1; next }
    skipping && /^          [a-zA-Z]/ { skipping = 0 }
    skipping { next }
    /^  replicas: 2$/ { print "  replicas: 1"; next }
    /^      containers:$/ { print "      hostNetwork: true" }
    { print }
' k8s/deployment.yaml | sed 's/port: metrics$/port: 9000/' >"$KUBE/deployment.yaml"
has "image: $IMAGE" "$KUBE/deployment.yaml" || die "could not set the image in deployment.yaml"
has -x '      hostNetwork: true' "$KUBE/deployment.yaml" || die "could not set hostNetwork in deployment.yaml"
has -x '  replicas: 1' "$KUBE/deployment.yaml" || die "could not set one replica in deployment.yaml"
! has 'containerPort' "$KUBE/deployment.yaml" || die "could not remove the ports from deployment.yaml"
[[ $(grep -c 'port: 9000$' "$KUBE/deployment.yaml") == 3 ]] || die "expected three probes on port metrics in deployment.yaml"
# The Secret (k8s/secret.yaml holds placeholders): podman 4.3 resolves envFrom.secretRef to a podman secret whose
# content is a JSON object of key -> base64 value (the Secret's `data`). A Secret given to kube play in YAML is
# stored as YAML, which envFrom then fails to parse ("secret portico-secrets is not valid JSON"); so it is created
# directly.
cat >"$KUBE/secret.json" <<EOF
{"PORTICO_ADMIN_TOKEN": "$(printf %s "$TOKEN" | base64 -w0)",
 "QUARKUS_DATASOURCE_USERNAME": "$(printf %s postgres | base64 -w0)",
 "QUARKUS_DATASOURCE_PASSWORD": "$(printf %s unused | base64 -w0)"}
EOF
{ cat "$KUBE/configmap.yaml"; echo '---'; cat "$KUBE/deployment.yaml"; } >"$KUBE/all.yaml"
KUBE_FILE="$KUBE/all.yaml"
pm secret create portico-secrets "$KUBE/secret.json" >/dev/null || die "podman secret create portico-secrets"
pm kube play "$KUBE_FILE" >"$WORK/kube.log" 2>&1 || { cat "$WORK/kube.log"; die "podman kube play"; }
CONTAINER=$(pm ps -a --filter label=io.kubernetes.container.name=portico --format '{{.Names}}' | head -1)
[[ -n $CONTAINER ]] || CONTAINER=$(pm ps -a --format '{{.Names}}' | grep -- '-portico$' | head -1)
[[ -n $CONTAINER ]] || { cat "$WORK/kube.log"; pm ps -a; die "kube play started no portico container"; }
t0=$(date +%s)
await_ok http://127.0.0.1:9000/q/health/ready "$CONTAINER"
pass "kube play: pod $(pm pod ps --format '{{.Name}}') with container $CONTAINER ready in $(($(date +%s) - t0)) s (env from the ConfigMap and the Secret)"
[[ $(pm inspect "$CONTAINER" --format '{{.HostConfig.ReadonlyRootfs}}') == true ]] || die "readOnlyRootFilesystem was not applied"
[[ $(pm inspect "$CONTAINER" --format '{{.HostConfig.SecurityOpt}}') == *no-new-privileges* ]] \
    || die "allowPrivilegeEscalation: false was not applied"
cap_eff=$(pm exec "$CONTAINER" sh -c 'grep ^CapEff /proc/self/status') || die "reading the pod's capabilities"
[[ $cap_eff =~ ^CapEff:[[:space:]]+0+$ ]] || die "capabilities are not all dropped: $cap_eff"
[[ $(pm exec "$CONTAINER" id -u) == 185 ]] || die "the pod does not run as 185"
pm exec "$CONTAINER" sh -c 'touch /deployments/x' 2>/dev/null && die "the root filesystem is writable in the pod"
pm exec "$CONTAINER" sh -c 'touch /tmp/x && rm /tmp/x' || die "/tmp is not writable in the pod"
# What podman made of the emptyDir: with a read-only root it also mounts a tmpfs on /tmp by itself.
tmp_mount=$(pm exec "$CONTAINER" sh -c "awk '\$2 == \"/tmp\" {print \$1 \" \" \$3}' /proc/mounts" | tail -1)
pass "security context applied: UID 185, no capabilities ($cap_eff), no-new-privileges, read-only root (touch /deployments fails), /tmp writable (mounted: $tmp_mount)"
health=$(pm inspect "$CONTAINER" --format '{{if .Config.Healthcheck}}{{join .Config.Healthcheck.Test " "}}{{end}}')
[[ -n $health ]] || die "podman made no healthcheck of the livenessProbe"
pm healthcheck run "$CONTAINER" >/dev/null || die "the livenessProbe as a podman healthcheck ($health) is not healthy"
pass "the livenessProbe became a podman healthcheck ($health) and is healthy"
proxy_one kube kube.test verify-kube-1
find_log_line "$CONTAINER" verify-kube-1 kube
pass "through the kube-play pod: GET /hello.txt 200, its access-log line in podman logs $CONTAINER"
pm kube down "$KUBE_FILE" >/dev/null 2>&1 || die "podman kube down"
pm secret rm portico-secrets >/dev/null || die "podman secret rm"
KUBE_FILE=""

printf '\n[verify] PASSED in %s s on %s (podman %s, %s):\n' "$(($(date +%s) - STARTED))" "$(date -u +%Y-%m-%dT%H:%MZ)" \
    "$(podman --version | awk '{print $3}')" "$(uname -r)"
printf '  - %s\n' "${PASSED[@]}"
cat <<'EOF'
Not verified: Namespace, Services, PodDisruptionBudget, NetworkPolicy (podman kube play has no cluster);
kustomization.yaml (no kubectl; its image rewrite was done by sed). Adapted for podman: hostNetwork and one
replica, no ports list (probes on port 9000 by number), the Secret created as a podman secret. Podman runs only
the livenessProbe (as a healthcheck); readiness and startup were checked over HTTP by this script instead.
EOF
