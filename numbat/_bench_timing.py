"""Timing callables round-robin for `numbat bench`, and printing the times.

One call of each case per round, in a rotating order, so drift in the machine's speed
hits all cases alike; the statistics are Benchee's, ranked by the median
(tests/test_docs.py checks them).
"""

from __future__ import annotations

import statistics
import time


def measure(cases: dict, rounds: int, warmup: int = 3) -> dict:
    """Times each callable in `cases` round-robin; returns per-case statistics in µs."""
    for call in cases.values():
        for _ in range(warmup):
            call()
    samples = {name: [] for name in cases}
    names = list(cases)
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            start = time.perf_counter_ns()
            cases[name]()
            samples[name].append((time.perf_counter_ns() - start) / 1e3)
    out = {}
    for name, values in samples.items():
        values.sort()
        average = statistics.fmean(values)
        median = values[len(values) // 2]
        out[name] = {
            "ips": 1e6 / median,  # from the median, as the ranking and the ratios
            "average_us": average,
            "deviation_pct": 100 * statistics.pstdev(values) / average,
            "median_us": median,
            "p99_us": values[min(len(values) - 1, int(len(values) * 0.99))],
        }
    return out


def format_time(us: float) -> str:
    """`us` microseconds as µs or ms, two decimals."""
    return f"{us / 1e3:.2f} ms" if us >= 1000 else f"{us:.2f} µs"
