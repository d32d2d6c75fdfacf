"""`factcheck.verify`: a second opinion on uncertain claims, from scripted chat models and callables."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.tools import tool

from factcheck import CheckerConfig, FactChecker
from factcheck.langchain import FactCheckMiddleware, get_run_report
from factcheck.langchain.extract import message_text
from tests.langchain.conftest import ScriptedChatModel, call, scripted, token_model

BOOKING_TOOLS = [{"name": "check_availability", "status": "ok",
                  "args": {"restaurant": "海底捞望京店", "date": "2026-09-26", "time": "19:00", "party_size": 4},
                  "output": {"available": True, "table_type": "四人桌", "hold_minutes": 15}}]
BOOKING = "已为您预订好海底捞望京店 9月26日 周六晚上 19:00 的四人桌，请提前 15 分钟到店。"
"""An unbacked booking (no booking tool ran) whose flag the checks are unsure of (confidence ~0.46)."""
TRANSFER_TOOLS = [{"name": "get_transfer_limits", "args": {"account": "6222****8812"}, "status": "ok",
                   "output": {"单笔限额": 50000, "日累计限额": 200000, "今日已用": 135000}}]
TRANSFER = ("可以转，但需要分两笔：您的单笔限额是 5 万元；今天的日累计限额 20 万元已经用了 13.5 万，还剩 6.5 万额度。"
            "所以这 6 万元可以分成两笔（比如 5 万 + 1 万）在今天转出。")
"""A faithful answer with two claims the checks are unsure of (confidence ~0.33)."""
REFUND_TOOLS = [{"name": "refund_order", "args": {"order_id": "88231"}, "status": "ok",
                 "output": "refund result: 失败，订单号 88231 未退款"}]
REFUND_LIED = "已为您成功退款，订单号 88231。"
"""Contradicted with high confidence: settled without the verifier."""
REFUND_TRUE = "订单号 88231 的退款失败了，目前未退款。"
"""Supported: settled without the verifier."""


def verdict_message(verdict: str, reason: str = "the excerpt says so", tokens: int = 30) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "ClaimVerdict", "args": {"verdict": verdict, "reason": reason},
                                      "id": "v1"}],
                     usage_metadata={"input_tokens": tokens - 5, "output_tokens": 5, "total_tokens": tokens})


def judge(verdict: str = "contradicted", *, delay: float = 0.0, fail: bool = False,
          reply: AIMessage | None = None, barrier: threading.Barrier | None = None) -> ScriptedChatModel:
    """A scripted verifier model: answers every question with `verdict` (or `reply`), slowly or failing."""

    def respond(messages: list[BaseMessage]) -> AIMessage:
        if barrier is not None:
            barrier.wait()
        time.sleep(delay)
        if fail:
            raise ConnectionError("verifier backend down")
        return reply or verdict_message(verdict)

    return ScriptedChatModel(responder=respond)


ASK = "帮我订周六晚上 7 点 4 个人的位子，海底捞望京店。"
PLAIN = FactChecker()


def unsure(answer: str, tools: list[dict[str, Any]], context: tuple[str, ...] = ()) -> dict[str, Any]:
    """Settings under which this answer's flags are uncertain and in the band, whatever figures the calibration
    (refitted as the checks change) gives them: the tests are about the verifier, not about the calibration."""
    confidences = [c.confidence for c in PLAIN.check(answer, tools, list(context)).claims if c.confidence]
    assert confidences, "the fixture lost its flags"
    low, high = max(0.0, min(confidences) - 0.01), min(1.0, max(confidences) + 0.01)
    return {"min_confidence": high, "verify_between": (low, high)}


def checked(answer: str, tools: list[dict[str, Any]], verifier: Any, **config: Any):
    """Check with a verifier; the unsure fixtures (BOOKING, TRANSFER) in its band unless `config` says otherwise."""
    settings = unsure(answer, tools) if answer in (BOOKING, TRANSFER) else {}
    return FactChecker(CheckerConfig(verifier=verifier, **{**settings, **config})).check(answer, tools)


@pytest.mark.parametrize(
    ("answer", "tools", "verdict", "ok", "calls"),
    [
        (BOOKING, BOOKING_TOOLS, "contradicted", False, 1),
        (BOOKING, BOOKING_TOOLS, "unsupported", False, 1),
        (BOOKING, BOOKING_TOOLS, "supported", True, 1),
        (TRANSFER, TRANSFER_TOOLS, "supported", True, 2),
        (REFUND_LIED, REFUND_TOOLS, "supported", False, 0),  # settled by the checks: no call
        (REFUND_TRUE, REFUND_TOOLS, "contradicted", True, 0),
    ],
    ids=["booking contradicted", "booking unsupported", "booking supported", "transfer supported",
         "settled lie", "settled truth"],
)
def test_the_model_is_asked_only_in_the_band_and_its_verdict_settles_the_claim(answer, tools, verdict, ok, calls):
    model = judge(verdict)
    plain = PLAIN.check(answer, tools)
    report = checked(answer, tools, model)
    assert report.ok is ok
    assert model.calls == report.verifier.calls == calls
    assert report.verifier.tokens == (30 * calls if calls else None)
    decided = [c for c in report.claims if c.second_opinion is not None]
    assert len(decided) == calls
    assert all(c.second_opinion.verdict == verdict and c.second_opinion.reason for c in decided)
    assert [c.verdict for c in report.claims if c.second_opinion is None] == [
        c.verdict for c in plain.claims if c.text not in {d.text for d in decided}]


@pytest.mark.parametrize(
    ("model", "timeout", "counted", "tokens"),
    [
        (judge(delay=1.0), 0.2, "timed_out", None),
        (judge(fail=True), 5.0, "failed", None),
        (judge(reply=AIMessage("I think it is fine.")), 5.0, "failed", None),  # no tool call: no verdict
        (judge(reply=verdict_message("maybe")), 5.0, "failed", 30),  # a verdict outside the schema, tokens spent
    ],
    ids=["slow", "failing", "prose", "malformed verdict"],
)
def test_a_verifier_that_fails_keeps_the_deterministic_verdict(model, timeout, counted, tokens):
    report = checked(BOOKING, BOOKING_TOOLS, model, verify_timeout=timeout)
    plain = FactChecker(CheckerConfig(**unsure(BOOKING, BOOKING_TOOLS))).check(BOOKING, BOOKING_TOOLS)
    assert report.ok and [c.verdict for c in report.claims] == [c.verdict for c in plain.claims]
    assert all(c.second_opinion is None for c in report.claims)
    assert getattr(report.verifier, counted) == 1
    assert (report.verifier.asked, report.verifier.tokens) == (1, tokens)


def test_the_model_sees_the_claim_and_its_excerpts_not_the_transcript():
    model = judge("contradicted")
    checked(TRANSFER, TRANSFER_TOOLS, model, verify_max_claims=1)
    system, human = model.seen[0]
    text = message_text(human)
    asked = text.split("\n")[0]
    assert asked.startswith("Claim: ") and asked[len("Claim: "):] in TRANSFER
    assert "get_transfer_limits" in text and "135000" in text
    assert TRANSFER not in text  # the whole answer is never sent, only the claim
    assert "excerpts" in message_text(system)


def test_answers_are_cached_per_claim_and_evidence():
    model = judge("contradicted")
    checker = FactChecker(CheckerConfig(verifier=model, **unsure(BOOKING, BOOKING_TOOLS)))
    first = checker.check(BOOKING, BOOKING_TOOLS)
    again = checker.check(BOOKING, BOOKING_TOOLS)
    other = checker.check(BOOKING, [{**BOOKING_TOOLS[0], "output": {"available": False}}])
    assert (first.verifier.calls, again.verifier.calls, again.verifier.cached) == (1, 0, 1)
    assert again.flagged[0].second_opinion.cached and not again.ok
    assert other.verifier.calls == 1 and model.calls == 2  # other evidence: asked again


@pytest.mark.parametrize(("max_claims", "calls", "over"), [(0, 0, 2), (1, 1, 1), (3, 2, 0)])
def test_at_most_n_claims_per_answer(max_claims, calls, over):
    model = judge("supported")
    report = checked(TRANSFER, TRANSFER_TOOLS, model, verify_max_claims=max_claims)
    assert (model.calls, report.verifier.over_budget) == (calls, over)


@pytest.mark.parametrize(("around", "calls"), [((-0.05, 0.05), 2), ((0.01, 0.2), 0), ((-0.2, -0.01), 0)])
def test_the_band_decides_who_is_asked(around, calls):
    confidence = PLAIN.check(TRANSFER, TRANSFER_TOOLS).claims[0].confidence
    band = (max(0.0, confidence + around[0]), min(1.0, confidence + around[1]))
    model = judge("supported")
    assert checked(TRANSFER, TRANSFER_TOOLS, model, verify_between=band).verifier.calls == calls == model.calls


def test_claims_are_asked_concurrently():
    both = threading.Barrier(2, timeout=5)  # passes only when the two calls wait at the same time
    report = checked(TRANSFER, TRANSFER_TOOLS, judge("supported", barrier=both))
    assert (report.verifier.calls, report.verifier.failed, report.verifier.timed_out) == (2, 0, 0)


@pytest.mark.parametrize(
    ("answer", "ok", "source"),
    [(("contradicted", 0.9), False, "nli"), (("supported", 0.8), True, "nli"), (("contradicted", 0.3), True, None),
     (("nonsense", 0.9), True, None), ("contradicted", True, None)],
    ids=["contradicted", "supported", "unsure", "unknown verdict", "no pair"],
)
def test_a_callable_verifier(answer, ok, source):
    seen = []

    def nli(claim: str, evidence: list[str]) -> Any:
        seen.append((claim, evidence))
        return answer

    report = checked(BOOKING, BOOKING_TOOLS, nli)
    assert report.ok is ok
    assert [c.second_opinion.source for c in report.claims if c.second_opinion] == ([source] if source else [])
    claim, evidence = seen[0]
    assert claim in BOOKING and any("check_availability" in e for e in evidence)


def test_no_verifier_no_cost():
    report = FactChecker().check(BOOKING, BOOKING_TOOLS)
    assert report.verifier is None and all(c.second_opinion is None for c in report.claims)


@pytest.mark.parametrize("bad", [(0.6, 0.2), (-0.1, 0.5), (0.2, 1.5)])
def test_the_band_must_be_in_order(bad):
    with pytest.raises(ValueError, match="verify_between"):
        CheckerConfig(verify_between=bad)


def test_a_verifier_that_is_neither_model_nor_callable_is_refused():
    with pytest.raises(TypeError, match="chat model or a callable"):
        checked(BOOKING, BOOKING_TOOLS, "gpt-4o")


@tool
def check_availability(restaurant: str, date: str, time: str, party_size: int) -> dict:
    """Check a restaurant's free tables."""
    return BOOKING_TOOLS[0]["output"]


FIXED = "海底捞望京店 9月26日 19:00 目前有四人桌空位，需要我现在帮您预订吗？"


def booking_agent(verifier: Any, where: str) -> Any:
    model = scripted(call("check_availability", BOOKING_TOOLS[0]["args"], "c1"), BOOKING, FIXED)
    settings = {"verifier": verifier, **unsure(BOOKING, BOOKING_TOOLS, (ASK,))}
    if where == "middleware":
        return create_agent(model, [check_availability], middleware=[FactCheckMiddleware(**settings)])
    return create_agent(model, [check_availability]).with_fact_check(**settings)


@pytest.mark.parametrize("where", ["wrapper", "middleware"])
@pytest.mark.parametrize(("verdict", "outcome", "calls"), [(None, "passed", 0), ("contradicted", "retried", 1),
                                                           ("supported", "passed", 1)])
async def test_with_fact_check_and_middleware_take_a_verifier(where, verdict, outcome, calls):
    model = judge(verdict or "supported")
    agent = booking_agent(model if verdict else None, where)
    out = await agent.ainvoke({"messages": [("user", ASK)]})
    report = get_run_report(out)
    assert report.outcome == outcome and model.calls == calls
    first = report.attempts[0]
    assert (first.verifier.calls if first.verifier else 0) == calls


def test_a_verifier_cannot_be_combined_with_a_ready_checker():
    with pytest.raises(ValueError, match="verifier cannot be combined"):
        scripted("x").with_fact_check(checker=FactChecker(), verifier=judge())


@pytest.mark.parametrize(("verdict", "shown"), [("supported", BOOKING), ("contradicted", FIXED)])
def test_a_streamed_sentence_is_held_until_its_verifier_answers(verdict, shown):
    order: list[str] = []
    slow = judge(verdict, delay=0.2)
    respond = slow.responder

    def answered(messages: list[BaseMessage]) -> AIMessage:
        reply = respond(messages)
        order.append("verifier")
        return reply

    slow.responder = answered
    model = token_model(call("check_availability", BOOKING_TOOLS[0]["args"], "c1"), BOOKING, FIXED)
    agent = create_agent(model, [check_availability]).with_fact_check(
        verifier=slow, **unsure(BOOKING, BOOKING_TOOLS, (ASK,)))
    text = ""
    for chunk, _ in agent.stream({"messages": [("user", ASK)]}, stream_mode="messages"):
        if isinstance(chunk, AIMessageChunk) and chunk.content:
            order.append("text")
            text += message_text(chunk)
    assert text == shown
    assert order.index("verifier") < order.index("text")  # nothing of the answer before its verdict
    assert "已为您预订好" not in text or verdict == "supported"
