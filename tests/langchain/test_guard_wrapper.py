"""The guard and `.with_fact_check()` together: reads are not actions, once-only across retries."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain_core.tools import tool

from factcheck.guard import ToolPolicy
from factcheck.langchain import ToolGuardMiddleware, get_run_report
from factcheck.langchain.engine import FactCheckOptions

QUESTION = {"messages": [("user", "订单 88231 的退款是多少？")]}


def refund_tools(ran: Counter) -> list:
    @tool
    def get_refund(order_id: str) -> dict:
        """Read an order's refund."""
        ran["get_refund"] += 1
        return {"order_id": order_id, "refund_amount": 45, "status": "已退款"}

    @tool
    def issue_refund(order_id: str) -> dict:
        """Refund an order."""
        ran["issue_refund"] += 1
        return {"order_id": order_id, "refund_amount": 45, "status": "已退款"}

    return [get_refund, issue_refund]


@pytest.mark.parametrize(
    ("name", "is_action"),
    [
        ("get_refund", False),
        ("check_refund_status", False),
        ("getRefund", False),
        ("list_orders", False),
        ("refund_order", True),
        ("issue_refund", True),
        ("delete_orders", True),
        ("send_email", True),
        ("checkout_refund", True),  # checkout is no check_
        ("getaway_booking", True),  # getaway is no get
    ],
)
def test_read_only_prefixes_make_a_tool_a_read(name: str, is_action: bool) -> None:
    assert FactCheckOptions().is_action(name) is is_action


def test_a_retry_may_read_get_refund_again() -> None:
    ran: Counter = Counter()
    model = scripted(
        call("get_refund", {"order_id": "88231"}, "r1"),
        "订单 88231 已退款 54 元。",
        call("get_refund", {"order_id": "88231"}, "r2"),
        "订单 88231 已退款 45 元。",
    )
    out = create_agent(model, refund_tools(ran)).with_fact_check().invoke(QUESTION)
    report = get_run_report(out)
    assert ran["get_refund"] == 2
    assert report.outcome == "retried" and not any("was not run again" in n for n in report.notes)


@pytest.mark.parametrize("block_repeated_actions", [True, False])
def test_a_once_tool_runs_once_across_wrapper_retries_and_the_report_says_so(block_repeated_actions: bool) -> None:
    ran: Counter = Counter()
    model = scripted(
        call("issue_refund", {"order_id": "88231"}, "i1"),
        "订单 88231 已退款 54 元。",
        call("issue_refund", {"order_id": "88231"}, "i2"),
        "订单 88231 已退款 45 元。",
    )
    guard = ToolGuardMiddleware({"issue_refund": ToolPolicy(once=True)})
    agent = create_agent(model, refund_tools(ran), middleware=[guard])
    out = agent.with_fact_check(block_repeated_actions=block_repeated_actions).invoke(QUESTION)
    report = get_run_report(out)
    assert ran["issue_refund"] == 1
    assert report.outcome == "retried"
    assert [e["event"] for e in report.tool_guard] == ["repeat"]
