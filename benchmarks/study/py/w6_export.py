"""W6 as the Python agent does it (a reproduction, Hermes' code is not here): export_all() = every session
(SELECT * FROM sessions newest first) with get_messages() each (SELECT * ... ORDER BY timestamp, id,
tool_calls json.loads'ed), all in one list; then json.dumps per session, one line each, to OUT.
Prints export_s, serialize_write_s, total_s and peak RSS. Usage: python3 w6_export.py DB OUT."""
import json
import sqlite3
import sys
import time


def get_messages(conn, sid):
    rows = conn.execute("SELECT * FROM messages WHERE session_id = ? ORDER BY timestamp, id", (sid,)).fetchall()
    result = []
    for row in rows:
        msg = dict(row)
        if msg.get("tool_calls"):
            try:
                msg["tool_calls"] = json.loads(msg["tool_calls"])
            except (json.JSONDecodeError, TypeError):
                msg["tool_calls"] = []
        result.append(msg)
    return result


def main():
    db, out = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(db, check_same_thread=False, timeout=1.0)
    conn.row_factory = sqlite3.Row
    t0 = time.perf_counter()
    sessions = [dict(r) for r in conn.execute("SELECT * FROM sessions ORDER BY started_at DESC LIMIT 100000 OFFSET 0")]
    exported = [{**s, "messages": get_messages(conn, s["id"])} for s in sessions]
    t1 = time.perf_counter()
    with open(out, "w", encoding="utf-8") as f:
        for e in exported:
            f.write(json.dumps(e))
            f.write("\n")
    t2 = time.perf_counter()
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
    print("python export: sessions %d messages %d export_s %.2f serialize_write_s %.2f total_s %.2f peak_rss_mb %.0f" % (
        len(exported), sum(len(e["messages"]) for e in exported), t1 - t0, t2 - t1, t2 - t0, int(hwm) / 1024))


if __name__ == "__main__":
    main()
