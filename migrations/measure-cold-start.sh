#!/usr/bin/env bash
# Cold-start cost of opening an up-to-date state.db with the migration-only command: the fast path
# (no Liquibase) against a full Liquibase check of the same file, with three baselines (java -version,
# hello world, plain sqlite-jdbc opening the file and reading its version), each in a fresh JVM,
# interleaved round-robin so that machine load hits them alike. Prints median and min.
#
#   mvn -q -B -ntp -pl migrations package -DskipTests   # the jar and the test classes (harness)
#   migrations/measure-cold-start.sh [RUNS]             # default 10 runs of each
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/migrations/target/hermes-state-migrate.jar"
harness="$root/migrations/target/test-classes"
runs="${1:-10}"
[ -f "$jar" ] && [ -f "$harness/dev/hermes/state/migrations/LiquibaseCheckMain.class" ] || {
  echo "build first: mvn -q -B -ntp -pl migrations package -DskipTests" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/state.db"
java -jar "$jar" --db "$db" >/dev/null
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$work/Hello.java"
javac -d "$work" "$work/Hello.java"

declare -A cmd=(
  [java-version]="java -version"
  [hello-world]="java -cp $work Hello"
  [raw-jdbc-open]="java -cp $jar:$harness dev.hermes.state.migrations.RawJdbcOpenMain $db"
  [fast-path]="java -jar $jar --db $db"
  [liquibase-check]="java -cp $jar:$harness dev.hermes.state.migrations.LiquibaseCheckMain $db"
)
order=(java-version hello-world raw-jdbc-open fast-path liquibase-check)
for name in "${order[@]}"; do : > "$work/$name.times"; done

sha_before="$(sha256sum "$db")"
# one untimed round to warm the OS file cache
for name in "${order[@]}"; do ${cmd[$name]} >/dev/null 2>&1; done
for ((i = 0; i < runs; i++)); do
  for name in "${order[@]}"; do
    start=$(date +%s%N)
    ${cmd[$name]} >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000000)) >> "$work/$name.times"
  done
done

printf '%-16s %8s %8s   (ms, %d runs each, %s)\n' command median min "$runs" "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${order[@]}"; do
  sort -n "$work/$name.times" > "$work/$name.sorted"
  n=$(wc -l < "$work/$name.sorted")
  if ((n % 2)); then median=$(sed -n "$(((n + 1) / 2))p" "$work/$name.sorted")
  else a=$(sed -n "$((n / 2))p" "$work/$name.sorted"); b=$(sed -n "$((n / 2 + 1))p" "$work/$name.sorted"); median=$(((a + b) / 2)); fi
  printf '%-16s %8d %8d\n' "$name" "$median" "$(head -1 "$work/$name.sorted")"
done
[ "$sha_before" = "$(sha256sum "$db")" ] || echo "warning: the file changed during the runs" >&2
