#!/usr/bin/env bash
# Cold-start cost of opening an up-to-date state.db with the migration-only command: the fast path
# (no Liquibase) against a full Liquibase check of the same file, with three baselines (java -version,
# hello world, plain sqlite-jdbc opening the file and reading its version), each in a fresh JVM,
# interleaved round-robin so that machine load hits them alike. Prints the median and minimum wall
# time and the median CPU time (user + sys) of each, in milliseconds.
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

sha_before="$(sha256sum "$db")"
# one untimed round to warm the OS file cache
for name in "${order[@]}"; do ${cmd[$name]} >/dev/null 2>&1; done
# wall time, and CPU time (user + sys), which suffers less when other work shares the cores
for ((i = 0; i < runs; i++)); do
  for name in "${order[@]}"; do
    /usr/bin/time -f "%e %U %S" -a -o "$work/$name.raw" ${cmd[$name]} >/dev/null 2>&1
  done
done
for name in "${order[@]}"; do
  awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$work/$name.raw" > "$work/$name.times"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
printf '%-16s %12s %9s %11s   (ms; %d runs each; %s cores; load %s)\n' command "wall median" "wall min" "CPU median" \
  "$runs" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${order[@]}"; do
  printf '%-16s %12d %9d %11d\n' "$name" "$(cut -d' ' -f1 "$work/$name.times" | median)" \
    "$(cut -d' ' -f1 "$work/$name.times" | sort -n | head -1)" "$(cut -d' ' -f2 "$work/$name.times" | median)"
done
[ "$sha_before" = "$(sha256sum "$db")" ] || echo "warning: the file changed during the runs" >&2
