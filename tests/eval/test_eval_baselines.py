"""The seed-naive and fuzzy baselines."""

from __future__ import annotations

import re

import pytest
from eval_helpers import MINI

from factcheck.eval.baselines import (
    BASELINES,
    Fuzzy,
    SeedNaive,
    make_baseline,
    seed_ground,
    split_claims,
)
from factcheck.eval.runner import run_suite
from factcheck.eval.scoring import summarize
from factcheck.eval.suite import load_suite
from factcheck.report import Verdict

SEED_TOOL = "refund result: 失败，订单号 88231 未退款"


def test_seed_ground_matches_seed_003():
    # the seed's own example: caught as false
    assert not seed_ground("已为您成功退款，订单号 88231", SEED_TOOL)
    assert seed_ground("退款失败，订单号 88231", SEED_TOOL)
    assert not seed_ground("退款失败，订单号 88213", SEED_TOOL)  # digit run missing
    assert not seed_ground("您的订单 88231 正在处理", SEED_TOOL)  # no status word at all
    assert seed_ground("未退款", SEED_TOOL)


def test_seed_naive_splits_only_on_full_stop_and_newline():
    answer = "  退款失败，订单号 88231。\n已为您成功退款。 请稍候 "
    report = SeedNaive().check(answer, [{"name": "refund", "args": {}, "output": SEED_TOOL,
                                         "status": "ok"}])
    assert [c.text for c in report.claims] == ["退款失败，订单号 88231", "已为您成功退款", "请稍候"]
    assert all(answer[c.start:c.end] == c.text for c in report.claims)
    assert [c.verdict for c in report.claims] == [Verdict.SUPPORTED, Verdict.UNSUPPORTED,
                                                  Verdict.UNSUPPORTED]
    assert report.claims[0].evidence[0].tool_name == "refund"
    assert "status word" in report.claims[2].reason


def test_seed_naive_reads_json_outputs_and_context():
    tools = [{"name": "get", "args": {}, "output": {"msg": "退款成功", "amount": 299},
              "status": "ok"}]
    assert SeedNaive().check("退款成功，299 元", tools).ok
    assert SeedNaive().check("已找到订单", [], ["系统：已找到订单"]).ok


def test_split_claims_trims_and_keeps_offsets():
    text = " a. b\n\nc "
    spans = split_claims(text, re.compile(r"[.\n]"))
    assert [text[s:e] for s, e in spans] == ["a", "b", "c"]


def test_fuzzy_sentences_keep_decimals_together():
    answer = "Your refund of $45.00 was approved. Order 88231 shipped!"
    tools = [{"name": "r", "args": {}, "output": "refund of $45.00 was approved", "status": "ok"}]
    report = Fuzzy().check(answer, tools)
    assert [c.text for c in report.claims] == ["Your refund of $45.00 was approved",
                                               "Order 88231 shipped"]
    assert [c.verdict for c in report.claims] == [Verdict.SUPPORTED, Verdict.UNSUPPORTED]
    assert report.claims[0].evidence[0].tool_name == "r"


def test_fuzzy_cutoff_and_processor_are_applied():
    tools = [{"name": "r", "args": {}, "output": "REFUND APPROVED", "status": "ok"}]
    assert Fuzzy(score_cutoff=90).check("refund approved", tools).ok  # case folded
    assert not Fuzzy(score_cutoff=90, processor=lambda s: s).check("refund approved", tools).ok
    assert not Fuzzy(score_cutoff=100).check("refund approvd", tools).ok
    assert Fuzzy(score_cutoff=80).check("refund approvd", tools).ok


def test_fuzzy_punctuation_only_claim_is_unverifiable():
    report = Fuzzy().check("…… :) ", [])
    assert [c.verdict for c in report.claims] == [Verdict.UNVERIFIABLE]


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_baselines_give_spans_inside_the_answer(name):
    cases = load_suite([MINI])
    results = run_suite(make_baseline(name), cases, warmup=False)
    for r in results:
        assert r.report.answer == r.case.answer
        for c in r.report.claims:
            assert 0 <= c.start < c.end <= len(r.case.answer)
            assert r.case.answer[c.start:c.end] == c.text
    s = summarize(results)
    assert s["spans"]["flagged"] == sum(len(r.report.flagged) for r in results)


def test_unknown_baseline():
    with pytest.raises(ValueError, match="unknown baseline 'nope'"):
        make_baseline("nope")
