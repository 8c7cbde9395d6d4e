"""Drives `hermes-state rpc` from Python, the way an agent-side script would: Hermes' method names,
keyword arguments, and the results read as the Python SessionDB's own return values.

usage: python3 rpc_client.py JAVA JAR DB
"""
import json
import subprocess
import sys

java, jar, db = sys.argv[1:4]
server = subprocess.Popen([java, "-jar", jar, "--db", db, "rpc"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def call(request_id, method, **params):
    server.stdin.write(json.dumps({"id": request_id, "method": method, "params": params}) + "\n")
    server.stdin.flush()
    response = json.loads(server.stdout.readline())
    assert response["id"] == request_id, response
    return response


def result(request_id, method, **params):
    response = call(request_id, method, **params)
    assert "error" not in response, response
    return response["result"]


assert result(1, "create_session", session_id="py1", source="telegram", model="qwen/qwen3-coder") == "py1"
message_id = result(2, "append_message", session_id="py1", role="user", content="数据库迁移 from Python 🐍")
assert isinstance(message_id, int), message_id

session = result(3, "get_session", session_id="py1")
assert session["message_count"] == 1, session
assert session["source"] == "telegram"
assert isinstance(session["started_at"], float), session["started_at"]
assert session["ended_at"] is None and session["title"] is None

rows = result("list", "list_sessions_rich", limit=5)
assert [row["id"] for row in rows] == ["py1"], rows
assert rows[0]["preview"] == "数据库迁移 from Python 🐍", rows[0]["preview"]
assert "_lineage_root_id" not in rows[0], rows[0]
assert rows[0]["last_active"] >= rows[0]["started_at"]

# a compression chain: Hermes adds _lineage_root_id to the row it projected onto the tip, and only to it
result("c1", "create_session", session_id="py-root", source="cli")
result("c2", "end_session", session_id="py-root", end_reason="compression")
result("c3", "create_session", session_id="py-tip", source="cli", parent_session_id="py-root")
rows = result("c4", "list_sessions_rich")
assert [row["id"] for row in rows] == ["py-tip", "py1"], rows
assert rows[0]["_lineage_root_id"] == "py-root", rows[0]
assert "_lineage_root_id" not in rows[1], rows[1]
assert all("_lineage_root_id" not in row for row in result("c5", "list_sessions_rich", include_children=True))

hits = result(5, "search_messages", query="迁移")
assert [(hit["id"], hit["session_id"]) for hit in hits] == [(message_id, "py1")], hits

# every hit comes back when the limit is larger than the number of matches, as in Hermes
ids = result("many", "append_messages", session_id="py1",
             messages=[{"role": "assistant", "content": "deployment %d" % i} for i in range(1200)])
for limit in (1200, 100000, sys.maxsize, 10 ** 30):
    hits = result("limit", "search_messages", query="deploy*", limit=limit)
    assert sorted(hit["id"] for hit in hits) == ids, (limit, len(hits))
assert len(result("offset", "search_messages", query="deploy*", limit=10 ** 12, offset=1100)) == 100

error = call(6, "set_session_title", session_id="py1", title="x" * 101)["error"]
assert error == {"type": "invalid_argument", "message": "Title too long (101 chars, max 100)"}, error
assert call(7, "no_such_method")["error"]["type"] == "unknown_method"
assert result(8, "get_session", session_id="nope") is None

server.stdin.close()
code = server.wait(timeout=60)
assert code == 0, (code, server.stderr.read())
print("OK")
