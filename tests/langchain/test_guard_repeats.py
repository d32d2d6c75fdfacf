"""ToolGuardMiddleware's default repeat guard: a tool that is not a read never runs twice with the same arguments."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, RemoveMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.prebuilt.tool_node import ToolRuntime
from langgraph.types import Command

from factcheck.guard import ToolPolicy, idempotency_key
from factcheck.langchain import FactCheckMiddleware, ToolGuardMiddleware, get_run_report
from factcheck.langchain.extract import evidence_calls, tool_calls_from_output
from factcheck.langchain.guard_middleware import RAN_KEY

BOB = {"to": "Bob", "amount": 100}
TRUE_ANSWER = "Your transfer of 100 dollars to Bob was successful."


def bank(ran: Counter) -> list:
    """Real tools counting their executions: actions, reads by name, and names that need a declaration."""

    @tool
    def transfer_funds(to: str, amount: int, runtime: ToolRuntime) -> dict:
        """Transfer money."""
        ran["transfer_funds"] += 1
        ran[runtime.config["metadata"].get("idempotency_key")] += 1
        return {"to": to, "amount": amount, "transfer_status": "success"}

    @tool
    def get_balance(account: str) -> dict:
        """Read an account's balance."""
        ran["get_balance"] += 1
        return {"account": account, "balance": 900}

    @tool
    def order_status(order_id: str) -> dict:
        """Read an order's status (a read the name does not tell)."""
        ran["order_status"] += 1
        return {"order_id": order_id, "status": "shipped"}

    @tool
    def check_in_guest(room: str) -> dict:
        """Check a guest in (an action whose name starts with a read verb)."""
        ran["check_in_guest"] += 1
        return {"room": room, "checked_in": True}

    return [transfer_funds, get_balance, order_status, check_in_guest]


def twice(name: str, args: dict, ids: tuple[str, str] = ("a", "b")) -> AIMessage:
    """One model message calling the same tool twice."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": i} for i in ids])


def _invoke(mode: str, agent: Any, text: str, config: Any = None) -> Any:
    value = {"messages": [("user", text)]}
    return agent.invoke(value, config) if mode == "sync" else asyncio.run(agent.ainvoke(value, config))


def _agent(ran: Counter, *replies: Any, guard: ToolGuardMiddleware | None = None, checkpointer: Any = None) -> Any:
    middleware = [guard or ToolGuardMiddleware(), FactCheckMiddleware(max_retries=0)]
    return create_agent(scripted(*replies), bank(ran), middleware=middleware, checkpointer=checkpointer)


def _tool_messages(result: dict) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


READS_AND_ACTIONS = [
    # (tool, args, the guard's arguments, runs of two identical calls)
    ("transfer_funds", BOB, {}, 1),  # no policy: an action, guarded by default
    ("get_balance", {"account": "A1"}, {}, 2),  # the lexicon's read verb
    ("order_status", {"order_id": "7"}, {}, 1),  # undeclared: an action
    ("order_status", {"order_id": "7"}, {"policies": {"order_status": ToolPolicy(read=True)}}, 2),
    ("order_status", {"order_id": "7"}, {"read_tools": ["order_status"]}, 2),
    ("check_in_guest", {"room": "12"}, {}, 2),  # its name reads as a read
    ("check_in_guest", {"room": "12"}, {"policies": {"check_in_guest": ToolPolicy(read=False)}}, 1),
    ("transfer_funds", BOB, {"repeat_guard": False}, 2),  # opted out
    ("transfer_funds", BOB, {"policies": {"transfer_funds": ToolPolicy(repeatable=True)}}, 2),
    ("transfer_funds", BOB, {"policies": {"transfer_funds": ToolPolicy(limits={"amount": (0, 500)})}}, 1),
]
IDS = [f"{t}-{i}" for i, (t, *_rest) in enumerate(READS_AND_ACTIONS)]


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(("name", "args", "guard", "runs"), READS_AND_ACTIONS, ids=IDS)
def test_the_same_call_twice_in_one_message(mode, name, args, guard, runs):
    ran: Counter = Counter()
    result = _invoke(mode, _agent(ran, twice(name, args), "Done.", guard=ToolGuardMiddleware(**guard)), "go")
    assert ran[name] == runs
    if runs == 1:
        twin = next(m for m in _tool_messages(result) if m.tool_call_id == "b")
        assert twin.content.startswith("Not run again") and "call a" in twin.content


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(("name", "args", "guard", "runs"), READS_AND_ACTIONS, ids=IDS)
def test_the_same_call_in_two_steps(mode, name, args, guard, runs):
    ran: Counter = Counter()
    agent = _agent(ran, call(name, args, "s1"), call(name, args, "s2"), "Done.", guard=ToolGuardMiddleware(**guard))
    result = _invoke(mode, agent, "go")
    assert ran[name] == runs
    first, second = _tool_messages(result)
    if runs == 1:
        assert second.content.startswith("Not run again") and first.content in second.content
        assert second.status == "success"  # the model reads the first result, as if it had run
    else:
        assert "Not run again" not in second.content


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("forget_messages", [False, True], ids=["history-kept", "history-removed"])
def test_the_same_call_in_a_later_turn_of_a_checkpointed_thread(mode, forget_messages):
    ran: Counter = Counter()
    agent = _agent(ran, call("transfer_funds", BOB, "t1"), TRUE_ANSWER,
                   call("transfer_funds", BOB, "t2"), TRUE_ANSWER, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": f"bank-{mode}-{forget_messages}"}}
    _invoke(mode, agent, "send Bob 100 dollars", config)
    key = idempotency_key("transfer_funds", BOB)
    assert key in agent.get_state(config).values[RAN_KEY]  # the ledger is in checkpointed state
    if forget_messages:  # the ledger, not the old messages, remembers what ran
        agent.update_state(config, {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES)]})
    result = _invoke(mode, agent, "send Bob 100 dollars", config)
    assert ran["transfer_funds"] == 1
    repeat = _tool_messages(result)[-1]
    assert repeat.tool_call_id == "t2" and repeat.content.startswith("Not run again")
    assert "transfer_status" in repeat.content and "in this conversation (the tool guard runs an action once" in (
        repeat.content
    )


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_person_is_not_asked_about_a_repeat_that_will_not_run(mode):
    ran: Counter = Counter()
    guard = ToolGuardMiddleware({"transfer_funds": ToolPolicy(confirm=True)})
    agent = _agent(ran, call("transfer_funds", BOB, "t1"), TRUE_ANSWER,
                   call("transfer_funds", BOB, "t2"), TRUE_ANSWER, guard=guard, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": f"review-{mode}"}}
    assert "__interrupt__" in _invoke(mode, agent, "send Bob 100 dollars", config)
    resume = Command(resume={"decisions": [{"type": "approve"}]})
    agent.invoke(resume, config) if mode == "sync" else asyncio.run(agent.ainvoke(resume, config))
    result = _invoke(mode, agent, "send Bob 100 dollars", config)
    assert "__interrupt__" not in result and ran["transfer_funds"] == 1
    assert _tool_messages(result)[-1].content.startswith("Not run again")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_clearing_the_ledger_lets_a_wanted_repeat_run(mode):
    ran: Counter = Counter()
    agent = _agent(ran, call("transfer_funds", BOB, "t1"), TRUE_ANSWER,
                   call("transfer_funds", BOB, "t2"), TRUE_ANSWER, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": f"again-{mode}"}}
    _invoke(mode, agent, "send Bob 100 dollars", config)
    agent.update_state(config, {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES)], RAN_KEY: {}})
    _invoke(mode, agent, "send Bob another 100 dollars", config)
    assert ran["transfer_funds"] == 2


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_failed_call_may_run_again(mode):
    ran: Counter = Counter()

    @tool
    def wire_money(to: str) -> str:
        """Wire money."""
        ran["wire_money"] += 1
        if ran["wire_money"] == 1:
            raise RuntimeError("bank offline")
        return f"wired to {to}"

    guard = ToolGuardMiddleware({"wire_money": ToolPolicy()})  # a policy contains the error
    agent = create_agent(scripted(call("wire_money", {"to": "Bob"}, "w1"), call("wire_money", {"to": "Bob"}, "w2"),
                                  "Wired to Bob."), [wire_money], middleware=[guard])
    result = _invoke(mode, agent, "wire Bob")
    assert ran["wire_money"] == 2
    assert [m.status for m in _tool_messages(result)] == ["error", "success"]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_the_idempotency_key_reaches_a_tool_without_a_policy(mode):
    ran: Counter = Counter()
    _invoke(mode, _agent(ran, call("transfer_funds", BOB, "t1"), TRUE_ANSWER), "send Bob 100 dollars")
    assert ran[idempotency_key("transfer_funds", BOB)] == 1


def _true_answer_agent(surface: str, ran: Counter, *replies: Any) -> Any:
    model = scripted(*replies, TRUE_ANSWER, TRUE_ANSWER)
    if surface == "middleware":
        return create_agent(model, bank(ran), middleware=[ToolGuardMiddleware(), FactCheckMiddleware()])
    return create_agent(model, bank(ran), middleware=[ToolGuardMiddleware()]).with_fact_check()


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("surface", ["wrapper", "middleware"])
@pytest.mark.parametrize(
    "replies",
    [[twice("transfer_funds", BOB)], [call("transfer_funds", BOB, "s1"), call("transfer_funds", BOB, "s2")]],
    ids=["one-message", "two-steps"],
)
def test_a_repeat_notice_does_not_flag_a_true_answer(mode, surface, replies):
    ran: Counter = Counter()
    out = _invoke(mode, _true_answer_agent(surface, ran, *replies), "send Bob 100 dollars")
    report = get_run_report(out)
    assert ran["transfer_funds"] == 1
    assert report.outcome == "passed", str(report)
    assert out["messages"][-1].content == TRUE_ANSWER
    notices = [c for c in tool_calls_from_output(out) if c.repeat]
    assert len(notices) == 1 and len(evidence_calls(tool_calls_from_output(out))) == 1
    assert [e["event"] for e in report.tool_guard] == ["repeat"]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_the_thread_ledger_keeps_only_calls_that_run_once(mode):
    ran: Counter = Counter()
    guard = ToolGuardMiddleware({"get_balance": ToolPolicy(limits={"account": 8})})  # a read with a policy
    agent = _agent(ran, call("get_balance", {"account": "A1"}, "g1"), call("transfer_funds", BOB, "t1"), "Done.",
                   guard=guard, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": f"ledger-{mode}"}}
    _invoke(mode, agent, "balance, then send Bob 100 dollars", config)
    assert list(agent.get_state(config).values[RAN_KEY]) == [idempotency_key("transfer_funds", BOB)]
