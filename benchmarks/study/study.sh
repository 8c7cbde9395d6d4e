#!/usr/bin/env bash
# Compiles the issue-12 study programs (src/, not part of the Maven build) against the benchmarks
# module's class path and runs one: ./benchmarks/study/study.sh ReadStudy ARGS...
# JVM options: STUDY_JAVA_OPTS (e.g. "-XX:StartFlightRecording=filename=/tmp/r.jfr,settings=profile").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/target"
cp_file="$out/classpath"
mkdir -p "$out"
if [ ! -s "$cp_file" ] || [ -n "${STUDY_REBUILD:-}" ]; then
  (cd "$root" && mvn -q -B -ntp -pl benchmarks -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile="$cp_file") >&2
fi
classpath="$(cat "$cp_file"):$root/benchmarks/target/classes"
if [ -z "$(find "$out/classes" -name '*.class' -print -quit 2>/dev/null)" ] \
   || [ -n "$(find "$here/src" -name '*.java' -newer "$out/classes" -print -quit)" ]; then
  rm -rf "$out/classes" && mkdir -p "$out/classes"
  javac -nowarn --release 17 -cp "$classpath" -d "$out/classes" $(find "$here/src" -name '*.java') >&2
  touch "$out/classes"
fi
main="$1"; shift
exec java ${STUDY_JAVA_OPTS:-} -cp "$out/classes:$classpath" "dev.hermes.state.bench.study.$main" "$@"
