"""Huge numbers, deep structures and long answers are read to a bound and noted, never raised."""

from __future__ import annotations

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.bounds import bounded_answer, bounded_text, bounded_value

CHECKER = FactChecker()
BALANCE = [{"name": "get_balance", "args": {}, "output": {"balance": 5}, "status": "ok"}]


def _deep_list(depth: int) -> list:
    root: list = []
    cur = root
    for _ in range(depth):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    cur.append("balance 5")
    return root


@pytest.mark.parametrize(
    ("answer", "tool_calls", "context", "note"),
    [
        (f"Your balance is {'9' * 4301} dollars.", BALANCE, (), "up to 4,301"),
        (f"Your balance is {'1' * 10_000} dollars.", BALANCE, (), "up to 10,000"),
        (f"Your balance is {','.join(['999'] * 1500)} dollars.", BALANCE, (), "up to 4,500"),
        (f"Your balance \ud800 is {'1' * 1001} \udfff dollars.", BALANCE, (), "up to 1,001"),
        ("Your balance is 5 dollars.", [{"name": "get_balance", "output": {"balance": 10**5000}}], (),
         "tool call 0: a number longer than 4,300 digits was not read"),
        ("Your balance is 5 dollars.", [{"name": "get_balance", "args": {"n": -(10**9000)}, "output": {}}], (),
         "tool call 0: a number longer"),
        ("Your balance is 5 dollars.", (), [_deep_list(100_000)], "context[0]: context deeper than 64 levels"),
        ("Your balance is 5 dollars.", (), [{"a": _deep_list(100_000)}], "context[0]: context deeper"),
    ],
)
def test_huge_and_deep_inputs_are_noted_not_raised(answer, tool_calls, context, note):
    report = CHECKER.check(answer, tool_calls=tool_calls, context=context)
    assert any(note in n for n in report.notes), report.notes
    assert report.answer == answer
    assert all(c.text == answer[c.start : c.end] for c in report.claims)


def test_a_huge_number_never_backs_a_claim():
    huge = [{"name": "get_balance", "output": {"balance": 10**5000}}]
    report = CHECKER.check("Your balance is 5 dollars.", tool_calls=huge)
    assert all("too long" not in (e.text or "") for c in report.claims for e in c.evidence)
    assert not report.claims[0].verdict.value == "supported"


@pytest.mark.parametrize(("size", "bound", "checked"), [(100, 1000, 100), (5000, 1000, 1000), (30_000, 20_000, 20_000)])
def test_a_long_answer_is_checked_up_to_the_bound(size, bound, checked):
    answer = ("Your order 88231 shipped. " * (size // 26 + 1))[:size]
    scanned, notes = bounded_answer(answer, bound)
    assert answer.startswith(scanned) and checked - 200 <= len(scanned) <= checked
    assert bool(notes) is (size > bound)
    report = FactChecker(CheckerConfig(max_answer_chars=bound)).check(answer)
    assert all(c.end <= len(scanned) for c in report.claims)
    assert any("max_answer_chars" in n for n in report.notes) is (size > bound)


def test_bounded_value_copies_only_when_it_replaces():
    plain = {"a": [1, 2, {"b": 3}]}
    assert bounded_value(plain, 64) == (plain, [])
    assert bounded_value(plain, 64)[0] is plain
    huge = {"a": [1, {"b": 10**5000}]}
    value, notes = bounded_value(huge, 64)
    assert value == {"a": [1, {"b": "[a number too long to read]"}]} and notes


def test_bounded_text_reads_to_the_depth_and_the_length():
    text, notes = bounded_text({"order": ["88231", {"status": "shipped"}]}, 64, 1000)
    assert text == "order: 88231 status: shipped" and notes == []
    text, notes = bounded_text(["x" * 50] * 100, 64, 120)
    assert len(text) <= 120
    text, _ = bounded_text({"a": 1, "b": {"c": 2}}, 64, 100)
    assert text == "a: 1 b: c: 2"


@pytest.mark.parametrize("answer", ["\ud800", "。\ud800", "已退款。\udfff 5 dollars", "Refund \ud800 done."])
def test_a_lone_surrogate_in_the_answer_is_read_as_a_replacement_character(answer):
    report = CHECKER.check(answer, tool_calls=BALANCE)
    assert report.answer == answer and all(c.text == answer[c.start : c.end] for c in report.claims)
