"""Unknown tools are actions: a retry (or a model repeating itself) never runs a tool twice unless it is a read."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from typing import Any

import pytest
from conftest import ScriptedChatModel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool

from factcheck.guard import ToolPolicy
from factcheck.langchain import FactCheckMiddleware, ToolGuardMiddleware

READ_VERBS = ("get", "list", "search", "find", "lookup", "check", "read", "fetch", "query", "view", "show")
"""The documented default reads (a subset of the lexicon's `read_only_tool_prefixes`)."""
ISSUE_ACTIONS = (
    "transfer_funds", "place_order", "refund_order", "wire_money", "execute_trade", "create_invoice",
    "submit_ticket", "grant_access", "post_tweet", "drop_table", "add_user", "void_transaction",
    "run_migration",
)
GOOD = "Order 88231 totals 42 dollars."
BAD = "Order 88231 totals 97 dollars."

_word = st.from_regex(r"[a-z]{2,9}", fullmatch=True)
tool_names = st.one_of(
    st.sampled_from(ISSUE_ACTIONS),
    st.builds(lambda verb, noun: f"{verb}_{noun}", st.sampled_from(READ_VERBS), _word),
    st.builds(lambda a, b: f"{a}_{b}", _word, _word),
)


class Counted:
    """One real tool under a given name, counting its executions."""

    def __init__(self, name: str) -> None:
        self.count: Counter[str] = Counter()
        self._lock = threading.Lock()

        def body(order_id: str) -> dict[str, Any]:
            with self._lock:
                self.count[name] += 1
            return {"order_id": order_id, "total": 42}

        self.tool = StructuredTool.from_function(body, name=name, description="Does one thing.")


def responder(name: str, first_flagged: bool):
    """Call the tool on every user or correction message, then answer (flagged first if asked)."""

    def reply(messages: list[BaseMessage]) -> AIMessage:
        answers = sum(1 for m in messages if isinstance(m, AIMessage) and not m.tool_calls)
        if not isinstance(messages[-1], ToolMessage):
            n = sum(1 for m in messages if isinstance(m, HumanMessage))
            return AIMessage("", tool_calls=[{"name": name, "args": {"order_id": "88231"}, "id": f"c{n}"}])
        return AIMessage(BAD if first_flagged and answers == 0 else GOOD)

    return reply


def declared_read(name: str, declare: str) -> bool:
    return declare != "none" or name.split("_")[0] in READ_VERBS


def _guard(name: str, declare: str, guard: str) -> list[ToolGuardMiddleware]:
    """The tool guard: none, or one with no policies (declaring a read by `read_tools`), or a
    `ToolPolicy(read=True)` declaring it, which only the guard is told of."""
    if declare == "policy":
        return [ToolGuardMiddleware({name: ToolPolicy(read=True)})]
    return [ToolGuardMiddleware(read_tools=[name] if declare == "read_tools" else [])] if guard == "guard" else []


def _run(surface: str, mode: str, name: str, first_flagged: bool, declare: str = "none",
         guard: str = "no-guard") -> Counted:
    counted = Counted(name)
    model = ScriptedChatModel(responder=responder(name, first_flagged))
    question = {"messages": [HumanMessage("What does order 88231 total?")]}
    read_tools = (name,) if declare == "read_tools" else ()
    guards = _guard(name, declare, guard)
    if surface == "middleware":
        mw = FactCheckMiddleware(max_retries=2, read_tools=read_tools, min_confidence=0)  # every flag retries
        runnable = create_agent(model, [counted.tool], middleware=[*guards, mw])
    else:
        runnable = create_agent(model, [counted.tool], middleware=guards).with_fact_check(
            max_retries=2, read_tools=read_tools, min_confidence=0
        )
    if mode == "sync":
        runnable.invoke(question)
    else:
        asyncio.run(runnable.ainvoke(question))
    return counted


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=tool_names, first_flagged=st.booleans(), declare=st.sampled_from(["none", "read_tools", "policy"]),
       guard=st.sampled_from(["no-guard", "guard"]))
def test_no_side_effect_runs_twice(surface, mode, name, first_flagged, declare, guard):
    counted = _run(surface, mode, name, first_flagged, declare, guard)
    if not declared_read(name, declare):
        assert counted.count[name] == 1
    elif first_flagged:
        assert counted.count[name] == 2  # a declared read is re-run by the retry
    else:
        assert counted.count[name] == 1


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
@pytest.mark.parametrize("guard", ["no-guard", "guard"])
@pytest.mark.parametrize("name", ISSUE_ACTIONS)
def test_issue_tools_run_once_after_a_flagged_answer(surface, mode, name, guard):
    assert _run(surface, mode, name, True, guard=guard).count[name] == 1


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
@pytest.mark.parametrize(("declare", "runs"), [("policy", 2), ("none", 1)])
def test_a_read_declared_by_a_tool_policy_is_rerun_by_the_fact_check_retry(surface, mode, declare, runs):
    assert _run(surface, mode, "order_status", True, declare, "guard").count["order_status"] == runs
