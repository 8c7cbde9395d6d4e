"""Shared pieces of the Python-side reproductions (issue 12 study): the READ sample and percentiles."""
import math

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def next_below(self, n):
        return (self.next() >> 11) % n


def read_sample(sessions=5000):
    """W4's 200 session ids (stream READ, seed 45)."""
    r = SplitMix64(45)
    return ["bench-%06d" % r.next_below(sessions) for _ in range(200)]


def pct(samples, p):
    s = sorted(samples)
    return s[math.ceil(p / 100 * len(s)) - 1]


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
