"""Writes to a state.db the way the Hermes agent's SessionDB does, for the mixed-writer test.

One connection (timeout=1.0, isolation_level=None, WAL, foreign keys), every write in
BEGIN IMMEDIATE ... COMMIT, retried on "database is locked/busy" up to 15 attempts with a random
20-150 ms sleep, a PASSIVE checkpoint every 50 writes; append_message inserts the row and bumps the
session's counters in the same transaction (a tool result's tool calls count on a file of version 7 or
later, as today's agent counts them, not on an older one). Reports on stdout like the Java writer:
READY / M session id / ERROR message / DONE writes.

usage: agent_writer.py DB NAME SEED SECONDS [SHARED_SESSION ...]
"""
import json
import random
import sqlite3
import sys
import time

MAX_ATTEMPTS = 15
RETRY_MIN_S, RETRY_MAX_S = 0.020, 0.150
CHECKPOINT_EVERY = 50
WORDS = ["alpha", "bravo", "deploy", "docker", "migration", "kernel", "latency", "quorum", "vector",
         "zephyr", "python", "agent", "gateway", "telegram", "数据库迁移问题", "foo@bar.com", "v2.14.3"]


class AgentStore:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, check_same_thread=False, timeout=1.0, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.writes = 0
        self.version = self.conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0

    def execute_write(self, fn):
        last_error = None
        for attempt in range(MAX_ATTEMPTS):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    result = fn(self.conn)
                    self.conn.commit()
                except BaseException:
                    try:
                        self.conn.rollback()
                    except Exception:
                        pass
                    raise
                self.writes += 1
                if self.writes % CHECKPOINT_EVERY == 0:
                    try:
                        self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    except Exception:
                        pass
                return result
            except sqlite3.OperationalError as error:
                message = str(error).lower()
                if "locked" in message or "busy" in message:
                    last_error = error
                    if attempt < MAX_ATTEMPTS - 1:
                        time.sleep(random.uniform(RETRY_MIN_S, RETRY_MAX_S))
                        continue
                raise
        raise last_error

    def create_session(self, session_id, source, model=None):
        def do(conn):
            conn.execute("INSERT OR IGNORE INTO sessions (id, source, model, started_at) VALUES (?, ?, ?, ?)",
                         (session_id, source, model, time.time()))
        self.execute_write(do)

    def append_message(self, session_id, role, content=None, tool_calls=None, tool_call_id=None, tool_name=None):
        tool_calls_json = json.dumps(tool_calls) if tool_calls else None
        count = 0
        if tool_calls is not None and (role != "tool" or self.version >= 7):
            count = len(tool_calls) if isinstance(tool_calls, list) else 1

        def do(conn):
            cursor = conn.execute(
                "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, role, content, tool_call_id, tool_calls_json, tool_name, time.time()))
            message_id = cursor.lastrowid
            if count > 0:
                conn.execute("UPDATE sessions SET message_count = message_count + 1,"
                             " tool_call_count = tool_call_count + ? WHERE id = ?", (count, session_id))
            else:
                conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (session_id,))
            return message_id
        return self.execute_write(do)


def report(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    path, name, seed, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    shared = sys.argv[5:]
    rng = random.Random(seed)
    store = AgentStore(path)
    own = [name + "-s" + str(i) for i in range(3)]
    for session_id in own + shared:
        store.create_session(session_id, "reliability", "agent-model")
    report("READY")
    deadline = time.monotonic() + seconds
    op = 0
    while time.monotonic() < deadline:
        op += 1
        session_id = rng.choice(shared) if shared and rng.random() < 0.3 else rng.choice(own)
        kind = rng.randrange(10)
        content = name + " op" + str(op) + " " + " ".join(rng.choice(WORDS) for _ in range(3 + rng.randrange(10)))
        call = {"id": "call_%d" % rng.randrange(10 ** 6), "type": "function",
                "function": {"name": "terminal", "arguments": "{\"command\": \"ls\"}"}}
        try:
            if kind < 4:
                message_id = store.append_message(session_id, "user", content)
            elif kind < 8:
                shape = rng.randrange(3)
                calls = [call] * (1 + rng.randrange(3)) if shape == 0 else (call if shape == 1 else None)
                message_id = store.append_message(session_id, "assistant", content, tool_calls=calls)
            else:
                message_id = store.append_message(session_id, "tool", content, tool_call_id=call["id"],
                                                  tool_name="terminal")
            report("M %s %d" % (session_id, message_id))
        except Exception as error:  # a surfaced error: the test fails on any
            report("ERROR %s %s" % (type(error).__name__, str(error).replace("\n", " ")))
    report("DONE %d" % store.writes)
    store.conn.close()


if __name__ == "__main__":
    main()
