"""A writer that behaves like the Hermes agent's SessionDB: sqlite3 with a 1 s timeout, every write
in BEGIN IMMEDIATE, the whole transaction retried up to 15 times with a random 20-150 ms sleep while
SQLite says "locked"/"busy". Runs the same workload as the Java writers (AppendWorkload).

usage: agent_writer.py DB WRITER ROUNDS   (prints READY, waits for GO, prints DONE ... or FAILED ...)
"""
import json
import random
import sqlite3
import sys
import time

SESSIONS = 4
BATCH = 3
TWO_CALLS = [
    {"id": "call_a", "type": "function", "function": {"name": "terminal", "arguments": "{}"}},
    {"id": "call_b", "type": "function", "function": {"name": "web", "arguments": "{}"}},
]


def main():
    path, writer, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    conn = sqlite3.connect(path, timeout=1.0, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    # today's agent (a file of version 7 or later) counts a tool result's tool calls too
    counts_tool_results = (conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0) >= 7
    retries = [0]

    def execute_write(work):
        last = None
        for _ in range(15):
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                if "locked" in str(e).lower() or "busy" in str(e).lower():
                    last = e
                    retries[0] += 1
                    time.sleep(random.uniform(0.020, 0.150))
                    continue
                raise
            try:
                result = work()
                conn.execute("COMMIT")
                return result
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        raise last

    def append(session_id, role, content, tool_calls=None, tool_name=None):
        def work():
            cursor = conn.execute(
                "INSERT INTO messages (session_id, role, content, tool_calls, tool_name, timestamp) VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, role, content, json.dumps(tool_calls) if tool_calls else None, tool_name, time.time()))
            counted = tool_calls is not None and (role != "tool" or counts_tool_results)
            calls = (len(tool_calls) if isinstance(tool_calls, list) else 1) if counted else 0
            conn.execute("UPDATE sessions SET message_count = message_count + 1, tool_call_count = tool_call_count + ? WHERE id = ?",
                         (calls, session_id))
            return cursor.lastrowid
        return execute_write(work)

    for s in range(SESSIONS):
        execute_write(lambda s=s: conn.execute("INSERT OR IGNORE INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)",
                                               ("%s-s%d" % (writer, s), time.time())))
    print("READY", flush=True)
    if sys.stdin.readline().strip() != "GO":
        print("FAILED no GO", flush=True)
        sys.exit(1)
    latencies = []
    try:
        for round_ in range(rounds):
            for s in range(SESSIONS):
                session_id = "%s-s%d" % (writer, s)
                start = time.perf_counter()
                append(session_id, "user" if round_ % 2 == 0 else "assistant",
                       "%s round %d session %d contention marker" % (writer, round_, s),
                       TWO_CALLS if round_ % 4 == 3 else None)
                latencies.append(time.perf_counter() - start)
                for b in range(BATCH):
                    start = time.perf_counter()
                    append(session_id, "tool", "batch %d of round %d" % (b, round_), TWO_CALLS, "terminal")
                    latencies.append(time.perf_counter() - start)
    except Exception as e:  # report, never hide
        print("FAILED %r" % (e,), flush=True)
        sys.exit(1)
    latencies.sort()
    p99 = latencies[max(0, -(-99 * len(latencies) // 100) - 1)]
    print("DONE p50 %.1f ms, p99 %.1f ms, max %.1f ms, retried transactions %d"
          % (latencies[len(latencies) // 2] * 1000, p99 * 1000, latencies[-1] * 1000, retries[0]), flush=True)


if __name__ == "__main__":
    main()
