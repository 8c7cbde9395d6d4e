#!/usr/bin/env bash
# Start-up of the command line against a hello-world JVM, measured in the same run (issue 5, W8):
# the wall time of `./hermes-state --db FILE sessions list` on an up-to-date file versus
# `java -jar hello.jar`, RUNS times each, interleaved so that both see the same machine load.
# Prints the medians and the ratio; also the CPU time (user+sys), which load disturbs less.
#
# usage: cli/measure-startup.sh [RUNS]      (from the checkout root; builds the jar if needed)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-10}"
work="$root/cli/target/startup"
rm -rf "$work"
mkdir -p "$work/hello"

# hello world, started the same way (java -jar)
cat > "$work/hello/Hello.java" <<'EOF'
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
EOF
javac -d "$work/hello" "$work/hello/Hello.java"
printf 'Main-Class: Hello\n' > "$work/hello/manifest.txt"
jar cfm "$work/hello.jar" "$work/hello/manifest.txt" -C "$work/hello" Hello.class

# an up-to-date database: the demo's sample sessions (built and migrated by a first, untimed run)
"$root/hermes-state" --db "$work/state.db" demo > /dev/null

# one timed run: prints "wall_ms cpu_ms"
timed() {
  local start end
  start=$(date +%s%N)
  /usr/bin/time -o "$work/cpu.txt" -f "%U %S" "$@" > /dev/null 2> "$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
  end=$(date +%s%N)
  awk -v wall="$(( (end - start) / 1000000 ))" '{ printf "%d %d\n", wall, ($1 + $2) * 1000 }' "$work/cpu.txt"
}

: > "$work/hello.txt"
: > "$work/list.txt"
for _ in $(seq 1 "$runs"); do
  timed java -jar "$work/hello.jar" >> "$work/hello.txt"
  timed "$root/hermes-state" --db "$work/state.db" sessions list >> "$work/list.txt"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
hello_wall=$(cut -d' ' -f1 "$work/hello.txt" | median)
list_wall=$(cut -d' ' -f1 "$work/list.txt" | median)
hello_cpu=$(cut -d' ' -f2 "$work/hello.txt" | median)
list_cpu=$(cut -d' ' -f2 "$work/list.txt" | median)
echo "runs: $runs each, interleaved; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java -jar hello.jar                          wall median ${hello_wall} ms   cpu median ${hello_cpu} ms"
echo "./hermes-state --db FILE sessions list       wall median ${list_wall} ms   cpu median ${list_cpu} ms"
awk -v l="$list_wall" -v h="$hello_wall" -v lc="$list_cpu" -v hc="$hello_cpu" \
  'BEGIN { printf "ratio (sessions list / hello): wall %.2f x   cpu %.2f x\n", l / h, lc / hc }'
