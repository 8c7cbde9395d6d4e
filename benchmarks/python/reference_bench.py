#!/usr/bin/env python3
"""The Python reference side of the hermes-state benchmark (definition ``hermes-state-bench/1``).

Runs the workload of BENCHMARK.md (W1-W9) against the Python Hermes agent's own ``SessionDB``
(``hermes_state.py``), imported from an agent checkout named on the command line: nothing of the
agent is part of this repository. Writes the result file with the keys of BENCHMARK.md "Result
file" (plus ``details``), so that it can be compared key by key with the Java module's result
(``./hermes-state bench``); ``--compare JAVA.json PY.json`` prints that comparison as one table.

    python3 benchmarks/python/reference_bench.py --agent /tmp/agent --quick
    python3 benchmarks/python/reference_bench.py --agent /tmp/agent            # S=5000
    python3 benchmarks/python/reference_bench.py --compare target/bench/hermes-bench-S500-M40.json \\
        target/bench/python-bench-S500-M40.json

Only the Python standard library is used. Exit code 0 = the run completed and every correctness
check passed; 1 = a data or correctness check failed (the data check runs before anything is
measured); 2 = bad arguments.
"""
from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import math
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

DEFINITION = "hermes-state-bench/1"
SEED = 42
MASK64 = (1 << 64) - 1
MODEL = "bench/model-a"
SOURCES = ("cli", "telegram", "discord", "slack", "whatsapp")
WORDS_PER_MESSAGE = 40
ACTIVE_SLOTS = 50
SLICES = 10

STREAM_VOCAB = 42
STREAM_QUASAR = 43
STREAM_CONTENT = 44
STREAM_READ = 45
STREAM_CHAIN = 46
STREAM_W9 = 50

HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------------------------
# 1. Data generator
# ---------------------------------------------------------------------------------------------

class SplitMix64:
    """BENCHMARK.md 1.1: 64-bit SplitMix64 with wrap-around; next_below = top 53 bits mod n."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def next_below(self, n: int) -> int:
        return (self.next() >> 11) % n


ONSETS = ("b c d f g h j k l m n p r s t v w z br ch st tr").split()
NUCLEI = ("a e i o u ai ou").split()
CODAS = ("", "", "", "n", "r", "s", "l", "x", "m", "t")
FIXED_WORDS = ("docker", "kubernetes", "postgres", "migration", "deploy", "latency", "rollback", "quasar")
OPERATORS = ("and", "or", "not", "near")
FIXED_RANKS = (("docker", 8), ("deploy", 15), ("kubernetes", 40), ("postgres", 60), ("migration", 120),
               ("latency", 250), ("rollback", 500))
VOCAB_WORDS = 2000


def build_vocabulary() -> List[str]:
    """BENCHMARK.md 1.2: the 2,007 ranked words (index 0 = rank 1)."""
    stream = SplitMix64(STREAM_VOCAB)
    accepted: List[str] = []
    seen = set()
    rejected = set(FIXED_WORDS) | set(OPERATORS)
    while len(accepted) < VOCAB_WORDS:
        syllables = 3 if stream.next_below(4) == 0 else 2
        word = ""
        for _ in range(syllables):
            word += ONSETS[stream.next_below(len(ONSETS))]
            word += NUCLEI[stream.next_below(len(NUCLEI))]
        word += CODAS[stream.next_below(len(CODAS))]
        if word in seen or word in rejected:
            continue
        seen.add(word)
        accepted.append(word)
    for word, rank in FIXED_RANKS:
        accepted.insert(rank - 1, word)
    return accepted


class Zipf:
    """BENCHMARK.md 1.3: integer weights floor(1e9 / k^1.1), cumulative, word = smallest k with C_k > r."""

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.words = list(vocabulary)
        cumulative = []
        total = 0
        for k in range(1, len(self.words) + 1):
            total += int(1e9 / math.pow(k, 1.1))
            cumulative.append(total)
        self.cumulative = cumulative
        self.total = total

    def content(self, stream: SplitMix64, words: int = WORDS_PER_MESSAGE) -> List[str]:
        """One message: ``words`` draws (BENCHMARK.md 1.4), as a list so 1.5 can replace one word."""
        cumulative, vocab, total = self.cumulative, self.words, self.total
        out = []
        for _ in range(words):
            out.append(vocab[bisect.bisect_right(cumulative, stream.next_below(total))])
        return out


def role_script(m: int) -> List[str]:
    """BENCHMARK.md 1.6: 'user' / 'assistant' / 'assistant+tool' (carries a tool call) / 'tool'."""
    roles: List[str] = []
    assistants = 0
    upcoming = "user"
    while len(roles) < m:
        if upcoming == "user":
            roles.append("user")
            upcoming = "assistant"
        elif upcoming == "assistant":
            assistants += 1
            if assistants % 5 == 0:
                roles.append("assistant+tool")
                upcoming = "tool"
            else:
                roles.append("assistant")
                upcoming = "user"
        else:
            roles.append("tool")
            upcoming = "user"
    return roles


def tool_calls_of(n: int) -> List[Dict[str, Any]]:
    return [{"id": f"call_{n}", "type": "function",
             "function": {"name": "terminal", "arguments": "{\"cmd\": \"ls\"}"}}]


class Message:
    """One append_message call: its keyword arguments, generated before any timer starts."""

    __slots__ = ("session_id", "role", "content", "tool_calls", "tool_name", "tool_call_id")

    def __init__(self, session_id: str, role: str, content: str, tool_calls: Optional[list] = None,
                 tool_name: Optional[str] = None, tool_call_id: Optional[str] = None) -> None:
        self.session_id = session_id
        self.role = role
        self.content = content
        self.tool_calls = tool_calls
        self.tool_name = tool_name
        self.tool_call_id = tool_call_id

    def append_to(self, db: Any) -> int:
        if self.tool_calls is not None:
            return db.append_message(self.session_id, role=self.role, content=self.content,
                                     tool_calls=self.tool_calls)
        if self.tool_name is not None:
            return db.append_message(self.session_id, role=self.role, content=self.content,
                                     tool_name=self.tool_name, tool_call_id=self.tool_call_id)
        return db.append_message(self.session_id, role=self.role, content=self.content)


class MessageMaker:
    """Turns a role script position into a Message, with the workload's running tool-call counter."""

    def __init__(self) -> None:
        self.tool_calls = 0
        self.last_call: Dict[str, int] = {}

    def make(self, session_id: str, role: str, content: str) -> Message:
        if role == "assistant+tool":
            self.tool_calls += 1
            self.last_call[session_id] = self.tool_calls
            return Message(session_id, "assistant", content, tool_calls=tool_calls_of(self.tool_calls))
        if role == "tool":
            return Message(session_id, "tool", content, tool_name="terminal",
                           tool_call_id=f"call_{self.last_call[session_id]}")
        return Message(session_id, role, content)


def session_id(i: int) -> str:
    return f"bench-{i:06d}"


def quasar_positions(total: int) -> Dict[int, int]:
    """BENCHMARK.md 1.5: 25 distinct ordinals g in [0, N) with a word position each."""
    stream = SplitMix64(STREAM_QUASAR)
    chosen: Dict[int, int] = {}
    while len(chosen) < 25:
        g = stream.next_below(total)
        pos = stream.next_below(WORDS_PER_MESSAGE)
        if g not in chosen:
            chosen[g] = pos
    return chosen


class IngestPlan:
    """BENCHMARK.md 1.7: the W1 schedule; steps are ('create', index) or ('append', Message)."""

    def __init__(self, sessions: int, per_session: int, zipf: Zipf) -> None:
        self.sessions = sessions
        self.per_session = per_session
        total = sessions * per_session
        quasar = quasar_positions(total)
        roles = role_script(per_session)
        content_stream = SplitMix64(STREAM_CONTENT)
        maker = MessageMaker()
        steps: List[Tuple[str, Any]] = []
        slots: List[Optional[int]] = [None] * ACTIVE_SLOTS
        filled = [0] * sessions
        upcoming = 0
        ordinal = 0
        digest = hashlib.sha256()
        chars = 0
        while True:
            appended = False
            for j in range(ACTIVE_SLOTS):
                if slots[j] is None and upcoming < sessions:
                    steps.append(("create", upcoming))
                    slots[j] = upcoming
                    upcoming += 1
                current = slots[j]
                if current is None:
                    continue
                words = zipf.content(content_stream)
                if ordinal in quasar:
                    words[quasar[ordinal]] = "quasar"
                text = " ".join(words)
                digest.update(text.encode("utf-8"))
                digest.update(b"\n")
                chars += len(text)
                steps.append(("append", maker.make(session_id(current), roles[filled[current]], text)))
                ordinal += 1
                appended = True
                filled[current] += 1
                if filled[current] == per_session:
                    slots[j] = None
            if not appended and upcoming == sessions:
                break
        self.steps = steps
        self.quasar_ordinals = sorted(quasar)
        self.content_sha256 = digest.hexdigest()
        self.content_total_chars = chars
        self.tool_calls = maker.tool_calls
        self.appends = [step[1] for step in steps if step[0] == "append"]


def read_sample(sessions: int) -> List[str]:
    stream = SplitMix64(STREAM_READ)
    return [session_id(stream.next_below(sessions)) for _ in range(200)]


def chain_plan(prefix: str, depth: int, zipf: Zipf, stream: SplitMix64) -> List[Tuple[str, str]]:
    """W5: (id, content) for hops 0..depth, contents from the shared CHAIN stream."""
    return [(f"{prefix}-{k:04d}", " ".join(zipf.content(stream))) for k in range(depth + 1)]


def writer_plan(worker: int, zipf: Zipf) -> Tuple[List[Tuple[str, str]], List[Message]]:
    """W9 worker w: its 10 sessions (id, source) and 2,000 messages in round-robin append order."""
    sessions = [(f"w9-{worker}-{k:02d}", SOURCES[k % 5]) for k in range(10)]
    roles = role_script(200)
    stream = SplitMix64(STREAM_W9 + worker)
    maker = MessageMaker()
    messages = []
    for j in range(200):
        for sid, _ in sessions:
            messages.append(maker.make(sid, roles[j], " ".join(zipf.content(stream))))
    return sessions, messages


# ---------------------------------------------------------------------------------------------
# 1.8 Data fingerprints and the appendix match counts
# ---------------------------------------------------------------------------------------------

VOCAB_SHA256 = "3955edcac4a088dcf5cf7fb902c9743ed08c0fcb53fa2add89547b1fe125a958"
ZIPF_TOTAL = 5_909_955_199
RANKS_1_20 = ("wune serai sistefout poufouten covoun facutroun vosai docker venin stouhain kousar dofoux "
              "fubadum tozo deploy zosus braja lubaitain macofoun busaix").split()
RANKS_1999_2007 = "ludon ravehair necou saipiwoul gobair hohotoum tagobrou cicer bevais".split()
FIRST_MESSAGE = ("trasoux docker giwal jiki joukechet stouhain covoun doupes saigun ginim wune foulil stouhain "
                 "chajo covoun kaile kumit dofoux lupitrait cubrai stoujit sistefout zaizam rafu serai kousar "
                 "vimitat busaix vosai covoun juroun fubadum wune wune wune poufouten faimaix wune covoun stouhain")
CONTENT_FINGERPRINTS = {
    (5000, 40): ("c8ef4de5adc5529fd689bdf8295a1504ea637dfe40bdd456c7a5b65a3fdf8c87", 56_529_471),
    (500, 40): ("14140df38b58fba103f810377c22b39983087719d8d94ffe18e8eecd7168fd3a", 5_650_475),
}
QUASAR_ORDINALS = {
    (5000, 40): [5110, 17361, 29929, 36781, 54770, 59523, 72902, 77216, 83509, 86590, 90109, 92549, 98613,
                 120523, 121867, 125450, 146981, 150277, 158037, 173176, 175425, 181318, 182175, 185394, 192797],
    (500, 40): [523, 1318, 1867, 2175, 3509, 5110, 5394, 5450, 6590, 6981, 9929, 10109, 10277, 12549, 12797,
                12902, 13176, 14770, 15425, 16781, 17216, 17361, 18037, 18613, 19523],
}
READ_FIRST_FIVE = {
    5000: ["bench-003825", "bench-000332", "bench-004864", "bench-003697", "bench-004655"],
    500: ["bench-000325", "bench-000332", "bench-000364", "bench-000197", "bench-000155"],
}

# The W2 queries in table order (category, query) and the appendix: (S=5000, S=500) match counts.
SEARCH_CASES: List[Tuple[str, str, int, int]] = [
    ("common", "wune", 199871, 19988), ("common", "serai", 192743, 19282),
    ("common", "sistefout", 174851, 17497), ("common", "poufouten", 155438, 15588),
    ("common", "covoun", 137896, 13745), ("common", "facutroun", 123359, 12315),
    ("common", "vosai", 110308, 11006), ("common", "docker", 99866, 9900),
    ("common", "venin", 91042, 9162), ("common", "stouhain", 83072, 8114),
    ("common", "kousar", 77118, 7760), ("common", "dofoux", 71313, 7152),
    ("common", "fubadum", 66711, 6699), ("common", "tozo", 62236, 6245),
    ("common", "deploy", 58146, 5792), ("common", "zosus", 55076, 5616),
    ("common", "braja", 52254, 5354), ("common", "lubaitain", 49182, 4847),
    ("common", "macofoun", 46759, 4565), ("common", "busaix", 44458, 4499),
    ("rare", "quasar", 25, 25), ("rare", "ludon", 294, 32), ("rare", "ravehair", 285, 21),
    ("rare", "necou", 307, 34), ("rare", "saipiwoul", 325, 29), ("rare", "gobair", 321, 28),
    ("rare", "hohotoum", 324, 34), ("rare", "tagobrou", 296, 27), ("rare", "cicer", 306, 21),
    ("rare", "bevais", 332, 26),
    ("phrase", '"wune serai"', 82221, 8227), ("phrase", '"serai wune"', 82733, 8339),
    ("phrase", '"wune sistefout"', 57224, 5701), ("phrase", '"serai poufouten"', 21660, 2129),
    ("phrase", '"sistefout covoun"', 11203, 1081), ("phrase", '"docker deploy"', 1140, 119),
    ("phrase", '"deploy docker"', 1142, 108), ("phrase", '"wune kubernetes"', 3917, 360),
    ("phrase", '"postgres migration"', 13, 2), ("phrase", '"latency rollback"', 1, 0),
    ("prefix", "doc*", 102577, 10184), ("prefix", "dep*", 58146, 5792), ("prefix", "kub*", 32694, 3277),
    ("prefix", "pos*", 18407, 1844), ("prefix", "mig*", 7167, 737), ("prefix", "lat*", 3125, 283),
    ("prefix", "rol*", 1480, 153), ("prefix", "wun*", 199871, 19988), ("prefix", "ser*", 192743, 19282),
    ("prefix", "sis*", 174851, 17497),
    ("or", "docker OR kubernetes", 111126, 11049), ("or", "postgres OR migration", 20764, 2087),
    ("or", "latency OR rollback", 4582, 436), ("or", "deploy OR quasar", 58160, 5808),
    ("or", "quasar OR rollback", 1505, 178), ("or", "wune OR serai", 199995, 20000),
    ("or", "wune OR quasar", 199871, 19988), ("or", "brobrouho OR voutrul", 12090, 1202),
    ("or", "joukoupail OR ravehair", 969, 87), ("or", "bevais OR quasar", 357, 51),
]
CATEGORIES = ("common", "rare", "phrase", "prefix", "or")


def expected_match_counts(sessions: int, per_session: int) -> Optional[Dict[str, int]]:
    if per_session != 40 or sessions not in (5000, 500):
        return None
    return {q: (big if sessions == 5000 else small) for _, q, big, small in SEARCH_CASES}


def fingerprint_problems(vocab: List[str], zipf: Zipf, plan: IngestPlan, reads: List[str]) -> List[str]:
    problems = []

    def check(what: str, got: Any, want: Any) -> None:
        if got != want:
            problems.append(f"{what}: got {got!r}, expected {want!r}")

    check("SplitMix64(42).next()", SplitMix64(42).next(), 0xBDD732262FEB6E95)
    check("vocabulary size", len(vocab), 2007)
    check("vocabulary SHA-256", hashlib.sha256("\n".join(vocab).encode("utf-8")).hexdigest(), VOCAB_SHA256)
    check("ranks 1-20", vocab[:20], RANKS_1_20)
    check("ranks 1999-2007", vocab[1998:], RANKS_1999_2007)
    check("'quasar' not in the vocabulary", "quasar" in vocab, False)
    check("Zipf total T", zipf.total, ZIPF_TOTAL)
    check("first W1 message", plan.appends[0].content, FIRST_MESSAGE)
    check("first W1 message's session and role", (plan.appends[0].session_id, plan.appends[0].role),
          ("bench-000000", "user"))
    per_session = role_script(plan.per_session)
    check("W1 tool calls", plan.tool_calls, plan.sessions * per_session.count("assistant+tool"))
    if plan.per_session == 40:
        check("role script for m=40 (tool-calling j, tool j, last role)",
              ([j for j, r in enumerate(per_session) if r == "assistant+tool"],
               [j for j, r in enumerate(per_session) if r == "tool"], per_session[-1]),
              ([9, 20, 31], [10, 21, 32], "user"))
    key = (plan.sessions, plan.per_session)
    if key in CONTENT_FINGERPRINTS:
        sha, chars = CONTENT_FINGERPRINTS[key]
        check("W1 content SHA-256", plan.content_sha256, sha)
        check("W1 content characters", plan.content_total_chars, chars)
        check("quasar ordinals", plan.quasar_ordinals, QUASAR_ORDINALS[key])
    if plan.sessions in READ_FIRST_FIVE:
        check("W4 first five ids", reads[:5], READ_FIRST_FIVE[plan.sessions])
    return problems


def match_counts(conn: sqlite3.Connection, table: str) -> Dict[str, int]:
    return {q: conn.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (q,)).fetchone()[0]
            for _, q, _, _ in SEARCH_CASES}


def generated_match_counts(plan: IngestPlan) -> Dict[str, int]:
    """The appendix counts on a throw-away in-memory FTS5 index of the generated W1 contents."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE generated USING fts5(content)")
        conn.executemany("INSERT INTO generated(content) VALUES (?)", ((m.content,) for m in plan.appends))
        conn.commit()
        return match_counts(conn, "generated")
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------

def now_ns() -> int:
    return time.perf_counter_ns()


def percentile_ns(sorted_ns: Sequence[int], per_mille: int) -> int:
    """Nearest rank, in integers: sorted[ceil(per_mille / 1000 * n) - 1]."""
    n = len(sorted_ns)
    rank = -(-(per_mille * n) // 1000)
    return sorted_ns[max(rank, 1) - 1]


def r3(value: float) -> float:
    return round(value, 3)


def ms(ns: float) -> float:
    return r3(ns / 1e6)


class Latencies:
    def __init__(self, samples: Optional[List[int]] = None) -> None:
        self.samples: List[int] = samples if samples is not None else []
        self._sorted: Optional[List[int]] = None

    def add(self, ns: int) -> None:
        self.samples.append(ns)
        self._sorted = None

    def sorted(self) -> List[int]:
        if self._sorted is None:
            self._sorted = sorted(self.samples)
        return self._sorted

    def p(self, per_mille: int) -> float:
        return ms(percentile_ns(self.sorted(), per_mille))

    def max(self) -> float:
        return ms(self.sorted()[-1])

    def min(self) -> float:
        return ms(self.sorted()[0])

    def sum_ns(self) -> int:
        return sum(self.samples)

    def p50_max(self) -> Dict[str, float]:
        return {"p50_ms": self.p(500), "max_ms": self.max()}

    def p50_p95_max(self) -> Dict[str, float]:
        return {"p50_ms": self.p(500), "p95_ms": self.p(950), "max_ms": self.max()}

    def min_median(self) -> Dict[str, float]:
        return {"min_ms": self.min(), "median_ms": self.p(500)}


def size_or_zero(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def wal_of(db: Path) -> Path:
    return db.with_name(db.name + "-wal")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def proc_status_mb(key: str) -> float:
    with open("/proc/self/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def child_prelude(agent: Path, home: Path) -> str:
    """The start of every child program: the agent checkout and this folder on sys.path."""
    return (f"import os, sys; os.environ['HERMES_HOME'] = {str(home)!r}; "
            f"sys.path[:0] = [{str(agent)!r}, {str(HERE)!r}]\n")


# ---------------------------------------------------------------------------------------------
# Child processes (each a fresh interpreter; the main store stays open and idle meanwhile)
# ---------------------------------------------------------------------------------------------

def export_child(db_path: str, jsonl: str) -> None:
    """W6 in a fresh interpreter: open, export_all(), one JSON object per line as the agent's CLI writes."""
    from hermes_state import SessionDB
    started = now_ns()
    db = SessionDB(Path(db_path))
    opened = now_ns()
    rss_after_open = proc_status_mb("VmRSS")
    sessions = db.export_all()
    exported = now_ns()
    with open(jsonl, "w", encoding="utf-8") as f:
        for s in sessions:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    written = now_ns()
    messages = sum(len(s["messages"]) for s in sessions)
    report = {"sessions": len(sessions), "messages": messages, "open_s": (opened - started) / 1e9,
              "export_all_s": (exported - opened) / 1e9, "serialize_write_s": (written - exported) / 1e9,
              "total_s": (written - opened) / 1e9, "rss_after_open_mb": rss_after_open,
              "peak_rss_mb": proc_status_mb("VmHWM")}
    db.close()
    sys.stdout.write("RESULT " + json.dumps(report) + "\n")
    sys.stdout.flush()


def writer_child(db_path: str, worker: int) -> None:
    """W9 worker: setup untimed, READY, wait for GO, 2,000 timed appends, close, one result line."""
    from hermes_state import SessionDB
    db = SessionDB(Path(db_path))
    sessions, messages = writer_plan(worker, Zipf(build_vocabulary()))
    for sid, source in sessions:
        db.create_session(sid, source, model=MODEL)
    json.dumps({"warm": [1, 2.0]})  # the result line's encoder, loaded before the clock runs
    sys.stdout.write("READY\n")
    sys.stdout.flush()
    if sys.stdin.readline().strip() != "GO":
        raise SystemExit("W9 worker: expected GO")
    latencies = []
    errors: Dict[str, int] = {}
    ok = 0
    started = now_ns()
    for message in messages:
        before = now_ns()
        try:
            message.append_to(db)
            ok += 1
        except Exception as e:  # noqa: BLE001 - every failure is counted by kind, then the next message
            kind = f"{type(e).__name__}: {e}"
            errors[kind] = errors.get(kind, 0) + 1
        latencies.append(now_ns() - before)
    elapsed = now_ns() - started
    db.close()
    lat = Latencies(latencies)
    sys.stdout.write("RESULT " + json.dumps({
        "worker": worker, "ok": ok, "errors": errors, "elapsed_s": elapsed / 1e9, "p50_ms": lat.p(500),
        "p99_ms": lat.p(990), "max_ms": lat.max(), "over_100ms": sum(1 for x in latencies if x > 100_000_000),
        "over_1s": sum(1 for x in latencies if x > 1_000_000_000), "latencies_ns": latencies}) + "\n")
    sys.stdout.flush()


W8_CHILD = """from pathlib import Path
from hermes_state import SessionDB
db = SessionDB(Path({db!r}))
if db.get_session("bench-000001") is None:
    raise SystemExit("W8: bench-000001 not found")
sys.stdout.write("READY\\n")
sys.stdout.flush()
db.close()
"""


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------

class CheckFailed(Exception):
    pass


class Run:
    def __init__(self, agent: Path, sessions: int, per_session: int, run_dir: Path, progress: Callable[[str], None]):
        self.agent = agent
        self.sessions = sessions
        self.per_session = per_session
        self.run_dir = run_dir
        self.db_path = run_dir / "state.db"
        self.home = run_dir / "hermes-home"
        self.progress = progress
        self.details: Dict[str, Any] = {"definition": DEFINITION, "load_average": {}}
        self.failures: List[str] = []

    def mark(self, step: str) -> None:
        self.details["load_average"][step] = load()
        self.progress(f"[py-bench] {step} (load {load()})")

    def python(self, code: str, **kwargs: Any) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", child_prelude(self.agent, self.home) + code], **kwargs)

    # ---- data -------------------------------------------------------------------------------
    def generate(self) -> None:
        self.mark(f"generating data: S={self.sessions}, M={self.per_session}")
        self.vocab = build_vocabulary()
        self.zipf = Zipf(self.vocab)
        self.plan = IngestPlan(self.sessions, self.per_session, self.zipf)
        self.reads = read_sample(self.sessions)
        chain_stream = SplitMix64(STREAM_CHAIN)
        self.chain99 = chain_plan("chain99", 99, self.zipf, chain_stream)
        self.chain1000 = chain_plan("chain1000", 1000, self.zipf, chain_stream)
        problems = fingerprint_problems(self.vocab, self.zipf, self.plan, self.reads)
        if problems:
            raise CheckFailed("data check failed, nothing measured:\n  " + "\n  ".join(problems))
        self.mark("checking the appendix match counts on an FTS5 index of the generated contents")
        self.generated_counts = generated_match_counts(self.plan)
        expected = expected_match_counts(self.sessions, self.per_session)
        if expected is not None and self.generated_counts != expected:
            diff = {q: (self.generated_counts[q], n) for q, n in expected.items() if self.generated_counts[q] != n}
            raise CheckFailed(f"appendix match counts differ (got, expected): {diff}")

    # ---- W1 ---------------------------------------------------------------------------------
    def w1(self, db: Any) -> Dict[str, Any]:
        self.mark(f"W1 ingest: {len(self.plan.steps)} calls")
        total = len(self.plan.appends)
        bounds = [(k + 1) * total // SLICES for k in range(SLICES)]
        appends = Latencies()
        creates = Latencies()
        slices = []
        slice_lat = Latencies()
        slice_start = None
        done = 0
        plan_steps = self.plan.steps
        first = now_ns()
        last = first
        for kind, step in plan_steps:
            if kind == "create":
                before = now_ns()
                db.create_session(session_id(step), SOURCES[step % 5], model=MODEL)
                last = now_ns()
                creates.add(last - before)
                continue
            before = now_ns()
            step.append_to(db)
            last = now_ns()
            appends.add(last - before)
            slice_lat.add(last - before)
            done += 1
            if done == bounds[len(slices)]:
                begin = first if slice_start is None else slice_start
                slices.append({"slice": len(slices) + 1,
                               "msgs_per_s": r3(len(slice_lat.samples) / ((last - begin) / 1e9)),
                               "p50_ms": slice_lat.p(500), "p99_ms": slice_lat.p(990),
                               "db_bytes": size_or_zero(self.db_path)})
                slice_start = last  # the next slice runs from the end of this slice's last append
                slice_lat = Latencies()
        elapsed = last - first
        return {"messages": total, "seconds": r3(elapsed / 1e9), "msgs_per_s": r3(total / (elapsed / 1e9)),
                "append_latency": {"p50_ms": appends.p(500), "p95_ms": appends.p(950), "p99_ms": appends.p(990),
                                   "p999_ms": appends.p(999), "max_ms": appends.max()},
                "create_session_latency": creates.p50_max(), "slices": slices,
                "size_end": {"db_bytes": size_or_zero(self.db_path), "wal_bytes": size_or_zero(wal_of(self.db_path))}}

    # ---- W2 ---------------------------------------------------------------------------------
    def w2(self, db: Any) -> Dict[str, Any]:
        self.mark("W2 search: 60 queries x 2 passes")
        from hermes_state import SessionDB
        changed = [q for _, q, _, _ in SEARCH_CASES if SessionDB._sanitize_fts5_query(q) != q]
        self.details["W2_queries_changed_by_sanitizer"] = changed
        passes: List[Dict[str, Tuple[int, int]]] = []
        for _ in range(2):
            timings: Dict[str, Tuple[int, int]] = {}
            for _, q, _, _ in SEARCH_CASES:
                before = now_ns()
                hits = db.search_messages(q, limit=20)
                timings[q] = (now_ns() - before, len(hits))
            passes.append(timings)
        pass1, pass2 = passes

        def by_category(timings: Dict[str, Tuple[int, int]]) -> Dict[str, Any]:
            return {c: Latencies([timings[q][0] for cat, q, _, _ in SEARCH_CASES if cat == c]).p50_p95_max()
                    for c in CATEGORIES}

        self.details["W2_pass1"] = {"pass1": by_category(pass1),
                                    "pass1_per_query_ms": {q: ms(t) for q, (t, _) in pass1.items()}}
        return {"pass2": by_category(pass2), "pass2_per_query_ms": {q: ms(t) for q, (t, _) in pass2.items()},
                "results_returned": {q: n for q, (_, n) in pass2.items()}}

    # ---- W3 ---------------------------------------------------------------------------------
    def w3(self, db: Any) -> Dict[str, Any]:
        self.mark("W3 listing")
        offsets = [0, 100, self.sessions // 2, self.sessions - 20]
        rich: Dict[str, Any] = {}
        search: Dict[str, Any] = {}
        for o in offsets:
            for name, call, into in (("list_sessions_rich", lambda: db.list_sessions_rich(limit=20, offset=o), rich),
                                     ("search_sessions", lambda: db.search_sessions(limit=20, offset=o), search)):
                lat = Latencies()
                rows = set()
                for _ in range(20):
                    before = now_ns()
                    result = call()
                    lat.add(now_ns() - before)
                    rows.add(len(result))
                into[str(o)] = {**lat.p50_max(), "rows": min(rows)}
                if rows != {20}:
                    self.failures.append(f"W3: {name} at offset {o} returned {sorted(rows)} rows")
        return {"offsets": offsets, "list_sessions_rich": rich, "search_sessions": search}

    # ---- W4 ---------------------------------------------------------------------------------
    def w4(self, db: Any) -> Dict[str, Any]:
        self.mark("W4 read: 200 conversations")
        lat = Latencies()
        messages = 0
        for sid in self.reads:
            before = now_ns()
            conversation = db.get_messages_as_conversation(sid)
            lat.add(now_ns() - before)
            messages += len(conversation)
        return {"sessions": len(self.reads), "messages": messages, "p50_ms": lat.p(500), "p95_ms": lat.p(950),
                "max_ms": lat.max(), "msgs_per_s": r3(messages / (lat.sum_ns() / 1e9))}

    # ---- W5 ---------------------------------------------------------------------------------
    def w5(self, db: Any) -> Dict[str, Any]:
        self.mark("W5 lineage: chains of 99 and 1000")
        result: Dict[str, Any] = {}
        for key, chain in (("depth_99", self.chain99), ("depth_1000", self.chain1000)):
            started = now_ns()
            first_id, first_content = chain[0]
            db.create_session(first_id, "cli", model=MODEL)
            db.append_message(first_id, role="user", content=first_content)
            for k in range(1, len(chain)):
                db.end_session(chain[k - 1][0], "compression")
                db.create_session(chain[k][0], "cli", model=MODEL, parent_session_id=chain[k - 1][0])
                db.append_message(chain[k][0], role="user", content=chain[k][1])
            build = now_ns() - started
            lat = Latencies()
            tips = set()
            for _ in range(50):
                before = now_ns()
                tip = db.get_compression_tip(first_id)
                lat.add(now_ns() - before)
                tips.add(tip)
            tip = tips.pop() if len(tips) == 1 else repr(sorted(tips))
            ids = [c[0] for c in chain]
            hops = ids.index(tip) if tip in ids else -1
            result[key] = {"build_s": r3(build / 1e9), **lat.p50_max(), "tip_returned": tip,
                           "tip_hops_from_root": hops, "tip_correct": tip == ids[-1]}
        lat = Latencies()
        projected = set()
        for _ in range(20):
            before = now_ns()
            rows = db.list_sessions_rich(limit=20, offset=0)
            lat.add(now_ns() - before)
            projected.add(sum(1 for row in rows if row.get("_lineage_root_id")))
        result["list_sessions_rich_first_page_with_2_chain_roots"] = {"p50_ms": lat.p(500),
                                                                      "projected_rows": min(projected)}
        if projected != {2}:
            self.failures.append(f"W5: projected rows {sorted(projected)} instead of 2")
        lat = Latencies()
        for _ in range(50):
            before = now_ns()
            db.get_compression_tip("bench-000001")
            lat.add(now_ns() - before)
        result["get_compression_tip_unchained_p50_ms"] = lat.p(500)
        return result

    # ---- W6 ---------------------------------------------------------------------------------
    def export_once(self, number: int) -> Tuple[Dict[str, Any], int, str]:
        jsonl = self.run_dir / f"w6-export-{number}.jsonl"
        child = self.python(f"import reference_bench as rb; rb.export_child({str(self.db_path)!r}, {str(jsonl)!r})",
                            stdout=subprocess.PIPE, text=True)
        out, _ = child.communicate(timeout=1800)
        if child.returncode != 0:
            raise CheckFailed(f"W6 export child exited with {child.returncode}")
        line = next(l for l in out.splitlines() if l.startswith("RESULT "))
        report = json.loads(line[len("RESULT "):])
        digest = hashlib.sha256()
        with open(jsonl, "rb") as f:
            for block in iter(lambda: f.read(1 << 16), b""):
                digest.update(block)
        size = size_or_zero(jsonl)
        jsonl.unlink()
        return report, size, digest.hexdigest()

    def w6(self) -> Dict[str, Any]:
        self.mark("W6 export in a fresh interpreter (twice)")
        first, size, sha = self.export_once(1)
        second, _, sha2 = self.export_once(2)
        self.details["W6"] = {"streamed": False, "open_s": r3(first["open_s"]), "sha256": sha,
                              "byte_identical_second_run": sha == sha2,
                              "second_run_total_s": r3(second["total_s"]),
                              "second_run_peak_rss_mb": r3(second["peak_rss_mb"])}
        if sha != sha2:
            self.failures.append("W6: the two exports differ")
        return {"sessions": first["sessions"], "messages": first["messages"],
                "export_all_s": r3(first["export_all_s"]), "serialize_write_s": r3(first["serialize_write_s"]),
                "total_s": r3(first["total_s"]), "jsonl_bytes": size,
                "rss_after_open_mb": r3(first["rss_after_open_mb"]), "peak_rss_mb": r3(first["peak_rss_mb"])}

    # ---- W7 ---------------------------------------------------------------------------------
    def plain(self) -> sqlite3.Connection:
        return sqlite3.connect(str(self.db_path), isolation_level=None, timeout=30)

    def w7(self, db: Any) -> Dict[str, Any]:
        self.mark("W7 prune")
        evens = [session_id(i) for i in range(0, self.sessions, 2)]
        started = now_ns()
        for sid in evens:
            db.end_session(sid, "cli_close")
        ended = now_ns() - started
        conn = self.plain()
        try:
            conn.execute("BEGIN")
            aged = conn.execute("UPDATE sessions SET started_at = started_at - 17280000 "
                                "WHERE end_reason = 'cli_close'").rowcount
            conn.execute("COMMIT")
            before_count = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
        finally:
            conn.close()
        if aged != self.sessions // 2:
            self.failures.append(f"W7: the outside UPDATE aged {aged} sessions")
        started = now_ns()
        pruned = db.prune_sessions(older_than_days=90)
        prune = now_ns() - started
        conn = self.plain()
        try:
            after_count = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
            free_pages = conn.execute("PRAGMA freelist_count").fetchone()[0]
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        finally:
            conn.close()
        deleted = before_count - after_count
        if pruned != self.sessions // 2 or deleted != self.sessions // 2 * self.per_session:
            self.failures.append(f"W7: pruned {pruned} sessions and {deleted} messages")
        self.details["W7"] = {"end_session_calls": len(evens), "free_bytes_after_prune": free_pages * page_size}
        return {"end_session_per_s": r3(len(evens) / (ended / 1e9)), "pruned": pruned, "prune_s": r3(prune / 1e9),
                "messages_deleted": deleted,
                "size_after": {"db_bytes": size_or_zero(self.db_path), "wal_bytes": size_or_zero(wal_of(self.db_path))}}

    # ---- W8 ---------------------------------------------------------------------------------
    def w8(self, rounds: int = 10) -> Dict[str, Any]:
        self.mark(f"W8 cold open ({rounds} rounds)")
        code = W8_CHILD.format(db=str(self.db_path))

        def child() -> Tuple[int, int]:
            start = now_ns()
            proc = self.python(code, stdout=subprocess.PIPE, text=True)
            assert proc.stdout is not None
            line = proc.stdout.readline()
            ready = now_ns()
            proc.stdout.read()
            code_ = proc.wait()
            exited = now_ns()
            if line.strip() != "READY" or code_ != 0:
                raise CheckFailed(f"W8 child printed {line!r} and exited with {code_}")
            return ready - start, exited - start

        def baseline() -> int:
            start = now_ns()
            code_ = subprocess.call([sys.executable, "-c", "pass"])
            end = now_ns()
            if code_ != 0:
                raise CheckFailed(f"python3 -c pass exited with {code_}")
            return end - start

        child()  # untimed warm-up (the .pyc files were compiled before the run)
        baseline()
        ready, exited, base = Latencies(), Latencies(), Latencies()
        for _ in range(rounds):
            r, e = child()
            ready.add(r)
            exited.add(e)
            base.add(baseline())
        pyc = sorted(p.name for p in (self.agent / "__pycache__").glob("hermes_state.*.pyc"))
        if not pyc:
            self.failures.append("W8: no cached bytecode of hermes_state.py")
        self.details["W8"] = {"interpreter": sys.executable, "child": "python3 -c '<open SessionDB, get_session, "
                              "print READY, close>' with the agent checkout on sys.path",
                              "baseline": "python3 -c pass", "hermes_state_pyc": pyc,
                              "spawn_to_ready_all_ms": [ms(x) for x in ready.samples],
                              "baseline_all_ms": [ms(x) for x in base.samples]}
        return {"spawn_to_ready": ready.min_median(), "spawn_to_exit": exited.min_median(),
                "baseline": base.min_median(), "ready_minus_baseline_median_ms": r3(ready.p(500) - base.p(500))}

    # ---- W9 ---------------------------------------------------------------------------------
    def w9(self) -> Dict[str, Any]:
        self.mark("W9 four concurrent writer interpreters")
        workers = [self.python(f"import reference_bench as rb; rb.writer_child({str(self.db_path)!r}, {w})",
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for w in range(4)]
        try:
            for w, proc in enumerate(workers):
                assert proc.stdout is not None
                line = proc.stdout.readline()
                if line.strip() != "READY":
                    raise CheckFailed(f"W9 worker {w} printed {line!r} instead of READY")
            t0 = now_ns()
            for proc in workers:
                assert proc.stdin is not None
                proc.stdin.write("GO\n")
                proc.stdin.flush()
            results = []
            for w, proc in enumerate(workers):
                assert proc.stdout is not None
                line = proc.stdout.readline()
                if not line.startswith("RESULT "):
                    raise CheckFailed(f"W9 worker {w} printed {line!r} instead of its result")
                results.append(json.loads(line[len("RESULT "):]))
            t1 = now_ns()
        finally:
            for proc in workers:
                try:
                    proc.wait(timeout=120)
                except subprocess.TimeoutExpired:
                    proc.kill()
        everything = Latencies([x for r in results for x in r["latencies_ns"]])
        errors: Dict[str, int] = {}
        for r in results:
            for kind, n in r["errors"].items():
                errors[kind] = errors.get(kind, 0) + n
        ok = sum(r["ok"] for r in results)
        conn = self.plain()
        try:
            counters = conn.execute("SELECT SUM(message_count) FROM sessions").fetchone()[0]
            rows = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
            w9_rows = conn.execute("SELECT COUNT(*) FROM messages WHERE session_id LIKE 'w9-%'").fetchone()[0]
            try:
                conn.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')")
                fts_ok = True
            except sqlite3.DatabaseError:
                fts_ok = False
        finally:
            conn.close()
        if errors or ok != 8000 or w9_rows != 8000 or counters != rows or not fts_ok:
            self.failures.append(f"W9: errors {errors}, {w9_rows}/8000 messages in the file, counters "
                                 f"{counters} vs {rows} rows, FTS {'ok' if fts_ok else 'corrupt'}")
        self.details["W9"] = {"append_p50_ms": everything.p(500), "append_p99_ms": everything.p(990),
                              "w9_messages_in_file": w9_rows,
                              "workers": [{k: v for k, v in r.items() if k != "latencies_ns"} for r in results]}
        wall = (t1 - t0) / 1e9
        return {"messages_ok": ok, "wall_s": r3(wall), "msgs_per_s": r3(ok / wall), "errors": errors,
                "append_max_ms": everything.max(),
                "appends_over_100ms": sum(r["over_100ms"] for r in results),
                "appends_over_1s": sum(r["over_1s"] for r in results),
                "check_counts_equal": counters == rows, "fts_integrity_ok": fts_ok}

    # ---- everything -------------------------------------------------------------------------
    def execute(self) -> Dict[str, Any]:
        self.generate()
        os.environ["HERMES_HOME"] = str(self.home)
        self.home.mkdir(parents=True, exist_ok=True)
        sys.path.insert(0, str(self.agent))
        import hermes_state
        from hermes_state import SessionDB

        self.details["agent"] = {"path": str(self.agent), "commit": agent_commit(self.agent),
                                 "schema_version": getattr(hermes_state, "SCHEMA_VERSION", None),
                                 "calls": "SessionDB(db_path) with its defaults; create_session, append_message, "
                                          "search_messages, list_sessions_rich, search_sessions, "
                                          "get_messages_as_conversation, end_session, get_compression_tip, "
                                          "export_all, prune_sessions, get_session"}
        self.details["agent"]["bytecode"] = compile_bytecode(self.agent)
        db = SessionDB(self.db_path)
        # the store's own connection: synchronous is per connection, and it is this one that commits
        env = {"runtime": f"Python {platform.python_version()} ({platform.python_implementation()}) on "
                          f"{platform.system()} {platform.release()} {platform.machine()}",
               "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count(), "cpu_model": cpu_model(),
               "journal_mode": db._conn.execute("PRAGMA journal_mode").fetchone()[0],
               "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
                   db._conn.execute("PRAGMA synchronous").fetchone()[0], "?")}
        try:
            w1 = self.w1(db)
            conn = self.plain()
            try:
                counts = match_counts(conn, "messages_fts")
            finally:
                conn.close()
            if counts != self.generated_counts:
                raise CheckFailed("match counts in state.db after W1 differ from the generated data: "
                                  f"{ {q: (counts[q], n) for q, n in self.generated_counts.items() if counts[q] != n} }")
            w2 = self.w2(db)
            w3 = self.w3(db)
            w4 = self.w4(db)
            w5 = self.w5(db)
            w6 = self.w6()
            w7 = self.w7(db)
            w8 = self.w8()
            w9 = self.w9()
        finally:
            db.close()
        conn = self.plain()
        try:
            final = {"sessions": conn.execute("SELECT count(*) FROM sessions").fetchone()[0],
                     "messages": conn.execute("SELECT count(*) FROM messages").fetchone()[0]}
        finally:
            conn.close()
        final["db_bytes"] = size_or_zero(self.db_path)
        final["wal_bytes"] = size_or_zero(wal_of(self.db_path))
        self.mark("done")
        for chain in ("depth_99", "depth_1000"):
            if not w5[chain]["tip_correct"]:
                self.details.setdefault("W5_limited_walk", {})[chain] = (
                    f"get_compression_tip returned {w5[chain]['tip_returned']} "
                    f"(hop {w5[chain]['tip_hops_from_root']}): the agent bounds the walk at 100 continuations")
        return {"params": {"sessions": self.sessions, "messages_per_session": self.per_session, "seed": SEED},
                "env": env,
                "data": {"vocab_sha256": hashlib.sha256("\n".join(self.vocab).encode("utf-8")).hexdigest(),
                         "content_sha256": self.plan.content_sha256,
                         "content_total_chars": self.plan.content_total_chars,
                         "match_counts_after_W1": counts},
                "W1_ingest": w1, "W2_search": w2, "W3_list": w3, "W4_read": w4, "W5_lineage": w5, "W6_export": w6,
                "W7_prune": w7, "W8_open": w8, "W9_concurrency": w9, "final": final, "details": self.details}


def compile_bytecode(agent: Path) -> Dict[str, Any]:
    """W8 wants the agent in its installed form, with cached bytecode. An installer writes the .pyc files;
    a plain checkout gets them on its first import, unless PYTHONDONTWRITEBYTECODE is set (as it is on some
    machines). So the modules the import of hermes_state loaded (and this file, for the W6/W9 children) are
    compiled here, as `python3 -m compileall` would, before any child starts."""
    import importlib.util
    import py_compile
    sources = sorted({Path(m.__file__).resolve() for m in list(sys.modules.values())
                      if getattr(m, "__file__", None) and str(m.__file__).endswith(".py")
                      and Path(m.__file__).resolve().is_relative_to(agent)})
    sources.append(Path(__file__).resolve())
    written = 0
    for source in sources:
        cached = Path(importlib.util.cache_from_source(str(source)))
        if not cached.exists() or cached.stat().st_mtime < source.stat().st_mtime:
            py_compile.compile(str(source), cfile=str(cached), doraise=True)
            written += 1
    return {"modules": len(sources) - 1, "pyc_written_now": written,
            "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE")}


def agent_commit(agent: Path) -> Optional[str]:
    try:
        out = subprocess.run(["git", "-C", str(agent), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=10)
        if out.returncode == 0:
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    stamp = agent / ".hermes-agent-commit"  # written by the README's `git archive` recipe
    return stamp.read_text().strip() if stamp.exists() else None


def print_summary(result: Dict[str, Any], out: Any) -> None:
    w1, w2, w4, w5, w6, w7, w8, w9 = (result[k] for k in ("W1_ingest", "W2_search", "W4_read", "W5_lineage",
                                                            "W6_export", "W7_prune", "W8_open", "W9_concurrency"))
    p = result["params"]
    print(f"\nPython reference (hermes-state-bench/1): S={p['sessions']}, M={p['messages_per_session']}, "
          f"{result['env']['cpu_model']} x{result['env']['cpus']}, {result['env']['runtime']}, "
          f"SQLite {result['env']['sqlite']}, journal_mode={result['env']['journal_mode']}, "
          f"synchronous={result['env']['synchronous']}", file=out)
    lines = [("W1 ingest msgs/s", w1["msgs_per_s"]),
             ("W1 append p50 / p99 ms", f"{w1['append_latency']['p50_ms']} / {w1['append_latency']['p99_ms']}")]
    lines += [(f"W2 {c} pass-2 p50 ms", w2["pass2"][c]["p50_ms"]) for c in CATEGORIES]
    lines += [(f"W3 list_sessions_rich offset {o} p50 ms", v["p50_ms"])
              for o, v in result["W3_list"]["list_sessions_rich"].items()]
    lines += [("W4 read p50 ms / msgs/s", f"{w4['p50_ms']} / {w4['msgs_per_s']}"),
              ("W5 depth 1000 tip (hop) / p50 ms", f"{w5['depth_1000']['tip_returned']} "
                                                   f"({w5['depth_1000']['tip_hops_from_root']}) / "
                                                   f"{w5['depth_1000']['p50_ms']}"),
              ("W6 export total s / peak RSS MB", f"{w6['total_s']} / {w6['peak_rss_mb']}"),
              ("W7 pruned / messages deleted / s", f"{w7['pruned']} / {w7['messages_deleted']} / {w7['prune_s']}"),
              ("W8 spawn->ready / baseline median ms",
               f"{w8['spawn_to_ready']['median_ms']} / {w8['baseline']['median_ms']}"),
              ("W9 msgs/s / max append ms / errors", f"{w9['msgs_per_s']} / {w9['append_max_ms']} / "
                                                     f"{sum(w9['errors'].values())}")]
    width = max(len(a) for a, _ in lines)
    for a, b in lines:
        print(f"{a:<{width}}  {b}", file=out)


# ---------------------------------------------------------------------------------------------
# --compare: the Java result and the Python result side by side
# ---------------------------------------------------------------------------------------------

# keys the Java side writes beyond BENCHMARK.md's layout inside the shared sections
JAVA_EXTRA_KEYS = {"env.engine"}
SHARED_KEYS = ("params", "env", "data", "W1_ingest", "W2_search", "W3_list", "W4_read", "W5_lineage", "W6_export",
               "W7_prune", "W8_open", "W9_concurrency", "final")


def get(tree: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(tree, list):
            tree = tree[int(part)]
        elif isinstance(tree, dict) and part in tree:
            tree = tree[part]
        else:
            return None
    return tree


def key_paths(tree: Any, prefix: str = "") -> List[str]:
    """Every key path of a result section; a list is represented by its first element ([0]); the maps
    keyed by data (queries, offsets, error kinds) by their key sets."""
    if isinstance(tree, dict):
        paths = []
        for k, v in tree.items():
            paths.append(prefix + k)
            if not prefix.endswith("errors."):
                paths.extend(key_paths(v, prefix + k + "."))
        return paths
    if isinstance(tree, list) and tree and isinstance(tree[0], dict):
        return key_paths(tree[0], prefix + "[0].")
    return []


def compare(java_file: Path, python_file: Path, out: Any) -> int:
    java = json.loads(java_file.read_text(encoding="utf-8"))
    py = json.loads(python_file.read_text(encoding="utf-8"))
    problems: List[str] = []
    notes: List[str] = []

    # 1. the same workload on the same data
    for path in ("params.sessions", "params.messages_per_session", "params.seed", "data.vocab_sha256",
                 "data.content_sha256", "data.content_total_chars", "data.match_counts_after_W1",
                 "W2_search.results_returned", "W4_read.messages", "W6_export.sessions", "W6_export.messages",
                 "W7_prune.pruned", "W7_prune.messages_deleted", "W9_concurrency.messages_ok", "final.sessions",
                 "final.messages"):
        if get(java, path) != get(py, path):
            problems.append(f"{path} differs: Java {get(java, path)!r}, Python {get(py, path)!r}")

    # 2. key by key: the sections BENCHMARK.md defines
    for section in SHARED_KEYS:
        jk = set(key_paths(java.get(section, {}), section + "."))
        pk = set(key_paths(py.get(section, {}), section + "."))
        for k in sorted(jk - pk):
            if k in JAVA_EXTRA_KEYS:
                notes.append(f"key only in the Java result (its own addition): {k}")
            else:
                problems.append(f"key only in the Java result: {k}")
        for k in sorted(pk - jk):
            problems.append(f"key only in the Python result: {k}")

    raw = java.get("baseline_raw_jdbc", {})
    rows: List[Tuple[str, str, Any, Any, Any, str]] = []

    def row(workload: str, measure: str, path: str, raw_path: Optional[str], better: str) -> None:
        rows.append((workload, measure, get(java, path), get(raw, raw_path) if raw_path else None, get(py, path),
                     better))

    row("W1 ingest", "msgs/s, one call per append", "W1_ingest.msgs_per_s", "W1_ingest.msgs_per_s", "higher")
    rows.append(("W1 ingest", "msgs/s (raw = raw + PASSIVE checkpoint every 50)", get(java, "W1_ingest.msgs_per_s"),
                 get(raw, "W1_ingest_checkpoint_every_50.msgs_per_s"), get(py, "W1_ingest.msgs_per_s"), "higher"))
    for p in ("p50", "p99", "p999", "max"):
        row("W1 ingest", f"append {p} ms", f"W1_ingest.append_latency.{p}_ms", f"W1_ingest.append_latency.{p}_ms",
            "lower")
    row("W1 ingest", "create_session p50 ms", "W1_ingest.create_session_latency.p50_ms",
        "W1_ingest.create_session_latency.p50_ms", "lower")

    def slice_ratio(result: Any) -> Optional[float]:
        slices = get(result, "slices") if result else None
        return r3(slices[-1]["msgs_per_s"] / slices[0]["msgs_per_s"]) if slices else None

    rows.append(("W1 ingest", "last 10% slice / first, msgs/s", slice_ratio(java.get("W1_ingest")),
                 slice_ratio(raw.get("W1_ingest")), slice_ratio(py.get("W1_ingest")), "higher"))
    row("W1 ingest", "state.db bytes at the end", "W1_ingest.size_end.db_bytes", "W1_ingest.size_end.db_bytes", "lower")
    rows.append(("W1 batch", "msgs/s, one call per session", get(raw, "W1_batch.ours_append_messages.msgs_per_s"),
                 get(raw, "W1_batch.raw_jdbc_batch.msgs_per_s"), None, "higher"))
    for c in CATEGORIES:
        row(f"W2 search {c}", "pass-2 p50 ms", f"W2_search.pass2.{c}.p50_ms", f"W2_search.pass2.{c}.p50_ms", "lower")
        row(f"W2 search {c}", "pass-2 p95 ms", f"W2_search.pass2.{c}.p95_ms", f"W2_search.pass2.{c}.p95_ms", "lower")
    for o in get(java, "W3_list.offsets") or []:
        row("W3 list_sessions_rich", f"offset {o} p50 ms", f"W3_list.list_sessions_rich.{o}.p50_ms", None, "lower")
    for o in get(java, "W3_list.offsets") or []:
        row("W3 search_sessions", f"offset {o} p50 ms", f"W3_list.search_sessions.{o}.p50_ms", None, "lower")
    row("W4 read", "p50 ms", "W4_read.p50_ms", "W4_read.p50_ms", "lower")
    row("W4 read", "p95 ms", "W4_read.p95_ms", "W4_read.p95_ms", "lower")
    row("W4 read", "msgs/s", "W4_read.msgs_per_s", "W4_read.msgs_per_s", "higher")
    for d in ("99", "1000"):
        rows.append((f"W5 lineage depth {d}", "tip returned (hop)", tip(java, d), None, tip(py, d), ""))
        row(f"W5 lineage depth {d}", "get_compression_tip p50 ms", f"W5_lineage.depth_{d}.p50_ms", None, "lower")
        row(f"W5 lineage depth {d}", "build s", f"W5_lineage.depth_{d}.build_s", None, "lower")
    row("W5 lineage", "rich first page p50 ms", "W5_lineage.list_sessions_rich_first_page_with_2_chain_roots.p50_ms",
        None, "lower")
    row("W5 lineage", "rows projected", "W5_lineage.list_sessions_rich_first_page_with_2_chain_roots.projected_rows",
        None, "")
    row("W5 lineage", "unchained tip p50 ms", "W5_lineage.get_compression_tip_unchained_p50_ms", None, "lower")
    row("W6 export", "total s", "W6_export.total_s", None, "lower")
    row("W6 export", "export_all s", "W6_export.export_all_s", None, "lower")
    row("W6 export", "serialize + write s", "W6_export.serialize_write_s", None, "lower")
    row("W6 export", "peak RSS MB", "W6_export.peak_rss_mb", None, "lower")
    row("W6 export", "JSONL bytes", "W6_export.jsonl_bytes", None, "")
    row("W7 prune", "end_session calls/s", "W7_prune.end_session_per_s", None, "higher")
    row("W7 prune", "prune_sessions s", "W7_prune.prune_s", None, "lower")
    row("W7 prune", "-wal bytes after prune", "W7_prune.size_after.wal_bytes", None, "lower")
    row("W8 cold open", "spawn->ready median ms", "W8_open.spawn_to_ready.median_ms", None, "lower")
    row("W8 cold open", "spawn->exit median ms", "W8_open.spawn_to_exit.median_ms", None, "lower")
    row("W8 cold open", "baseline median ms", "W8_open.baseline.median_ms", None, "lower")
    row("W8 cold open", "ready - baseline median ms", "W8_open.ready_minus_baseline_median_ms", None, "lower")
    row("W9 4 writers", "msgs/s total", "W9_concurrency.msgs_per_s", None, "higher")
    row("W9 4 writers", "max append ms", "W9_concurrency.append_max_ms", None, "lower")
    row("W9 4 writers", "appends over 100 ms", "W9_concurrency.appends_over_100ms", None, "lower")
    row("W9 4 writers", "errors", "W9_concurrency.errors", None, "")
    row("final", "state.db bytes", "final.db_bytes", None, "lower")

    header = ("workload", "measure", "ours (Java)", "raw JDBC", "Python", "ours/Python", "better")
    cells = [header] + [(w, m, cell(o), cell(r), cell(p), ratio(o, p), b) for w, m, o, r, p, b in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    pj, pp = java.get("params", {}), py.get("params", {})
    print(f"Java   {java_file}: S={pj.get('sessions')}, {get(java, 'env.runtime')}, SQLite "
          f"{get(java, 'env.sqlite') or get(java, 'env.engine')}, {get(java, 'env.journal_mode')}/"
          f"{get(java, 'env.synchronous')}", file=out)
    print(f"Python {python_file}: S={pp.get('sessions')}, {get(py, 'env.runtime')}, SQLite {get(py, 'env.sqlite')}, "
          f"{get(py, 'env.journal_mode')}/{get(py, 'env.synchronous')}, agent "
          f"{get(py, 'details.agent.commit')} (schema {get(py, 'details.agent.schema_version')})", file=out)
    for i, c in enumerate(cells):
        print("  ".join(c[k].rjust(widths[k]) if 2 <= k <= 5 else c[k].ljust(widths[k])
                        for k in range(len(header))).rstrip(), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)
    for note in notes:
        print("note: " + note, file=out)
    if problems:
        print("\nnot comparable as they stand:", file=out)
        for problem in problems:
            print("  " + problem, file=out)
        return 1
    print("\nsame data (fingerprints, match counts, W2 results returned, counts) and the same result keys.", file=out)
    return 0


def tip(result: Any, depth: str) -> Optional[str]:
    chain = get(result, f"W5_lineage.depth_{depth}")
    return f"{chain['tip_returned']} ({chain['tip_hops_from_root']})" if chain else None


def cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return str(sum(value.values())) if all(isinstance(v, int) for v in value.values()) else json.dumps(value)
    if isinstance(value, float):
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def ratio(ours: Any, python: Any) -> str:
    if isinstance(ours, bool) or isinstance(python, bool):
        return ""
    if isinstance(ours, (int, float)) and isinstance(python, (int, float)) and python:
        return f"{ours / python:.2f}"
    return ""


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", type=Path, help="a checkout of the Python Hermes agent (holds hermes_state.py)")
    parser.add_argument("--quick", action="store_true", help="S=500 (default S=5000)")
    parser.add_argument("--sessions", type=int, help="S (at least 120)")
    parser.add_argument("--messages", type=int, default=40, help="M (default 40)")
    parser.add_argument("--out", type=Path, help="result file (default target/bench/python-bench-S<S>-M<M>.json)")
    parser.add_argument("--work", type=Path, default=Path("target/bench"), help="folder for the run's database")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (state.db) afterwards")
    parser.add_argument("--check-data", action="store_true", help="only generate the data and check the fingerprints")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("JAVA_RESULT", "PY_RESULT"),
                        help="print the Java and the Python result side by side")
    args = parser.parse_args(argv)

    if args.compare:
        return compare(args.compare[0], args.compare[1], sys.stdout)
    sessions = args.sessions or (500 if args.quick else 5000)
    if sessions < 120 or args.messages < 1:
        print("reference_bench: --sessions must be at least 120 and --messages at least 1", file=sys.stderr)
        return 2
    if args.check_data:
        vocab = build_vocabulary()
        zipf = Zipf(vocab)
        plan = IngestPlan(sessions, args.messages, zipf)
        problems = fingerprint_problems(vocab, zipf, plan, read_sample(sessions))
        expected = expected_match_counts(sessions, args.messages)
        if expected is not None and generated_match_counts(plan) != expected:
            problems.append("appendix match counts differ")
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"S={sessions} M={args.messages}: content {plan.content_sha256}, {plan.content_total_chars} characters, "
              f"{plan.tool_calls} tool calls: {'ok' if not problems else 'DIFFERENT'}")
        return 1 if problems else 0
    if args.agent is None or not (args.agent / "hermes_state.py").is_file():
        print("reference_bench: --agent DIR must name a checkout of the Python Hermes agent (DIR/hermes_state.py)",
              file=sys.stderr)
        return 2
    agent = args.agent.resolve()
    out = args.out or Path("target/bench") / f"python-bench-S{sessions}-M{args.messages}.json"
    args.work.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="py-bench-run-", dir=str(args.work))).resolve()
    run = Run(agent, sessions, args.messages, run_dir, lambda line: print(line, file=sys.stderr, flush=True))
    try:
        result = run.execute()
    except CheckFailed as failed:
        print(f"reference_bench: {failed}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(run_dir, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print_summary(result, sys.stdout)
    print(f"result file: {out.resolve()}")
    if run.failures:
        print("reference_bench: correctness checks FAILED:\n  " + "\n  ".join(run.failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
