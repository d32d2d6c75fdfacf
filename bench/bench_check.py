"""Benchmark: check latency as ratios measured side by side in one run, memory, and start-up.

Rows (all in one run, so the ratios hold on a busy machine where absolute times move):

- a 5-sentence answer against tool outputs of 10 KB to 3.9 MB, given as parsed JSON (a dict) and
  as JSON text (as a LangChain `ToolMessage` carries them); four outputs of each size take turns,
  so no check reuses the previous one's objects. Their line items are flat records, walked column
  by column; the "nested" rows give each item a nested record (`dims`), walked item by item;
- "derived totals": an answer whose numbers no output gives directly, so every simple arithmetic
  over the output's numbers is tried;
- the "log" rows: a plain-text log that gives a claimed number on every line (the ratio to the
  1 MB JSON text row is the target: at most 10x), and one that names the claimed field on every
  line (`refund_amount=`);
- a 1 MB log holding one number written with a magnitude word ("3k"), against the 5-sentence answer
  (its $1,299.50 may be such a number: the log is read where one stands, not whole);
- 5.4 MB of JSON text, over `max_output_chars` (4,000,000) and cut: read up to the cut as JSON,
  its time per MB against the uncut 3.9 MB row (the target: at most 2x);
- JSON text nested 1,000 deep, against the same nesting as a dict (both read to `max_json_depth`);
- the held-out suite, p50 per answer, factcheck against factguard-check on the same cases;
- memory: the peak of the allocations (tracemalloc) of one check against 1 MB and 10 MB of
  evidence, and the growth per MB;
- start-up: `import factcheck`, `factcheck --help` and the first `check()` in a fresh interpreter,
  against a bare `python -c pass`.

The factguard-check column (`pip install factguard-check`, a numbers-only checker; never a
dependency of factcheck) is filled where it applies and left out when it is not installed.

Run from the repository root: PYTHONPATH=. python bench/bench_check.py
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import factcheck
from factcheck import FactChecker
from factcheck.eval.suite import load_suite

try:
    import factguard
except ImportError:  # the column is left out
    factguard = None

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


def _log(target_bytes: int, seed: int, line: Callable[[random.Random], str]) -> str:
    """Lines from `line` until the text reaches `target_bytes`."""
    rng = random.Random(seed)
    lines, size = [], 0
    while size < target_bytes:
        lines.append(line(rng))
        size += len(lines[-1]) + 1
    return "\n".join(lines)


def plain_log(target_bytes: int, seed: int) -> str:
    """A plain-text log of `key=value` lines: a number the answer claims stands on every line."""
    return _log(target_bytes, seed, lambda rng: (
        f"2026-12-01T02:{rng.randint(10, 59)}:{rng.randint(10, 59)}Z WARN pool=pg-main active=50/50 "
        f"waiting={rng.randint(0, 90)} acquire_timeout_ms=3000"))


FIELD_ANSWER = "The refund amount was $45.00."
"""A number of a field a log names on every line (`refund_amount=`): the log is read where it names it."""


def field_log(target_bytes: int, seed: int) -> str:
    """A plain-text log whose every line names the refund amount field."""
    return _log(target_bytes, seed, lambda rng: (
        f"2026-12-01T02:{rng.randint(10, 59)}:{rng.randint(10, 59)}Z INFO refund_id=R{rng.randint(1000, 9999)} "
        f"refund_amount={rng.randint(1, 99)}.00 status=ok"))


def measure(checker: FactChecker, outputs: list, runs: int, answer: str = ANSWER) -> list[float]:
    """Check the answer against each output in turn: no run sees the same output object twice in a row."""
    calls = [[{"name": "get_order", "args": {}, "output": out, "status": "ok"}] for out in outputs]
    for i in range(min(5, runs)):
        checker.check(answer, calls[i % len(calls)])  # warm-up
    times = []
    for i in range(runs):
        run = calls[i % len(calls)]
        start = time.perf_counter()
        checker.check(answer, run)
        times.append((time.perf_counter() - start) * 1000)
    return times


def guard_data(outputs: list[Any]) -> Any:
    """Tool outputs as factguard-check takes its data: parsed JSON, one value or a list of them."""
    data = []
    for out in outputs:
        if isinstance(out, str):
            try:
                out = json.loads(out)
            except ValueError:
                pass  # plain text: factguard reads no numbers from it
        data.append(out)
    return data[0] if len(data) == 1 and not isinstance(data[0], str) else data


def measure_guard(outputs: list, runs: int, answer: str = ANSWER) -> list[float] | None:
    """As `measure`, with factguard-check (None when it is not installed)."""
    if factguard is None:
        return None
    for i in range(min(5, runs)):
        factguard.check(answer, guard_data([outputs[i % len(outputs)]]))
    times = []
    for i in range(runs):
        start = time.perf_counter()
        factguard.check(answer, guard_data([outputs[i % len(outputs)]]))
        times.append((time.perf_counter() - start) * 1000)
    return times


def p50(times: list[float]) -> float:
    return statistics.median(times)


def report(label: str, times: list[float], size: int | None = None, guard: list[float] | None = None,
           note: str = "") -> float:
    """Print one row: p50, p95, ms per MB at p50, and factguard-check's p50 and the ratio when measured."""
    times = sorted(times)
    mid = p50(times)
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    per_mb = f"  {mid / (size / 1e6):8.1f} ms/MB" if size else " " * 15
    column = ""
    if guard is not None:
        column = f"  factguard p50 {p50(guard):8.3f} ms  ratio {mid / p50(guard):5.2f}x"
    print(f"{label:<44} p50 {mid:9.3f} ms  p95 {p95:9.3f} ms{per_mb}{column}{note}")
    return mid


def heldout_side_by_side(checker: FactChecker) -> None:
    """Both checkers on every held-out case, one after the other per case; p50 per answer of each."""
    cases = [(c.answer, c.tool_call_dicts(), c.checker_context()) for c in load_suite(["heldout"])]
    for answer, tools, context in cases:  # warm-up
        checker.check(answer, tools, context)
    mine, theirs = [], []
    for answer, tools, context in cases:
        start = time.perf_counter()
        checker.check(answer, tools, context)
        mine.append((time.perf_counter() - start) * 1000)
        if factguard is not None:
            data = guard_data([t["output"] for t in tools])
            start = time.perf_counter()
            factguard.check(answer, data)
            theirs.append((time.perf_counter() - start) * 1000)
    report(f"held-out suite ({len(cases)} answers), per answer", mine, guard=theirs or None)


def cut_and_deep(checker: FactChecker) -> None:
    """The 3.9 MB JSON text, 5.4 MB cut at `max_output_chars`, and JSON text 1,000 deep against a dict."""
    limit = checker.config.max_output_chars
    whole = [json.dumps(tool_output(3_900_000, seed)) for seed in range(2)]
    uncut = report("5 sentences vs 3.9 MB (JSON text)", measure(checker, whole, 6), len(whole[0]),
                   measure_guard(whole, 6)) / (len(whole[0]) / 1e6)
    del whole
    over = [json.dumps(tool_output(5_400_000, seed)) for seed in range(2)]
    notes = checker.check(ANSWER, [{"name": "get_order", "output": over[0]}]).notes
    cut = report("5 sentences vs 5.4 MB (JSON text, cut)", measure(checker, over, 6), len(over[0]),
                 measure_guard(over, 6)) / (len(over[0]) / 1e6)
    kept = cut * len(over[0]) / limit  # per MB of the text read, not of the text given
    print(f"{'':<44} per MB given {cut / uncut:4.2f}x, per MB read {kept / uncut:4.2f}x the uncut row; notes: {notes}")
    del over
    text = '{"a": ' * 1000 + '{"refund_status": "approved", "amount": 45}' + "}" * 1000
    nested: Any = {"refund_status": "approved", "amount": 45}
    for _ in range(1000):
        nested = {"a": nested}
    answer = "Your refund of $45 was approved."
    deep = report("refund answer vs JSON text 1,000 deep", measure(checker, [text], 200, answer))
    as_dict = report("refund answer vs dict 1,000 deep", measure(checker, [nested], 200, answer))
    notes = checker.check(answer, [{"name": "get_refund", "output": text}]).notes
    print(f"{'':<44} text/dict {deep / as_dict:4.2f}x; notes: {notes}")


def memory(checker: FactChecker) -> None:
    """Peak allocations of one check against 1 MB and 10 MB of evidence (dicts; text over 4 MB is cut)."""
    peaks = {}
    for mb in (1, 10):
        output = tool_output(mb * 1_000_000, 3)
        calls = [{"name": "get_order", "args": {}, "output": output, "status": "ok"}]
        checker.check(ANSWER, calls)  # caches and pipelines first
        tracemalloc.start()
        checker.check(ANSWER, calls)
        peaks[mb] = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        print(f"{f'memory: one check vs {mb} MB (dict)':<44} peak {peaks[mb]:8.1f} MB")
    print(f"{'memory: growth':<44} {(peaks[10] - peaks[1]) / 9:8.2f} MB per MB of evidence")


def startup(runs: int = 5) -> None:
    """Fresh interpreters: `import factcheck`, `--help`, import and first check; a bare `python -c pass`."""
    root = str(Path(factcheck.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root}
    first = ("import factcheck; factcheck.check('Your refund of $45.00 was approved.', "
             "[{'name': 'get_refund', 'output': {'refund_status': 'approved', 'amount': 45.0}}])")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import factcheck": [sys.executable, "-c", "import factcheck"],
        "factcheck --help": [sys.executable, "-m", "factcheck.cli", "--help"],
        "import factcheck, first check()": [sys.executable, "-c", first],
    }
    base = None
    for label, argv in commands.items():
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, env=env, cwd=root, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        mid = p50(times)
        base = base or mid
        print(f"{f'start-up: {label}':<44} p50 {mid * 1000:9.1f} ms  ({mid / base:4.1f}x python -c pass)")


def main() -> None:
    checker = FactChecker()
    print(f"factguard-check: {'installed' if factguard else 'not installed (its column is left out)'}")
    sizes = (("10 KB", 10_000, 300, False), ("100 KB", 100_000, 60, False), ("1 MB", 1_000_000, 20, False),
             ("1 MB nested", 1_000_000, 20, True))
    json_1mb = 0.0
    for label, size, runs, nested in sizes:
        outputs = [tool_output(size, seed, nested) for seed in range(4)]  # same shape, different values
        actual = len(json.dumps(outputs[0]))
        report(f"5 sentences vs {label} (dict)", measure(checker, outputs, runs), actual,
               measure_guard(outputs, runs))
        texts = [json.dumps(out) for out in outputs]  # as a ToolMessage carries it
        mid = report(f"5 sentences vs {label} (JSON text)", measure(checker, texts, runs), actual,
                     measure_guard(texts, runs))
        if label == "1 MB":
            json_1mb = mid
    derived = [order_with_totals(seed) for seed in range(4)]
    report("derived totals vs 12 line items", measure(checker, derived, 300, DERIVED_ANSWER),
           guard=measure_guard(derived, 300, DERIVED_ANSWER))
    for label, size, runs in (("100 KB", 100_000, 20), ("1 MB", 1_000_000, 10)):
        logs = [plain_log(size, seed) for seed in range(4)]
        mid = report(f"log answer vs {label} plain-text log", measure(checker, logs, runs, LOG_ANSWER), len(logs[0]))
        if label == "1 MB":
            print(f"{'':<44} {mid / json_1mb:4.1f}x the 1 MB JSON text row")
    fields = [field_log(1_000_000, seed) for seed in range(4)]
    mid = report("field answer vs 1 MB log naming the field", measure(checker, fields, 10, FIELD_ANSWER),
                 len(fields[0]))
    print(f"{'':<44} {mid / json_1mb:4.1f}x the 1 MB JSON text row")
    magnitude = [f"cache served 3k requests\n{plain_log(1_000_000, seed)}" for seed in range(4)]
    mid = report("5 sentences vs 1 MB log with one \"3k\"", measure(checker, magnitude, 10), len(magnitude[0]))
    print(f"{'':<44} {mid / json_1mb:4.1f}x the 1 MB JSON text row")
    cut_and_deep(checker)
    heldout_side_by_side(checker)
    memory(checker)
    startup()


if __name__ == "__main__":
    main()
