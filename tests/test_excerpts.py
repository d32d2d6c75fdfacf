"""Evidence excerpts: around the fact in its field, cut between words, each evidence shown once."""

from __future__ import annotations

import re

import pytest

from factcheck import check
from factcheck.excerpts import cut, excerpt
from factcheck.report import Evidence

LOG = " ".join(f"line {i}: request served in {i % 97} ms by worker alpha" for i in range(30000))
LOG += " then the ticket TK-7781-QX was opened for the outage " + "and the tail goes on " * 500


@pytest.mark.parametrize("text, start, end, width, want", [
    ("short text", 0, 5, 20, "short text"),
    ("alpha beta gamma delta epsilon zeta eta theta", 17, 22, 24, "…gamma delta epsilon zeta…"),
    ("甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥", 10, 12, 6, "…壬癸子丑寅卯…"),
])
def test_excerpt_around_the_span(text, start, end, width, want):
    assert excerpt(text, start, end, width) == want


@pytest.mark.parametrize("start, end", [m.span() for m in re.finditer(r"\S+", LOG[:600])][::5])
def test_an_excerpt_holds_its_span_and_only_whole_words(start, end):
    words = LOG[:600].split()
    shown = excerpt(LOG[:600], start, end, width=60)
    assert LOG[start:end].strip() in shown and len(shown) <= 60 + 2 * 20
    assert all(w in words for w in shown.strip("…").split())


@pytest.mark.parametrize("text, want", [
    ("The payment provider declined the refund because the original charge is too old", "The payment provider…"),
    ("The payment provider declined…", "The payment provider…"),
    ("short", "short"),
])
def test_cut_between_words(text, want):
    assert cut(text, width=22) == want


@pytest.mark.parametrize("path, shown", [("status", "get_order.status: 'shipped'"),
                                         ("[0].status", "get_order[0].status: 'shipped'"),
                                         ("", "get_order: 'shipped'")])
def test_evidence_names_the_field_it_came_from(path, shown):
    assert Evidence(index=0, tool_name="get_order", path=path, text="shipped").describe() == shown


def test_an_id_deep_in_a_log_is_shown_where_it_was_found():
    report = check("Your ticket TK-7781-QX was opened.", tool_calls=[{"name": "read_log", "args": {}, "output": LOG}])
    ev = report.claims[0].facts[0].evidence[0]
    assert "TK-7781-QX" in ev.text and ev.text.startswith("…") and ev.text.endswith("…")
    assert len(ev.text) <= 110 and " the ticket TK-7781-QX was opened " in ev.text


def test_a_nested_field_is_excerpted_too():
    note = "handed to the carrier; " * 10 + "tracking code ZX-99812-K sent by mail; " + "more words " * 20
    report = check("Your tracking code is ZX-99812-K.", tool_calls=[
        {"name": "get_order", "args": {}, "output": {"order": {"status": "shipped", "note": note}}}])
    ev = report.claims[0].facts[0].evidence[0]
    assert ev.path == "order.note" and "tracking code ZX-99812-K sent" in ev.text
    assert "<- get_order.order.note: '…" in str(report)


def test_each_evidence_is_printed_once():
    report = check("已为您成功退款，订单号 88231。", tool_calls=[{"name": "refund", "args": {"order_id": "88231"},
                                                     "output": "refund result: 失败，订单号 88231 未退款",
                                                     "status": "ok"}])
    status = str(report).split("identifier")[0]
    assert status.count("<- refund: 'refund result: 失败，订单号 88231 未退款'") == 1
    assert len(report.claims[0].facts[0].evidence) >= 1
