"""Checks of the Python reference runner that need no agent checkout:
python3 -m unittest discover -s benchmarks/python -v"""
import io
import json
import tempfile
import unittest
from pathlib import Path

import reference_bench as rb


class GeneratorTest(unittest.TestCase):
    def test_splitmix64_first_value(self):
        self.assertEqual(rb.SplitMix64(42).next(), 0xBDD732262FEB6E95)

    def test_vocabulary_and_sampler(self):
        vocab = rb.build_vocabulary()
        self.assertEqual(len(vocab), 2007)
        self.assertEqual(vocab[:20], rb.RANKS_1_20)
        self.assertEqual(vocab[1998:], rb.RANKS_1999_2007)
        self.assertEqual(rb.Zipf(vocab).total, 5_909_955_199)

    def test_role_script_for_40_messages(self):
        roles = rb.role_script(40)
        self.assertEqual([j for j, r in enumerate(roles) if r == "assistant+tool"], [9, 20, 31])
        self.assertEqual([j for j, r in enumerate(roles) if r == "tool"], [10, 21, 32])
        self.assertEqual((roles.count("user"), roles.count("assistant") + 3, roles[-1]), (19, 18, "user"))

    def test_quick_data_has_the_published_fingerprints(self):
        vocab = rb.build_vocabulary()
        zipf = rb.Zipf(vocab)
        plan = rb.IngestPlan(500, 40, zipf)
        self.assertEqual(rb.fingerprint_problems(vocab, zipf, plan, rb.read_sample(500)), [])
        self.assertEqual(rb.generated_match_counts(plan), rb.expected_match_counts(500, 40))
        self.assertEqual(plan.steps[0], ("create", 0))
        tool_calling = [m for m in plan.appends if m.tool_calls is not None]
        self.assertEqual(tool_calling[0].tool_calls[0]["id"], "call_1")
        self.assertEqual(len(tool_calling), 1500)

    def test_writer_plan_is_round_robin_with_its_own_counter(self):
        sessions, messages = rb.writer_plan(2, rb.Zipf(rb.build_vocabulary()))
        self.assertEqual([s for s, _ in sessions][:2], ["w9-2-00", "w9-2-01"])
        self.assertEqual(len(messages), 2000)
        self.assertEqual([m.session_id for m in messages[:11]][-1], "w9-2-00")
        tool = [m for m in messages if m.role == "tool"]
        self.assertEqual((tool[0].session_id, tool[0].tool_call_id), ("w9-2-00", "call_1"))


class PercentileTest(unittest.TestCase):
    def test_nearest_rank(self):
        twenty = list(range(1, 21))
        self.assertEqual(rb.percentile_ns(twenty, 500), 10)
        self.assertEqual(rb.percentile_ns(list(range(1, 11)), 950), 10)
        self.assertEqual(rb.percentile_ns(list(range(1, 1001)), 999), 999)
        self.assertEqual(rb.percentile_ns(list(range(1, 20001)), 999), 19980)


class CompareTest(unittest.TestCase):
    def test_same_data_and_keys_compare_cleanly_and_a_difference_is_reported(self):
        result = {"params": {"sessions": 500, "messages_per_session": 40, "seed": 42},
                  "env": {"runtime": "x", "sqlite": "3", "cpus": 2, "cpu_model": "c", "journal_mode": "wal",
                          "synchronous": "FULL"},
                  "data": {"vocab_sha256": "v", "content_sha256": "c", "content_total_chars": 1,
                           "match_counts_after_W1": {"wune": 3}},
                  "W1_ingest": {"msgs_per_s": 100.0, "slices": [{"slice": 1, "msgs_per_s": 90.0}]},
                  "W4_read": {"messages": 10, "msgs_per_s": 50.0}, "final": {"sessions": 1, "messages": 2}}
        java = json.loads(json.dumps(result))
        java["W1_ingest"]["msgs_per_s"] = 200.0
        java["env"]["engine"] = "SQLite 3"
        java["baseline_raw_jdbc"] = {"W1_ingest": {"msgs_per_s": 250.0}}
        with tempfile.TemporaryDirectory() as folder:
            jf, pf = Path(folder, "java.json"), Path(folder, "py.json")
            jf.write_text(json.dumps(java))
            pf.write_text(json.dumps(result))
            out = io.StringIO()
            self.assertEqual(rb.compare(jf, pf, out), 0)
            line = next(l for l in out.getvalue().splitlines() if "msgs/s, one call per append" in l)
            self.assertEqual(line.split()[-4:], ["250.0", "100.0", "2.00", "higher"])
            java["data"]["match_counts_after_W1"]["wune"] = 4
            jf.write_text(json.dumps(java))
            out = io.StringIO()
            self.assertEqual(rb.compare(jf, pf, out), 1)
            self.assertIn("data.match_counts_after_W1 differs", out.getvalue())


if __name__ == "__main__":
    unittest.main()
