"""W2 on the Python side (the interpreter's own sqlite3): the engine alone (count(*), MATCH ORDER BY rank
LIMIT 20) and Hermes' search shape (page query with full content, then the previous/next message of each
hit), the 60 queries of BENCHMARK.md W2; one warm-up pass, then ROUNDS passes. Prints per variant and
category the median over rounds of the category p50 (ms). Usage: python3 w2_search.py DB ROUNDS."""
import sqlite3
import sys
import time

from common import median, pct

COMMON = "wune serai sistefout poufouten covoun facutroun vosai docker venin stouhain kousar dofoux fubadum tozo deploy zosus braja lubaitain macofoun busaix".split()
RARE = "quasar ludon ravehair necou saipiwoul gobair hohotoum tagobrou cicer bevais".split()
PHRASE = ['"wune serai"', '"serai wune"', '"wune sistefout"', '"serai poufouten"', '"sistefout covoun"',
          '"docker deploy"', '"deploy docker"', '"wune kubernetes"', '"postgres migration"', '"latency rollback"']
PREFIX = "doc* dep* kub* pos* mig* lat* rol* wun* ser* sis*".split()
OR = ["docker OR kubernetes", "postgres OR migration", "latency OR rollback", "deploy OR quasar", "quasar OR rollback",
      "wune OR serai", "wune OR quasar", "brobrouho OR voutrul", "joukoupail OR ravehair", "bevais OR quasar"]
CASES = [("common", q) for q in COMMON] + [("rare", q) for q in RARE] + [("phrase", q) for q in PHRASE] + \
        [("prefix", q) for q in PREFIX] + [("or", q) for q in OR]
CATEGORIES = ["common", "rare", "phrase", "prefix", "or"]

ENGINE_RANK = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20"
ENGINE_COUNT = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?"
HERMES_PAGE = ("SELECT m.id, m.session_id, m.role, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet, "
               "m.content, m.timestamp, m.tool_name, s.source, s.model, s.started_at AS session_started "
               "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id "
               "WHERE messages_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?")
PREVIOUS = ("SELECT role, content FROM messages WHERE session_id = ? AND (timestamp, id) < (?, ?) "
            "ORDER BY timestamp DESC, id DESC LIMIT 1")
NEXT = ("SELECT role, content FROM messages WHERE session_id = ? AND (timestamp, id) > (?, ?) "
        "ORDER BY timestamp, id LIMIT 1")


def hermes(conn, q):
    matches = [dict(r) for r in conn.execute(HERMES_PAGE, (q, 20, 0)).fetchall()]
    for m in matches:
        ctx = []
        for sql in (PREVIOUS, NEXT):
            for r in conn.execute(sql, (m["session_id"], m["timestamp"], m["id"])).fetchall():
                ctx.append({"role": r["role"], "content": (r["content"] or "")[:200]})
        m["context"] = ctx
        m.pop("content", None)
    return len(matches)


def main():
    db, rounds = sys.argv[1], int(sys.argv[2])
    conn = sqlite3.connect(db, check_same_thread=False, timeout=1.0)
    conn.row_factory = sqlite3.Row
    variants = {
        "engine-count": lambda q: conn.execute(ENGINE_COUNT, (q,)).fetchone()[0],
        "engine-rank": lambda q: len(conn.execute(ENGINE_RANK, (q,)).fetchall()),
        "hermes-sql": lambda q: hermes(conn, q),
    }
    names = list(variants)
    results = {n: {c: [] for c in CATEGORIES} for n in names}
    for rnd in range(-1, rounds):
        times = {n: {c: [] for c in CATEGORIES} for n in names}
        for call, (cat, q) in enumerate(CASES):
            for turn in range(len(names)):
                n = names[(turn + call) % len(names)]
                t0 = time.perf_counter()
                variants[n](q)
                times[n][cat].append((time.perf_counter() - t0) * 1000)
        if rnd >= 0:
            for n in names:
                for c in CATEGORIES:
                    results[n][c].append(pct(times[n][c], 50))
    print("python %s, SQLite %s; %d rounds (median over rounds of the category p50, ms; min-max)" % (
        sys.version.split()[0], sqlite3.sqlite_version, rounds))
    print("%-14s" % "variant" + "".join(" %22s" % c for c in CATEGORIES))
    for n in names:
        print("%-14s" % n + "".join(" %22s" % ("%.2f (%.2f-%.2f)" % (median(v), min(v), max(v)))
                                    for v in (results[n][c] for c in CATEGORIES)))


if __name__ == "__main__":
    main()
