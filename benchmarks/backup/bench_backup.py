"""Times `hermes-state backup`: a full backup of a generated store, then --incremental after 1% and
after 10% more writes (new sessions and messages appended to old ones), each checked against a fresh
full backup (same checksum); at the end one --incremental --verify full with nothing changed (what the
whole verification costs). Usage: python3 bench_backup.py JAR WORKDIR [SESSIONS] [MESSAGES_PER_SESSION]
The store starts from the agent's schema-17 fixture (copied), filled with the stdlib sqlite3 through the
agent's own triggers."""
import json, os, shutil, sqlite3, subprocess, sys, time

jar, work = sys.argv[1], sys.argv[2]
sessions = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
per_session = int(sys.argv[4]) if len(sys.argv) > 4 else 100
fixture = os.environ.get("HERMES_FIXTURE", "/work/shared/fixtures/hermes/state-v17.db")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
db = os.path.join(work, "state.db")
shutil.copy(fixture, db)
os.chmod(db, 0o600)
TEXT = "the quick brown fox jumps over the lazy dog while the agent writes a backup of its sessions "


def write(new_sessions, appended_sessions, messages_each, tag):
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("BEGIN")
    ids = ["%s-%06d" % (tag, i) for i in range(new_sessions)]
    c.executemany("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', 1)", [(i,) for i in ids])
    old = [r[0] for r in c.execute("SELECT id FROM sessions WHERE id LIKE 'gen-%' ORDER BY id LIMIT ?", (appended_sessions,))]
    rows = [(s, "user" if n % 2 else "assistant", TEXT + "%s %d" % (tag, n), 1000 + n)
            for s in ids + old for n in range(messages_each)]
    c.executemany("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", rows)
    for s in ids + old:
        c.execute("UPDATE sessions SET message_count = message_count + ? WHERE id = ?", (messages_each, s))
    c.execute("COMMIT")
    c.close()
    return len(rows)


def backup(target, *extra):
    start = time.time()
    out = subprocess.run(["java", "-jar", jar, "--db", db, "--json", "backup", "--to", target, *extra],
                         capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    report["wall_seconds"] = time.time() - start
    return report


write(sessions, 0, per_session, "gen")
total = sessions * per_session
print("store: %d sessions, %d messages, %.1f MB" % (sessions, total, os.path.getsize(db) / 1e6))
b = os.path.join(work, "backup.db")
full = backup(b)
print("full backup: copy %.2f s, verify %.2f s, wall %.2f s, %.1f MB" % (
    full["copy_seconds"], full["verify_seconds"], full["wall_seconds"], full["bytes"] / 1e6))
for share in (0.01, 0.10):
    added = write(int(sessions * share / 2), int(sessions * share / 2), per_session, "inc%d" % int(share * 100))
    inc = backup(b, "--incremental")
    fresh = backup(os.path.join(work, "fresh-%d.db" % int(share * 100)))
    assert inc["checksum"] == fresh["checksum"], (inc, fresh)
    print("+%d%% (%d messages): incremental update %.2f s, verify %.2f s (%d rows examined), wall %.2f s; fresh full"
          " copy %.2f s, verify %.2f s, wall %.2f s; checksums equal" % (share * 100, added, inc["copy_seconds"],
          inc["verify_seconds"], inc["changes"]["rows_examined"], inc["wall_seconds"], fresh["copy_seconds"],
          fresh["verify_seconds"], fresh["wall_seconds"]))
whole = backup(b, "--incremental", "--verify", "full")
assert whole["checksum"] == fresh["checksum"], (whole, fresh)
print("--incremental --verify full, nothing changed: update %.2f s, verify %.2f s (%d rows examined), wall %.2f s" % (
    whole["copy_seconds"], whole["verify_seconds"], whole["changes"]["rows_examined"], whole["wall_seconds"]))
