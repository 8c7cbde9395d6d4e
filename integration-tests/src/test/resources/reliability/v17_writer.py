"""Writes to a schema-17 state.db the way the Hermes agent does at that schema, for V17MixedWritersTest.

One connection (timeout=1.0, autocommit, WAL, foreign keys); every write in BEGIN IMMEDIATE ... COMMIT,
retried on "locked"/"busy" up to 15 attempts after a random 20-150 ms sleep. What a write does:
  append    INSERT a row born active=1, compacted=0 (list content stored as NUL + 'json:' + json.dumps)
            and message_count + 1, tool_call_count + len(tool_calls), in the same transaction
  title     UPDATE sessions SET title
  rewind    UPDATE messages SET active=0 for the live rows from a user message on, rewind_count + 1
  restore   UPDATE messages SET active=1 for the hidden rows from that message on
  archive   UPDATE sessions SET archived = 0|1
  compact   live rows become active=0, compacted=1, two summary rows are inserted, the counters become the live ones
Every message carries a word of its own ("w<name><n>x") so a search can find exactly it.

stdout: READY / M session id (each committed append) / ERROR text / MODEL json (what it wrote) /
DONE writes retries; then, after a line "VIEW" on stdin, VIEW json: the whole file as this process reads it.

usage: v17_writer.py DB NAME SEED ROUNDS
"""
import json
import random
import sqlite3
import sys
import time

PREFIX = "\x00json:"
MAX_ATTEMPTS = 15


class Store:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, timeout=1.0, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.writes = 0
        self.retries = 0

    def write(self, fn):
        for attempt in range(MAX_ATTEMPTS):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    result = fn(self.conn)
                    self.conn.execute("COMMIT")
                except BaseException:
                    try:
                        self.conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                    raise
                self.writes += 1
                return result
            except sqlite3.OperationalError as error:
                text = str(error).lower()
                if ("locked" in text or "busy" in text) and attempt < MAX_ATTEMPTS - 1:
                    self.retries += 1
                    time.sleep(random.uniform(0.020, 0.150))
                    continue
                raise


def encode(content):
    return PREFIX + json.dumps(content) if isinstance(content, (list, dict)) else content


def decode(stored):
    if isinstance(stored, str) and stored.startswith(PREFIX):
        return json.loads(stored[len(PREFIX):])
    return stored


class Writer:
    def __init__(self, store, name, rng):
        self.store, self.name, self.rng = store, name, rng
        self.sessions = {}
        self.words = 0

    def word(self):
        self.words += 1
        return "w%s%dx" % (self.name, self.words)

    def create(self, sid):
        self.store.write(lambda c: c.execute(
            "INSERT INTO sessions (id, source, model, started_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET model = COALESCE(sessions.model, excluded.model)",
            (sid, "python", "agent-model", time.time())))
        self.sessions[sid] = {"title": None, "archived": 0, "rewind_count": 0, "message_count": 0,
                              "tool_call_count": 0, "messages": []}

    def insert(self, conn, sid, role, content, tool_calls, tool_name, tool_call_id):
        cursor = conn.execute(
            "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp,"
            " active, compacted) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0)",
            (sid, role, encode(content), tool_call_id, json.dumps(tool_calls) if tool_calls else None, tool_name,
             time.time()))
        return cursor.lastrowid

    def append(self, sid):
        s = self.sessions[sid]
        word = self.word()
        kind = self.rng.randrange(4)
        tool_calls = tool_name = tool_call_id = None
        if kind == 0:
            role, content = "user", "please check %s and the docker logs" % word
        elif kind == 1:
            role, content = "user", [{"type": "text", "text": "look at %s" % word},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]
        elif kind == 2:
            role, content = "assistant", "running %s" % word
            tool_calls = [{"id": "call_%s_%d" % (word, i), "type": "function",
                           "function": {"name": "terminal", "arguments": json.dumps({"command": "ls %d" % i})}}
                          for i in range(1 + self.rng.randrange(3))]
        else:
            role, content, tool_name, tool_call_id = "tool", "output %s total 0" % word, "terminal", "call_" + word

        def do(conn):
            message_id = self.insert(conn, sid, role, content, tool_calls, tool_name, tool_call_id)
            conn.execute("UPDATE sessions SET message_count = message_count + 1,"
                         " tool_call_count = tool_call_count + ? WHERE id = ?",
                         (len(tool_calls) if tool_calls else 0, sid))
            return message_id
        message_id = self.store.write(do)
        s["messages"].append({"id": message_id, "role": role, "content": content, "tool_calls": tool_calls,
                              "tool_name": tool_name, "tool_call_id": tool_call_id, "active": 1, "compacted": 0,
                              "word": word})
        s["message_count"] += 1
        s["tool_call_count"] += len(tool_calls) if tool_calls else 0
        report("M %s %d" % (sid, message_id))

    def rewind(self, sid, restore):
        s = self.sessions[sid]
        users = [m for m in s["messages"] if m["role"] == "user" and m["active"] == 1]
        if not users:
            return
        target = self.rng.choice(users)["id"]

        def do(conn):
            conn.execute("UPDATE messages SET active = 0 WHERE session_id = ? AND id >= ? AND active = 1", (sid, target))
            conn.execute("UPDATE sessions SET rewind_count = COALESCE(rewind_count, 0) + 1 WHERE id = ?", (sid,))
        self.store.write(do)
        s["rewind_count"] += 1
        for m in s["messages"]:
            if m["id"] >= target and m["active"] == 1:
                m["active"] = 0
        if restore:
            self.store.write(lambda c: c.execute(
                "UPDATE messages SET active = 1 WHERE session_id = ? AND id >= ? AND active = 0", (sid, target)))
            for m in s["messages"]:
                if m["id"] >= target and m["active"] == 0:
                    m["active"] = 1

    def compact(self, sid):
        s = self.sessions[sid]
        summary = [("user", "summary %s of the earlier turns" % self.word()),
                   ("assistant", [{"type": "text", "text": "noted %s" % self.word()}])]

        def do(conn):
            conn.execute("UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ? AND active = 1", (sid,))
            ids = [self.insert(conn, sid, role, content, None, None, None) for role, content in summary]
            conn.execute("UPDATE sessions SET message_count = ?, tool_call_count = 0 WHERE id = ?", (len(ids), sid))
            return ids
        ids = self.store.write(do)
        for m in s["messages"]:
            if m["active"] == 1:
                m["active"], m["compacted"] = 0, 1
        for message_id, (role, content) in zip(ids, summary):
            word = content if isinstance(content, str) else content[0]["text"]
            s["messages"].append({"id": message_id, "role": role, "content": content, "tool_calls": None,
                                  "tool_name": None, "tool_call_id": None, "active": 1, "compacted": 0,
                                  "word": word.split()[1]})
        s["message_count"], s["tool_call_count"] = len(ids), 0

    def round(self, number):
        if number % 10 == 0:
            self.create("%s-s%d" % (self.name, number // 10))
        sid = self.rng.choice(sorted(self.sessions))
        s = self.sessions[sid]
        for _ in range(1 + self.rng.randrange(3)):
            self.append(sid)
        r = self.rng.random()
        if r < 0.25:
            title = "%s title %d" % (self.name, number)
            self.store.write(lambda c: c.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, sid)))
            s["title"] = title
        elif r < 0.45:
            self.rewind(sid, self.rng.random() < 0.5)
        elif r < 0.55:
            s["archived"] = 1 - s["archived"]
            self.store.write(lambda c: c.execute("UPDATE sessions SET archived = ? WHERE id = ?", (s["archived"], sid)))
        elif r < 0.60:
            self.compact(sid)


def view(conn):
    """Every session and message of the file, content decoded."""
    sessions = {}
    for row in conn.execute("SELECT id, source, title, archived, rewind_count, message_count, tool_call_count"
                            " FROM sessions ORDER BY id"):
        sessions[row[0]] = {"source": row[1], "title": row[2], "archived": row[3], "rewind_count": row[4],
                            "message_count": row[5], "tool_call_count": row[6], "messages": []}
    for row in conn.execute("SELECT id, session_id, role, content, tool_calls, tool_name, tool_call_id, active,"
                            " compacted FROM messages ORDER BY id"):
        sessions[row[1]]["messages"].append({
            "id": row[0], "role": row[2], "content": decode(row[3]),
            "tool_calls": json.loads(row[4]) if row[4] else None, "tool_name": row[5], "tool_call_id": row[6],
            "active": row[7], "compacted": row[8]})
    return sessions


def report(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    path, name, seed, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    store = Store(path)
    writer = Writer(store, name, random.Random(seed))
    report("READY")
    try:
        for number in range(rounds):
            writer.round(number)
    except Exception as error:  # a surfaced error: the test fails on any
        report("ERROR %s %s" % (type(error).__name__, str(error).replace("\n", " ")))
    report("MODEL " + json.dumps(writer.sessions))
    report("DONE %d %d" % (store.writes, store.retries))
    if sys.stdin.readline().strip() == "VIEW":
        report("VIEW " + json.dumps(view(store.conn)))
    store.conn.close()


if __name__ == "__main__":
    main()
