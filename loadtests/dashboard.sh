#!/usr/bin/env bash
# What the dashboard costs a browser (issue 16): the bytes every page transfers together and the first contentful
# paint of a cold load, measured by headless Chromium's own Performance API with its cache off, ROUNDS times, medians.
#
#   bash loadtests/dashboard.sh            # 5 rounds (about 2 minutes)
#   ROUNDS=9 bash loadtests/dashboard.sh
#
# Each round runs the browser test DashboardPerformanceTest (one Portico in the test profile, an embedded PostgreSQL
# unless PORTICO_TEST_DB_URL names one, Debian's chromium through chromium-driver) and reads the figures it writes to
# target/screenshots/performance.txt. The test itself only checks a loose bound (a busy CI machine paints late); the
# figures quoted in the README come from this script on a quiet machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS=${ROUNDS:-5}
log() { printf '[dashboard.sh] %s\n' "$*"; }
die() { printf '[dashboard.sh] FAILED: %s\n' "$*" >&2; exit 1; }

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    log "installing chromium and chromium-driver from Debian packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update"
    apt-get install -y -qq chromium chromium-driver >/dev/null || die "apt-get install chromium chromium-driver"
fi

cd "$ROOT"
log "compiling (./mvnw -B -q test-compile)"
timeout 900 ./mvnw -B -q test-compile || die "the build failed"
report=target/screenshots/performance.txt
fcps=() sizes=()
for round in $(seq 1 "$ROUNDS"); do
    rm -f "$report"
    timeout 600 ./mvnw -B -q test -Dtest=DashboardPerformanceTest -Dsurefire.failIfNoSpecifiedTests=false \
        >"target/dashboard-bench-$round.log" 2>&1 || die "round $round failed (target/dashboard-bench-$round.log)"
    [[ -f $report ]] || die "round $round wrote no $report"
    fcp=$(sed -n 's/.*first contentful paint: \([0-9]*\) ms.*/\1/p' "$report")
    size=$(sed -n 's/^transferred: \([0-9]*\) bytes.*/\1/p' "$report")
    log "round $round: first contentful paint $fcp ms, $size bytes transferred"
    fcps+=("$fcp") sizes+=("$size")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '\nDashboard, %s (commit %s), %s rounds, medians: first contentful paint %s ms (min %s, max %s); every page once %s bytes (%s KiB)\n' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "$ROUNDS" \
    "$(median "${fcps[@]}")" "$(printf '%s\n' "${fcps[@]}" | sort -n | head -n 1)" \
    "$(printf '%s\n' "${fcps[@]}" | sort -n | tail -n 1)" "$(median "${sizes[@]}")" \
    "$(awk -v b="$(median "${sizes[@]}")" 'BEGIN { printf "%.0f", b / 1024 }')"
