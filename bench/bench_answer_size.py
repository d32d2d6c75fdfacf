"""Benchmark: check time per MB of answer, below and above `max_answer_chars`.

An answer made of varied support sentences (numbers, statuses, ids) checked against one tool
output, at sizes from 5 KB to 10 MB. Rows below the bound show how the check grows with the
text it reads (linear: the seconds per MB stay flat); rows above it show the bound at work (the
first `max_answer_chars` characters are checked, the rest noted). Ratios within one run count,
not the absolute times (the machine is shared).

Run from the repository root: PYTHONPATH=. python bench/bench_answer_size.py [max MB, default 10]
"""

from __future__ import annotations

import sys
import time

from factcheck import CheckerConfig, FactChecker

SENTENCES = [
    "Your refund of ${n}.00 for order {o} has been approved.",
    "The package for order {o} shipped with tracking SF{o}{n}.",
    "We found {n} related cases in our system.",
    "Your new balance is ${n},299.50 and the discount is 15%.",
    "Order {o} was delivered on Dec. 3.",
    "Please contact support if anything looks wrong.",
]
OUTPUT = {"order_id": "88231", "refund_amount": 45, "status": "delivered", "balance": 1299.5, "cases": 3}


def answer_of(size: int) -> str:
    parts, total, i = [], 0, 0
    while total < size:
        s = SENTENCES[i % len(SENTENCES)].format(n=i % 97, o=88000 + i % 500)
        parts.append(s)
        total += len(s) + 1
        i += 1
    return " ".join(parts)[:size]


def timed(checker: FactChecker, answer: str) -> tuple[float, int]:
    started = time.perf_counter()
    report = checker.check(answer, tool_calls=[{"name": "get_order", "output": OUTPUT}])
    return time.perf_counter() - started, len(report.claims)


def main() -> None:
    max_mb = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    bounded = FactChecker()
    bound = bounded.config.max_answer_chars
    unbounded = FactChecker(CheckerConfig(max_answer_chars=10**9))
    timed(bounded, answer_of(2000))  # warm-up: spaCy, lexicon caches
    print(f"max_answer_chars = {bound:,}")
    print(f"{'answer':>10} {'bound':>9} {'seconds':>8} {'s per MB':>9} {'claims':>7}")
    rows = [(5_000, unbounded), (10_000, unbounded), (20_000, unbounded), (40_000, unbounded),
            (80_000, unbounded)]
    rows += [(int(mb * 1_000_000), bounded) for mb in (0.1, 1, 10) if mb <= max_mb]
    for size, checker in rows:
        answer = answer_of(size)
        seconds, claims = timed(checker, answer)
        label = "none" if checker is unbounded else f"{bound:,}"
        print(f"{size:>10,} {label:>9} {seconds:>8.3f} {seconds / (size / 1e6):>9.2f} {claims:>7}")


if __name__ == "__main__":
    main()
