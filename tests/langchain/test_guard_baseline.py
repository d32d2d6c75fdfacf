"""What LangChain v1 does by itself at the tool boundary (the measurements docs/guard.md starts from).

These tests pin the behaviour `ToolGuardMiddleware` composes with instead of rebuilding; if a
LangChain release changes it, they fail and docs/guard.md needs a new look.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain.agents.middleware import (
    HumanInTheLoopMiddleware,
    ToolCallLimitMiddleware,
    ToolErrorMiddleware,
    ToolRetryMiddleware,
)
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

RAN: list[str] = []


@tool
def query_user(user_id: int, fields: list[str]) -> dict:
    """Look up a user."""
    RAN.append("query_user")
    return {"user_id": user_id, "name": "Ann Lee"}


@tool
def charge_card(amount: float) -> str:
    """Charge the card."""
    RAN.append("charge_card")
    raise RuntimeError("payment backend down")


TOOLS = [query_user, charge_card]


@pytest.fixture(autouse=True)
def _clear() -> None:
    RAN.clear()


def last_tool_message(result: dict) -> ToolMessage:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)][-1]


@pytest.mark.parametrize(
    ("tool_call", "middleware", "status", "text", "ran"),
    [
        (("delete_all", {}), [], "error", "Error: delete_all is not a valid tool, try one of [query_user, charge_card]",
         []),
        (("query_user", {"user_id": "the user from yesterday", "fields": []}), [], "error",
         "Please fix the error and try again", []),
        (("query_user", {"user_id": 7, "fields": [], "colour": "red"}), [], "success", "Ann Lee", ["query_user"]),
        (("charge_card", {"amount": 5}), [ToolErrorMiddleware(lambda exc, request: type(exc).__name__)], "error",
         "RuntimeError", ["charge_card"]),
        (("charge_card", {"amount": 5}), [ToolRetryMiddleware(max_retries=1, initial_delay=0, jitter=False)], "error",
         "failed after 2 attempts", ["charge_card", "charge_card"]),
    ],
    ids=["unknown-tool", "schema-invalid", "invented-field-dropped", "tool-error-middleware", "tool-retry-middleware"],
)
def test_create_agent_answers_at_the_boundary(
    tool_call: tuple, middleware: list, status: str, text: str, ran: list[str]
) -> None:
    agent = create_agent(scripted(call(*tool_call), "done"), TOOLS, middleware=middleware)
    message = last_tool_message(agent.invoke({"messages": [("user", "go")]}))
    assert message.status == status and text in message.content
    assert RAN == ran


def test_a_raising_tool_crashes_the_run_without_error_middleware() -> None:
    agent = create_agent(scripted(call("charge_card", {"amount": 5}), "done"), TOOLS)
    with pytest.raises(RuntimeError, match="payment backend down"):
        agent.invoke({"messages": [("user", "go")]})


def test_tool_call_limit_blocks_the_call_over_the_limit() -> None:
    script = [call("query_user", {"user_id": n, "fields": []}, f"c{n}") for n in (1, 2)]
    agent = create_agent(scripted(*script, "done"), TOOLS,
                         middleware=[ToolCallLimitMiddleware(tool_name="query_user", run_limit=1)])
    message = last_tool_message(agent.invoke({"messages": [("user", "go")]}))
    assert message.status == "error" and "limit exceeded" in message.content and RAN == ["query_user"]


def test_hitl_without_a_checkpointer_stops_at_an_interrupt_nobody_can_resume() -> None:
    agent = create_agent(scripted(call("query_user", {"user_id": 1, "fields": []}), "done"), TOOLS,
                         middleware=[HumanInTheLoopMiddleware({"query_user": True})])
    result = agent.invoke({"messages": [("user", "go")]})
    assert result["__interrupt__"] and RAN == []


@pytest.mark.parametrize(
    ("decision", "status", "text", "ran"),
    [
        ({"type": "approve"}, "success", "Ann Lee", ["query_user"]),
        ({"type": "reject"}, "error", "User rejected the tool call", []),
        ({"type": "edit", "edited_action": {"name": "query_user", "args": {"user_id": "abc", "fields": []}}},
         "error", "valid integer", []),
    ],
    ids=["approve", "reject", "edit-invalid-args"],
)
def test_hitl_decisions(decision: dict[str, Any], status: str, text: str, ran: list[str]) -> None:
    agent = create_agent(scripted(call("query_user", {"user_id": 1, "fields": []}), "done"), TOOLS,
                         middleware=[HumanInTheLoopMiddleware({"query_user": True})], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [("user", "go")]}, config)
    message = last_tool_message(agent.invoke(Command(resume={"decisions": [decision]}), config))
    assert message.status == status and text in message.content and RAN == ran
