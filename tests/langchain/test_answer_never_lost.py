"""The answer is never lost: every error carries it, with the report; checkpoints keep it."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver

from factcheck import CheckerFailure, FactCheckError
from factcheck.langchain import FactCheckMiddleware, get_run_report
from factcheck.policy import DEFAULT_FALLBACK

ANSWER = "已为您成功退款，订单号 88231。"
REFUND_Q = {"messages": [("user", "请帮我退款，订单号 88231")]}
ON_FAIL = ["drop", "annotate", "raise", lambda report: "rewritten"]
SURFACES = ["wrapper-invoke", "wrapper-ainvoke", "wrapper-stream", "middleware-sync", "middleware-async"]


class BrokenChecker:
    """A checker that fails the way a bug or a resource limit would."""

    def check(self, answer, tool_calls=(), context=(), lang=None):
        raise RecursionError("maximum recursion depth exceeded")


def _run(surface: str, tools, **options):
    """Run one surface; returns (output, error, state of the checkpointer or None)."""
    model = scripted(call("refund_order", {"order_id": "88231"}), ANSWER)
    config = {"configurable": {"thread_id": "t1"}}
    saver = InMemorySaver()
    if surface.startswith("middleware"):
        agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(**options)],
                             checkpointer=saver)
    else:
        agent = create_agent(model, [tools.refund_order], checkpointer=saver).with_fact_check(**options)
    try:
        if surface.endswith("sync") and not surface.endswith("async") or surface == "wrapper-invoke":
            out = agent.invoke(REFUND_Q, config)
        elif surface == "wrapper-stream":
            out = list(agent.stream(REFUND_Q, config))
        else:
            out = asyncio.run(agent.ainvoke(REFUND_Q, config))
        error = None
    except Exception as exc:  # every error is looked at below
        out, error = None, exc
    state = agent.get_state(config).values if surface.startswith("middleware") else None
    return out, error, state


@pytest.mark.parametrize(("on_fail", "fail_open", "surface"), list(itertools.product(ON_FAIL, [False, True], SURFACES)))
def test_a_failing_checker_never_loses_the_answer(tools, on_fail, fail_open, surface):
    out, error, state = _run(surface, tools, checker=BrokenChecker(), on_fail=on_fail, fail_open=fail_open)
    if fail_open:
        assert error is None
        report = get_run_report(out)
        assert report.outcome == "unchecked" and report.final_text == ANSWER
    else:
        assert isinstance(error, CheckerFailure) and "RecursionError" in str(error)
        assert error.answer == ANSWER  # the developer has the answer
        assert error.fallback == DEFAULT_FALLBACK["zh"]  # the user gets the fallback
        report = get_run_report(error)
        assert report.outcome == "failed" and report.final_text == DEFAULT_FALLBACK["zh"]
        assert report.executed_tools == ["refund_order"]
        if surface.startswith("wrapper") and surface != "wrapper-stream":
            assert error.output["messages"][-1].content == DEFAULT_FALLBACK["zh"]
    assert report.unchecked_answer == ANSWER
    if state is not None:  # the checkpoint keeps the answer (in the report) and the user's text
        kept = get_run_report(state)
        assert kept.unchecked_answer == ANSWER
        assert state["messages"][-1].content == report.final_text


@pytest.mark.parametrize("surface", SURFACES)
def test_on_fail_raise_carries_the_answer_and_the_report(tools, surface):
    # no failing checker: the answer is flagged (the refund failed) and on_fail raises
    out, error, _ = _run(surface, tools, on_fail="raise", max_retries=0)
    assert isinstance(error, FactCheckError) and error.answer == ANSWER
    assert get_run_report(error).attempts[0].answer == ANSWER


@pytest.mark.parametrize("mode", ["invoke", "ainvoke"])
def test_an_error_in_a_retry_carries_the_first_answer(tools, mode):
    model = scripted(call("refund_order", {"order_id": "88231"}), ANSWER)  # nothing scripted for the retry
    agent = create_agent(model, [tools.refund_order]).with_fact_check(max_retries=1)
    with pytest.raises(RuntimeError) as info:
        if mode == "invoke":
            agent.invoke(REFUND_Q)
        else:
            asyncio.run(agent.ainvoke(REFUND_Q))
    assert get_run_report(info.value).attempts[0].answer == ANSWER
    assert tools.count["refund_order"] == 1


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize("digits", [4301, 10_000])
def test_a_huge_number_in_the_answer_is_noted_not_raised(tools, surface, digits):
    model_answer = f"您的余额是 {'9' * digits} 元。"
    model = scripted(call("refund_order", {"order_id": "88231"}), model_answer)
    if surface.startswith("middleware"):
        agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(max_retries=0)])
    else:
        agent = create_agent(model, [tools.refund_order]).with_fact_check(max_retries=0)
    if surface == "wrapper-stream":
        out = list(agent.stream(REFUND_Q))
    elif surface.endswith("async") or surface == "wrapper-ainvoke":
        out = asyncio.run(agent.ainvoke(REFUND_Q))
    else:
        out = agent.invoke(REFUND_Q)
    report = get_run_report(out)
    assert report.outcome != "failed"
    assert any(f"up to {digits:,}" in n for n in report.attempts[0].notes)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_an_error_in_a_middleware_retry_carries_the_first_answer(tools, mode):
    model = scripted(call("refund_order", {"order_id": "88231"}), ANSWER)  # nothing scripted for the retry
    agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(max_retries=1)])
    with pytest.raises(RuntimeError) as info:
        agent.invoke(REFUND_Q) if mode == "sync" else asyncio.run(agent.ainvoke(REFUND_Q))
    assert get_run_report(info.value).attempts[0].answer == ANSWER
