"""Benchmark: per-answer check latency (p50/p95) for small and large tool outputs.

Run: python bench/bench_check.py
"""

from __future__ import annotations

import json
import random
import statistics
import time

from factcheck import FactChecker

ANSWER = (
    "Your refund of $45.00 for order 88231 has been approved. "
    "The package shipped on Dec. 3 with tracking SF1234567890. "
    "We found 3 related cases in our system. "
    "Your new balance is $1,299.50 and the discount is 15%. "
    "Please contact support if anything looks wrong."
)


def tool_output(target_bytes: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    items = []
    while len(json.dumps(items)) < target_bytes:
        items.append({
            "sku": f"SKU-{rng.randint(10000, 99999)}",
            "name": rng.choice(["mug", "tea sampler", "kettle", "filter"]),
            "price": round(rng.uniform(1, 500), 2),
            "qty": rng.randint(1, 5),
            "status": rng.choice(["shipped", "pending", "delivered"]),
            "note": "processed by warehouse 3 on 2026-12-01",
        })
    return {"refund_status": "approved", "refund_amount": 45.0, "order_id": 88231,
            "tracking_number": "SF1234567890", "shipped_at": "2026-12-03", "cases": [1, 2, 3],
            "balance": 1299.5, "discount_rate": 0.15, "items": items}


def measure(checker: FactChecker, output: dict, runs: int) -> list[float]:
    calls = [{"name": "get_order", "args": {}, "output": output, "status": "ok"}]
    for _ in range(5):
        checker.check(ANSWER, calls)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        checker.check(ANSWER, calls)
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float], size: int) -> None:
    times.sort()
    p50 = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"{label:<28} p50 {p50:8.3f} ms  p95 {p95:8.3f} ms  ({p50 / (size / 1e6):8.1f} ms per MB at p50)")


def main() -> None:
    checker = FactChecker()
    for label, size, runs in (("5 sentences vs 10 KB", 10_000, 300), ("5 sentences vs 100 KB", 100_000, 50),
                              ("5 sentences vs 1 MB", 1_000_000, 15)):
        output = tool_output(size)
        actual = len(json.dumps(output))
        report(label, measure(checker, output, runs), actual)


if __name__ == "__main__":
    main()
