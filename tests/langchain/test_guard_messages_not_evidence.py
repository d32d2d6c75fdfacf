"""The guard's own refusals and repeat notices are never read as tool outputs by the checker."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest
from conftest import scripted
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from factcheck.guard import ToolPolicy
from factcheck.langchain import FactCheckMiddleware, ToolGuardMiddleware, get_run_report

QUESTION = {"messages": [("user", "Please refund order 88231.")]}
TRUE_ANSWER = "Your refund for order 88231 was successful."


def refund_tool(ran: Counter):
    @tool
    def refund(order_id: str) -> dict:
        """Refund an order."""
        ran["refund"] += 1
        return {"order_id": order_id, "refund_status": "success"}

    return refund


def twin_calls() -> AIMessage:
    args = {"order_id": "88231"}
    return AIMessage("", tool_calls=[{"name": "refund", "args": args, "id": "t1"},
                                     {"name": "refund", "args": args, "id": "t2"}])


def _agent(surface: str, ran: Counter):
    model = scripted(twin_calls(), TRUE_ANSWER, TRUE_ANSWER)
    guard = ToolGuardMiddleware({"refund": ToolPolicy(once=True)})
    if surface == "middleware":
        return create_agent(model, [refund_tool(ran)], middleware=[guard, FactCheckMiddleware()])
    return create_agent(model, [refund_tool(ran)], middleware=[guard]).with_fact_check()


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
def test_a_twin_call_notice_does_not_contradict_the_true_answer(surface, mode, caplog):
    ran: Counter = Counter()
    agent = _agent(surface, ran)
    with caplog.at_level(logging.WARNING):
        out = agent.invoke(QUESTION) if mode == "sync" else asyncio.run(agent.ainvoke(QUESTION))
    report = get_run_report(out)
    assert ran["refund"] == 1
    assert report.outcome == "passed", str(report)
    assert out["messages"][-1].content == TRUE_ANSWER
    assert any(e.get("event") == "repeat" for e in report.tool_guard)
    assert not any("callback" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_blocked_repeat_is_a_note_not_a_logged_callback_error(mode, caplog):
    ran: Counter = Counter()
    call = {"name": "refund", "args": {"order_id": "88231"}}
    model = scripted(
        AIMessage("", tool_calls=[{**call, "id": "r1"}]),
        "Your refund for order 88231 failed.",  # contradicted: the refund succeeded
        AIMessage("", tool_calls=[{**call, "id": "r2"}]),  # the retry tries to refund again
    )
    agent = create_agent(model, [refund_tool(ran)]).with_fact_check(max_retries=1, min_confidence=0)  # every flag
    with caplog.at_level(logging.WARNING):
        out = agent.invoke(QUESTION) if mode == "sync" else asyncio.run(agent.ainvoke(QUESTION))
    assert ran["refund"] == 1
    report = get_run_report(out)
    assert any("was not run again" in n for n in report.notes)
    assert not any("callback" in r.getMessage() for r in caplog.records)
