"""Fuzz: the checker and `audit` lines never raise, and audit output always encodes as UTF-8.

Random answers and tool outputs (statuses, amounts, ids, links, lone surrogates, digit runs of up to
10,000 digits, nesting up to 100,000 deep) go through `FactChecker.check`; random conversations
(OpenAI chat format) written as JSON Lines, with the same ingredients, go through `audit_line`, and
each verdict record must encode as UTF-8 and read back as JSON. Prints the inputs tried and the
failures found (0 is the target), with the first few failures' inputs. Seeded: the same count gives
the same inputs.

Run from the repository root: PYTHONPATH=. python bench/fuzz_fail_safe.py [count, default 100000]
"""

from __future__ import annotations

import functools
import json
import random
import sys
import traceback

from factcheck import FactChecker
from factcheck.audit.lines import audit_line

WORDS = ["refund", "order", "88231", "shipped", "failed", "success", "已退款", "失败", "$45.00", "3 days",
         "https://domain/item/a7f3c9", "CT-20260922-007", "was", "is", "your", "not", "。", ".", ",", "\n"]


def piece(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.05:
        return "\ud800" if rng.random() < 0.5 else "\udfff"
    if roll < 0.08:
        return str(rng.randint(1, 9)) * rng.choice([4300, 4301, 5000, 10_000])
    if roll < 0.10:
        return ",".join(["999"] * rng.randint(100, 1500))
    if roll < 0.15:
        return "".join(chr(rng.randint(0x20, 0x2FFF)) for _ in range(rng.randint(1, 8)))
    return rng.choice(WORDS)


def text(rng: random.Random, n: int) -> str:
    return " ".join(piece(rng) for _ in range(rng.randint(0, n)))


def value(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if roll < 0.02:
        return DEEP  # a list nested 100,000 deep
    if roll < 0.05:
        return HUGE  # written as a 10,000-digit JSON number
    if depth < 3 and roll < 0.35:
        return {rng.choice(["status", "refund_status", "amount", "note", "url", "id"]): value(rng, depth + 1)
                for _ in range(rng.randint(0, 4))}
    if depth < 3 and roll < 0.5:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice([text(rng, 6), rng.randint(-10**6, 10**6), rng.random() * 1000, True, None])


HUGE = "__huge_number__"
DEEP = "__deep_list__"


def dumps(obj: object) -> str:
    """JSON with each `HUGE` a 10,000-digit number and each `DEEP` a list nested 100,000 deep
    (json.dumps can write neither)."""
    text = json.dumps(obj).replace(json.dumps(HUGE), "9" * 10_000)
    return text.replace(json.dumps(DEEP), "[" * 100_000 + "]" * 100_000)


@functools.cache
def deep_list(depth: int) -> list:
    root: list = []
    cur = root
    for _ in range(depth):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    return root


def real(obj: object) -> object:
    """`HUGE` and `DEEP` made real Python values, for `check`."""
    return {HUGE: 10**10_000, DEEP: deep_list(100_000)}.get(obj, obj) if isinstance(obj, str) else obj


def conversation(rng: random.Random) -> str:
    messages = [{"role": "user", "content": text(rng, 5)}]
    for k in range(rng.randint(1, 3)):
        call = f"c{k}"
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [{"id": call, "type": "function", "function": {
                "name": rng.choice(["refund_order", "get_order", "wire_money"]), "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": call, "content": dumps(value(rng))},
            {"role": "assistant", "content": text(rng, 12)},
        ]
    line = {"messages": messages, "meta": HUGE if rng.random() < 0.1 else 0}
    return dumps(line)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rng = random.Random(24)
    checker = FactChecker()
    failures: list[str] = []
    for i in range(count):
        try:
            if i % 2:
                out = audit_line(conversation(rng), "fuzz.jsonl", i, checker, fix=True)
                for record in out.records + ([out.fixed] if out.fixed else []):
                    json.loads(record.encode("utf-8"), parse_int=str)
            else:
                checker.check(text(rng, 30), tool_calls=[{"name": "refund_order", "output": real(value(rng))}],
                              context=[real(value(rng))])
        except Exception:  # noqa: BLE001 - every failure is counted and shown
            failures.append(f"input {i}: {traceback.format_exc(limit=-6)}")
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1:,} inputs, {len(failures)} failures", flush=True)
    print(f"{count:,} inputs tried, {len(failures)} failures")
    for failure in failures[:5]:
        print(failure)


if __name__ == "__main__":
    main()
