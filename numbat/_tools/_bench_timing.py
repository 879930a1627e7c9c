"""Timing callables round-robin for `numbat bench`, and printing the times.

One sample of each case per round, in a rotating order, so drift in the machine's speed
hits all cases alike; the statistics are Benchee's, ranked by the median
(tests/test_docs.py checks them). A sample times `calls` calls in a row: for a call of a
microsecond or two, one call per sample would time mostly the clock and the caches the
other case left cold, not the call that a loop makes again and again.
"""

from __future__ import annotations

import statistics
import time


def measure(cases: dict, rounds: int, warmup: int = 3, calls: int = 1) -> dict:
    """Times each callable in `cases` round-robin; returns per-case statistics in µs."""
    return summarize(samples(cases, rounds, warmup, calls))


def samples(cases: dict, rounds: int, warmup: int = 3, calls: int = 1) -> dict:
    """Each callable's time in µs per call in every round: one sample (`calls` calls in a
    row) of each per round, the order rotating, so that `samples[a][i]` and `samples[b][i]`
    ran side by side."""
    for call in cases.values():
        for _ in range(warmup):
            call()
    times = {name: [] for name in cases}
    names = list(cases)
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            call = cases[name]
            start = time.perf_counter_ns()
            for _ in range(calls):
                call()
            times[name].append((time.perf_counter_ns() - start) / 1e3 / calls)
    return times


def summarize(times: dict) -> dict:
    """Benchee's statistics of each case's samples (µs)."""
    out = {}
    for name, values in times.items():
        values = sorted(values)
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


def paired_ratio(times: dict, one: str, other: str) -> float:
    """The median over rounds of `one`'s time over `other`'s in the same round: a burst of
    load on the machine slows both calls of a round, so it cancels here, where it can
    move a ratio of two medians by 10% on a shared machine.

    >>> paired_ratio({"a": [2.0, 4.0, 30.0], "b": [1.0, 2.0, 10.0]}, "a", "b")
    2.0
    """
    ratios = sorted(a / b for a, b in zip(times[one], times[other]))
    return statistics.median(ratios)


def paired_difference(times: dict, one: str, other: str) -> float:
    """The median over rounds of `one`'s time minus `other`'s in the same round (µs): what
    `one` costs above `other`, with a burst of load cancelled as in `paired_ratio`.

    >>> paired_difference({"a": [2.0, 4.0, 30.0], "b": [1.0, 2.0, 10.0]}, "a", "b")
    2.0
    """
    return statistics.median(a - b for a, b in zip(times[one], times[other]))


def format_time(us: float) -> str:
    """`us` microseconds as µs or ms, two decimals."""
    return f"{us / 1e3:.2f} ms" if us >= 1000 else f"{us:.2f} µs"
