"""The interpreter's SQLite on the same FTS5 queries as EngineStudy.java: python3 engine.py DB REPS rank|count QUERY..."""
import sqlite3, sys, time
RANK = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20"
COUNT = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?"
db, reps, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sql = RANK if kind == "rank" else COUNT
conn = sqlite3.connect(db)
out = "python sqlite3 %s %s:" % (sqlite3.sqlite_version, kind)
for q in sys.argv[4:]:
    ms = []
    for i in range(-3, reps):
        t = time.perf_counter()
        conn.execute(sql, (q,)).fetchall()
        if i >= 0:
            ms.append((time.perf_counter() - t) * 1000)
    ms.sort()
    out += "  %s min %.2f med %.2f;" % (q, ms[0], ms[reps // 2])
print(out)
