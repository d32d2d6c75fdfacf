"""Benchmark: per-answer check latency (p50/p95) for small and large tool outputs.

The outputs are given as parsed JSON (a dict) and as JSON text (as a LangChain
`ToolMessage` carries them); four outputs of each size take turns, so no check
reuses the previous one's objects. Their line items are flat records, which are
walked column by column; the "nested" rows give each item a nested record (`dims`),
so the walk goes item by item. The "derived totals" row checks an answer whose numbers no
output gives directly, so every simple arithmetic over the output's numbers is tried. The "log"
rows check an answer against a plain-text log that holds one of its numbers on every line, so the
log is read nearly whole (a text is read only in windows around the places a claimed number may be).

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


def tool_output(target_bytes: int, seed: int = 7, nested: bool = False) -> dict:
    rng = random.Random(seed)
    items: list[dict] = []
    size = 2  # of json.dumps(items): "[" and "]", each item, ", " between items
    while size < target_bytes:
        items.append({
            "sku": f"SKU-{rng.randint(10000, 99999)}",
            "name": rng.choice(["mug", "tea sampler", "kettle", "filter"]),
            "price": round(rng.uniform(1, 500), 2),
            "qty": rng.randint(1, 5),
            "status": rng.choice(["shipped", "pending", "delivered"]),
            "note": "processed by warehouse 3 on 2026-12-01",
        })
        if nested:
            items[-1]["dims"] = {"w_cm": rng.randint(5, 40), "h_cm": rng.randint(5, 40)}
        size += len(json.dumps(items[-1])) + (2 if len(items) > 1 else 0)
    return {"refund_status": "approved", "refund_amount": 45.0, "order_id": 88231,
            "tracking_number": "SF1234567890", "shipped_at": "2026-12-03", "cases": [1, 2, 3],
            "balance": 1299.5, "discount_rate": 0.15, "items": items}


DERIVED_ANSWER = "Your total comes to $1,234.56, and the discount saved you $98.70."
"""Numbers no output gives directly: the checker tries the simple arithmetic over the output's numbers."""


def order_with_totals(seed: int) -> dict:
    """An order of 12 line items (price and quantity), a shipping fee and a tax rate."""
    rng = random.Random(seed)
    items = [{"price": round(rng.uniform(5, 80), 2), "qty": rng.randint(1, 4)} for _ in range(12)]
    return {"items": items, "shipping": 7.5, "tax_rate": 0.08}


LOG_ANSWER = "The pool was full, with 61 requests waiting, and a request times out after 3 seconds."
"""Numbers a log gives on most of its lines (3 seconds is its 3000 ms): the log is read nearly whole."""


def plain_log(target_bytes: int, seed: int) -> str:
    """A plain-text log of `key=value` lines: a number the answer claims stands on every line."""
    rng = random.Random(seed)
    lines, size = [], 0
    while size < target_bytes:
        line = (f"2026-12-01T02:{rng.randint(10, 59)}:{rng.randint(10, 59)}Z WARN pool=pg-main active=50/50 "
                f"waiting={rng.randint(0, 90)} acquire_timeout_ms=3000")
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def measure(checker: FactChecker, outputs: list, runs: int, answer: str = ANSWER) -> list[float]:
    """Check the answer against each output in turn: no run sees the same output object twice in a row."""
    calls = [[{"name": "get_order", "args": {}, "output": out, "status": "ok"}] for out in outputs]
    for i in range(5):
        checker.check(answer, calls[i % len(calls)])  # warm-up
    times = []
    for i in range(runs):
        run = calls[i % len(calls)]
        start = time.perf_counter()
        checker.check(answer, run)
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float], size: int | None = None) -> None:
    times.sort()
    p50 = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    per_mb = f"  ({p50 / (size / 1e6):8.1f} ms per MB at p50)" if size else ""
    print(f"{label:<41} p50 {p50:8.3f} ms  p95 {p95:8.3f} ms{per_mb}")


def main() -> None:
    checker = FactChecker()
    sizes = (("10 KB", 10_000, 300, False), ("100 KB", 100_000, 60, False), ("1 MB", 1_000_000, 20, False),
             ("1 MB nested", 1_000_000, 20, True))
    for label, size, runs, nested in sizes:
        outputs = [tool_output(size, seed, nested) for seed in range(4)]  # same shape, different values
        actual = len(json.dumps(outputs[0]))
        report(f"5 sentences vs {label} (dict)", measure(checker, outputs, runs), actual)
        texts = [json.dumps(out) for out in outputs]  # as a ToolMessage carries it
        report(f"5 sentences vs {label} (JSON text)", measure(checker, texts, runs), actual)
    derived = [order_with_totals(seed) for seed in range(4)]
    times = measure(checker, derived, 300, DERIVED_ANSWER)
    report("derived totals vs 12 line items", times)
    for label, size, runs in (("100 KB", 100_000, 20), ("1 MB", 1_000_000, 5)):
        logs = [plain_log(size, seed) for seed in range(4)]
        report(f"log answer vs {label} plain-text log", measure(checker, logs, runs, LOG_ANSWER), len(logs[0]))


if __name__ == "__main__":
    main()
