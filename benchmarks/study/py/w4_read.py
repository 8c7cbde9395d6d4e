"""W4 as the Python agent runs it: sqlite3 (the interpreter's own SQLite), one connection, sqlite3.Row rows,
the SELECT of Hermes' get_messages_as_conversation and its dict building (SPEC section 4), 200 READ-stream
sessions per round. Usage: python3 w4_read.py DB ROUNDS [S]. Prints per round msgs/s and p50, then the median."""
import json
import sqlite3
import sys
import time

from common import median, pct, read_sample

SQL = ("SELECT role, content, tool_call_id, tool_calls, tool_name, reasoning, reasoning_details, "
       "codex_reasoning_items FROM messages WHERE session_id = ? ORDER BY timestamp, id")


def conversation(conn, session_id):
    rows = conn.execute(SQL, (session_id,)).fetchall()
    messages = []
    for row in rows:
        msg = {"role": row["role"], "content": row["content"]}
        if row["tool_call_id"]:
            msg["tool_call_id"] = row["tool_call_id"]
        if row["tool_name"]:
            msg["tool_name"] = row["tool_name"]
        if row["tool_calls"]:
            try:
                msg["tool_calls"] = json.loads(row["tool_calls"])
            except (json.JSONDecodeError, TypeError):
                pass
        if row["role"] == "assistant":
            if row["reasoning"]:
                msg["reasoning"] = row["reasoning"]
            for key in ("reasoning_details", "codex_reasoning_items"):
                if row[key]:
                    try:
                        msg[key] = json.loads(row[key])
                    except (json.JSONDecodeError, TypeError):
                        msg[key] = None
        messages.append(msg)
    return messages


def main():
    db, rounds = sys.argv[1], int(sys.argv[2])
    sessions = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    ids = read_sample(sessions)
    rates, p50s, p95s = [], [], []
    for _ in range(rounds):
        # a fresh connection each round (a cold page cache, as W4 meets it), like ReadStudy
        conn = sqlite3.connect(db, check_same_thread=False, timeout=1.0)
        conn.row_factory = sqlite3.Row
        times, count = [], 0
        for sid in ids:
            t0 = time.perf_counter()
            msgs = conversation(conn, sid)
            times.append(time.perf_counter() - t0)
            count += len(msgs)
        rates.append(count / sum(times))
        p50s.append(pct(times, 50) * 1000)
        p95s.append(pct(times, 95) * 1000)
        conn.close()
    print("python %s sqlite %s: msgs/s median %.0f (%.0f-%.0f), p50 ms median %.3f (%.3f-%.3f), p95 ms median %.3f (%.3f-%.3f)" % (
        sys.version.split()[0], sqlite3.sqlite_version, median(rates), min(rates), max(rates),
        median(p50s), min(p50s), max(p50s), median(p95s), min(p95s), max(p95s)))


if __name__ == "__main__":
    main()
