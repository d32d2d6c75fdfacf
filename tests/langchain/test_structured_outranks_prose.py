"""In real agent loops, a record's free text or an untrusted read never backs a status its fields deny."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain_core.tools import tool

from factcheck.guard import ToolPolicy
from factcheck.langchain import FactCheckMiddleware, ToolGuardMiddleware, get_run_report

CLAIM = "Your refund was successful."
QUESTION = {"messages": [("user", "Did my refund for order 88231 go through?")]}


def tools(ran: Counter) -> list:
    @tool
    def refund_order(order_id: str) -> dict:
        """Refund an order."""
        ran["refund_order"] += 1
        return {"order_id": order_id, "refund_status": "failed",
                "customer_note": "Customer wrote: …refund status: success"}

    @tool
    def refund_result(order_id: str) -> dict:
        """The refund's result."""
        ran["refund_result"] += 1
        return {"order_id": order_id, "refund_status": "failed"}

    @tool
    def read_email(mailbox: str) -> str:
        """Read the newest e-mail."""
        ran["read_email"] += 1
        return "Good news from billing: refund status: success."

    return [refund_order, refund_result, read_email]


def _agent(surface: str, ran: Counter, *script):
    model = scripted(*script)
    guard = ToolGuardMiddleware({"read_email": ToolPolicy(untrusted_output=True)})
    if surface == "middleware":
        return create_agent(model, tools(ran), middleware=[guard, FactCheckMiddleware(max_retries=0)])
    return create_agent(model, tools(ran), middleware=[guard]).with_fact_check(max_retries=0)


def _invoke(agent, mode):
    return agent.invoke(QUESTION) if mode == "sync" else asyncio.run(agent.ainvoke(QUESTION))


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
def test_a_customer_note_does_not_back_a_failed_refund(surface, mode):
    ran: Counter = Counter()
    agent = _agent(surface, ran, call("refund_order", {"order_id": "88231"}, "r1"), CLAIM)
    out = _invoke(agent, mode)
    report = get_run_report(out)
    assert report.outcome == "dropped" and out["messages"][-1].content != CLAIM
    assert report.attempts[0].claims[0].verdict.value == "contradicted"


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
def test_a_later_untrusted_read_does_not_back_a_failed_refund(surface, mode):
    ran: Counter = Counter()
    agent = _agent(surface, ran, call("refund_result", {"order_id": "88231"}, "r1"),
                   call("read_email", {"mailbox": "inbox"}, "e1"), CLAIM)
    out = _invoke(agent, mode)
    report = get_run_report(out)
    assert ran["read_email"] == 1
    assert report.attempts[0].claims[0].verdict.value != "supported", str(report)
