"""Chat histories that keep the tool chain: stored, reloaded and replayed into a real create_agent loop."""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    convert_to_openai_messages,
    messages_from_dict,
    messages_to_dict,
)
from langchain_core.tools import tool
from langgraph.store.memory import InMemoryStore

from factcheck.langchain.history import (
    ChatHistoryMiddleware,
    StoredSession,
    ToolChainHistory,
    replayable,
    with_tool_chain_history,
)

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning")  # the adapters use no deprecated API


def session(name: str = "s") -> StoredSession:
    """A fresh session in a LangGraph in-memory store."""
    return StoredSession(InMemoryStore(), name)

URLS = [f"https://cdn.imgs.test/gen/img_{k}.png" for k in range(1, 5)]
ASKS = ["生成一张战斗机的图片", "再来一张，换成夜景", "再来一张，换成雪地", "再生成两张"]


class FileHistory:
    """A file-backed history of your own: one `messages_to_dict` record per line, read back on every load."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        if not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        return messages_from_dict([json.loads(x) for x in lines])

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            for record in messages_to_dict(list(messages)):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


@tool
def image_generate(prompt: str) -> dict:
    """Generate an image for a prompt."""
    return {"success": True, "images": [URLS[int(prompt[-1]) - 1]]}


def image_script(turns: int = 4) -> list:
    script = []
    for k in range(1, turns + 1):
        script += [call("image_generate", {"prompt": f"图片 {k}"}, f"call_img_{k}"),
                   f"图片已生成！![图片]({URLS[k - 1]})"]
    return script


def api_acceptable(messages: Sequence[BaseMessage]) -> bool:
    """Every tool result right after the call that made it (ids matching), every call answered."""
    pending: list[str] = []
    for m in messages:
        if isinstance(m, ToolMessage):
            if not pending or m.tool_call_id != pending.pop(0):
                return False
            continue
        if pending:
            return False
        if isinstance(m, AIMessage):
            pending = [c["id"] for c in m.tool_calls]
    return not pending


def kinds(messages: Sequence[BaseMessage]) -> list[str]:
    return [("ai+calls" if isinstance(m, AIMessage) and m.tool_calls else m.type) for m in messages]


ONE_TURN = ["human", "ai+calls", "tool", "ai"]


@pytest.fixture(params=["langgraph store", "file"])
def store(request, tmp_path):
    """Session id -> the history it is kept in (a LangGraph store, or files); a new object each time."""
    kept = InMemoryStore()

    def get(session_id: str) -> StoredSession | FileHistory:
        if request.param == "langgraph store":
            return StoredSession(kept, session_id)
        return FileHistory(tmp_path / f"{session_id}.jsonl")  # read from disk

    return get


def test_plain_runnable_with_message_history_stores_earlier_turns_again():
    # what RunnableWithMessageHistory stores for a create_agent agent today (docs/histories.md)
    with warnings.catch_warnings():  # LangChain's own deprecated classes, measured
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_core.chat_history import InMemoryChatMessageHistory
        from langchain_core.runnables.history import RunnableWithMessageHistory

        counts, kept = _plain_rwmh(InMemoryChatMessageHistory, RunnableWithMessageHistory)
    assert counts == [5, 14, 27]  # the chain is kept, but every turn stores the whole conversation again
    assert kinds(kept.messages)[:5] == ["human", "human", "ai+calls", "tool", "ai"]  # the question twice


def _plain_rwmh(history_class, rwmh_class):
    kept = history_class()
    agent = create_agent(scripted(*image_script(3)), [image_generate])
    chat = rwmh_class(agent, lambda _: kept, input_messages_key="messages", output_messages_key="messages")
    counts = []
    for ask in ASKS[:3]:
        chat.invoke({"messages": [HumanMessage(ask)]}, {"configurable": {"session_id": "s"}})
        counts.append(len(kept.messages))
    return counts, kept


def test_three_image_turns_are_stored_reloaded_and_replayed(store):
    model = scripted(*image_script(4))
    chat = with_tool_chain_history(create_agent(model, [image_generate]), store)
    config = {"configurable": {"session_id": "s1"}}
    for ask in ASKS[:3]:
        out = chat.invoke({"messages": [HumanMessage(ask)]}, config)
    assert out["messages"][-1].content.endswith(f"({URLS[2]})")
    reloaded = ToolChainHistory(store("s1")).messages
    assert kinds(reloaded) == ONE_TURN * 3  # each turn once, tool chain included
    assert [m.tool_call_id for m in reloaded if isinstance(m, ToolMessage)] == ["call_img_1", "call_img_2",
                                                                                  "call_img_3"]
    assert api_acceptable(reloaded)
    openai = convert_to_openai_messages(reloaded)
    assert [m["role"] for m in openai[:4]] == ["user", "assistant", "tool", "assistant"]
    assert openai[1]["tool_calls"][0]["id"] == openai[2]["tool_call_id"] == "call_img_1"
    assert json.loads(openai[2]["content"]) == {"success": True, "images": [URLS[0]]}
    chat.invoke({"messages": [HumanMessage(ASKS[3])]}, config)
    replayed = model.seen[-2]  # what the model was sent on the fourth turn, before its call
    assert kinds(replayed) == ONE_TURN * 3 + ["human"]
    assert [c["id"] for m in replayed if isinstance(m, AIMessage) for c in m.tool_calls] == [
        "call_img_1", "call_img_2", "call_img_3"]
    assert len(ToolChainHistory(store("s1")).messages) == 16


def test_create_agent_middleware_stores_and_replays_the_chain(store):
    model = scripted(*image_script(4))
    agent = create_agent(model, [image_generate], middleware=[ChatHistoryMiddleware(store)])
    config = {"configurable": {"session_id": "s2"}}
    for ask in ASKS[:3]:
        agent.invoke({"messages": [HumanMessage(ask)]}, config)
    reloaded = ToolChainHistory(store("s2")).messages
    assert kinds(reloaded) == ONE_TURN * 3 and api_acceptable(reloaded)
    out = agent.invoke({"messages": [HumanMessage(ASKS[3])]}, config)
    assert kinds(model.seen[-2]) == ONE_TURN * 3 + ["human"]
    assert kinds(out["messages"]) == ONE_TURN * 4
    assert kinds(ToolChainHistory(store("s2")).messages) == ONE_TURN * 4


@pytest.mark.parametrize("where", ["middleware", "wrapper"])
def test_sessions_kept_in_the_agents_langgraph_store(where):
    model = scripted(*image_script(3))
    kept = InMemoryStore()
    if where == "middleware":
        chat = create_agent(model, [image_generate], middleware=[ChatHistoryMiddleware()], store=kept)
    else:
        chat = with_tool_chain_history(create_agent(model, [image_generate]), store=kept)
    for ask in ASKS[:3]:
        chat.invoke({"messages": [HumanMessage(ask)]}, {"configurable": {"session_id": "u1"}})
    history = ToolChainHistory(StoredSession(kept, "u1"))
    assert kinds(history.messages) == ONE_TURN * 3 and api_acceptable(history.messages) and not history.repairs
    assert kinds(model.seen[-2]) == ONE_TURN * 2 + ["human"]  # the third turn was sent the first two chains
    assert StoredSession(kept, "u2").messages == []


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: with_tool_chain_history(create_agent(scripted("hi"), [])), "get_session_history or store"),
        (lambda: with_tool_chain_history(create_agent(scripted("hi"), []), lambda _: session(), store=InMemoryStore()),
         "get_session_history or store"),
        (lambda: create_agent(scripted("hi"), [], middleware=[ChatHistoryMiddleware()]).invoke(
            {"messages": [HumanMessage("hello")]}, {"configurable": {"session_id": "s"}}), "store=InMemoryStore"),
    ],
    ids=["neither", "both", "middleware without a store"],
)
def test_where_to_keep_the_sessions_is_said_clearly(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_the_middleware_needs_a_session_id():
    agent = create_agent(scripted("hi"), [], middleware=[ChatHistoryMiddleware(lambda _: session())])
    with pytest.raises(ValueError, match="session_id"):
        agent.invoke({"messages": [HumanMessage("hello")]})


def _ai(*ids: str, text: str = "") -> AIMessage:
    return AIMessage(text, tool_calls=[{"name": "image_generate", "args": {}, "id": i} for i in ids])


def _tool(call_id: str) -> ToolMessage:
    return ToolMessage("{}", tool_call_id=call_id)


REPAIRS = [
    # (stored, replayed kinds, the calls kept, repair fragments)
    ([HumanMessage("q"), _ai("a"), _tool("a"), AIMessage("ok")], ["human", "ai+calls", "tool", "ai"], ["a"], []),
    ([HumanMessage("q"), _tool("ghost"), AIMessage("ok")], ["human", "ai"], [], ["'ghost', which no stored call"]),
    ([HumanMessage("q"), _ai("a"), HumanMessage("again")], ["human", "human"], [], ["'a' (image_generate) has no"]),
    ([_ai("a", "b", text="working"), _tool("b")], ["ai+calls", "tool"], ["b"], ["'a' (image_generate) has no"]),
    ([_ai("a", "b"), _tool("b"), HumanMessage("x"), _tool("a")], ["ai+calls", "tool", "tool", "human"], ["a", "b"],
     []),  # a result stored late is moved next to its call
    ([_ai("a"), _tool("a"), _tool("a")], ["ai+calls", "tool"], ["a"], ["second result"]),
]


@pytest.mark.parametrize("stored, replayed, calls, notes", REPAIRS)
def test_loading_repairs_orphans_without_inventing_anything(stored, replayed, calls, notes):
    out, repairs = replayable(stored)
    assert kinds(out) == replayed
    assert [c["id"] for m in out if isinstance(m, AIMessage) for c in m.tool_calls] == calls
    assert api_acceptable(out)
    assert len(repairs) == len(notes) and all(n in r for n, r in zip(notes, repairs, strict=True))
    assert all(isinstance(m, BaseMessage) for m in out) and len(out) <= len(stored)


def test_a_message_stored_twice_by_id_is_kept_once():
    history = ToolChainHistory(session())
    first = [HumanMessage("q", id="h1"), _ai("a"), _tool("a")]
    first[1].id, first[2].id = "ai1", "t1"
    history.add_messages(first)
    history.add_messages(first + [AIMessage("done", id="ai2")])
    assert kinds(history.messages) == ["human", "ai+calls", "tool", "ai"]


def test_a_stored_history_audits_clean_and_a_fabricated_turn_does_not():
    from factcheck.audit.messages import read_conversation
    from factcheck.audit.turns import audit_conversation
    from factcheck.checker import FactChecker

    kept = session()
    chat = with_tool_chain_history(create_agent(scripted(*image_script(3)), [image_generate]), lambda _: kept)
    for ask in ASKS[:3]:
        chat.invoke({"messages": [HumanMessage(ask)]}, {"configurable": {"session_id": "s"}})
    stored = ToolChainHistory(kept).messages
    fabricated = [*stored, HumanMessage(ASKS[3]), AIMessage("![生成的图片](https://cdn.imgs.test/gen/img_99.png)")]
    checker = FactChecker()
    for messages, flagged in ((stored, []), (fabricated, [13])):
        record = json.loads(json.dumps({"id": "s", "messages": messages_to_dict(messages)}, ensure_ascii=False))
        results = audit_conversation(read_conversation(record, 1), checker)
        assert [r.turn for r in results if not r.ok] == flagged


async def test_both_helpers_store_the_chain_when_awaited():
    kept = {"rwmh": session(), "middleware": session()}
    chat = with_tool_chain_history(create_agent(scripted(*image_script(2)), [image_generate]),
                                   lambda _: kept["rwmh"])
    agent = create_agent(scripted(*image_script(2)), [image_generate],
                         middleware=[ChatHistoryMiddleware(lambda _: kept["middleware"])])
    for ask in ASKS[:2]:
        await chat.ainvoke({"messages": [HumanMessage(ask)]}, {"configurable": {"session_id": "a"}})
        await agent.ainvoke({"messages": [HumanMessage(ask)]}, {"configurable": {"session_id": "a"}})
    assert kinds(ToolChainHistory(kept["rwmh"]).messages) == ONE_TURN * 2
    assert kinds(ToolChainHistory(kept["middleware"]).messages) == ONE_TURN * 2


@pytest.mark.parametrize("fact_check_first", [False, True])
def test_with_the_fact_check_only_the_checked_answer_is_stored(fact_check_first):
    from factcheck.langchain import FactCheckMiddleware, get_run_report

    @tool
    def refund_order(order_id: str) -> str:
        """Refund an order."""
        return f"refund failed: order {order_id} was not refunded"

    kept = session()
    model = scripted(call("refund_order", {"order_id": "88231"}, "call_r1"),
                     "Your refund of $45 for order 88231 has been processed.",
                     "The refund of order 88231 failed; it was not refunded.")
    middleware = [ChatHistoryMiddleware(lambda _: kept), FactCheckMiddleware()]
    agent = create_agent(model, [refund_order], middleware=middleware[::-1] if fact_check_first else middleware)
    out = agent.invoke({"messages": [HumanMessage("refund 88231")]}, {"configurable": {"session_id": "s"}})
    assert get_run_report(out).outcome == "retried"
    stored = ToolChainHistory(kept).messages
    assert kinds(stored) == ["human", "ai+calls", "tool", "ai"] and api_acceptable(stored)
    assert stored[-1].content == "The refund of order 88231 failed; it was not refunded."
    assert not any("$45" in str(m.content) for m in stored)  # neither the flagged answer nor the correction
