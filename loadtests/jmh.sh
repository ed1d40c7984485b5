#!/usr/bin/env bash
# JMH microbenchmarks of the hot accounting paths (classes named *Benchmark under src/test/java).
#   bash loadtests/jmh.sh                 # all of them
#   bash loadtests/jmh.sh LiveStats       # those whose name matches a regex, any JMH option may follow
# Pin it like the load test does if you compare runs: taskset -c 0 bash loadtests/jmh.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
./mvnw -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/jmh.classpath -Dmdep.includeScope=test
exec java -cp "target/test-classes:target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main "${@:-Benchmark}"
