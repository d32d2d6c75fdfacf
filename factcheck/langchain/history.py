"""Chat histories that keep each turn's tool chain and load back a sequence a chat API accepts."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.runnables.history import RunnableWithMessageHistory
from langgraph.config import get_config
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

NEW_MESSAGES_KEY = "new_messages"
"""Output key `with_tool_chain_history` adds: the messages the agent added this turn (what gets stored)."""

HistoryFactory = Callable[..., BaseChatMessageHistory]


class ToolChainHistory(BaseChatMessageHistory):
    """Wraps any chat history: stores every message of a turn (the `AIMessage` with `tool_calls` and each
    `ToolMessage` too) once, and loads them back in an order a chat API accepts.

    On load, each `ToolMessage` is put right after the `AIMessage` that called it; a tool result no
    stored call made is left out, and so is a call that has no stored result (an interrupted turn).
    What was left out is listed in `repairs`. Nothing is invented: no call and no result is added.
    """

    def __init__(self, inner: BaseChatMessageHistory) -> None:
        """Wrap a history.

        Args:
            inner: Where the messages are kept (in memory, a file, a database).
        """
        self.inner = inner
        self.repairs: list[str] = []
        """What the last load left out, one line each."""

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The stored messages, as a chat API accepts them (see the class docstring)."""
        replay, self.repairs = replayable(self.inner.messages)
        return replay

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Store messages; one whose id is already stored is not stored twice.

        Args:
            messages: The turn's messages, tool calls and results included.
        """
        stored = {m.id for m in self.inner.messages if m.id}
        new = [m for m in messages if not (m.id and m.id in stored)]
        if new:
            self.inner.add_messages(new)

    def clear(self) -> None:
        """Remove every stored message."""
        self.inner.clear()


def replayable(messages: Sequence[BaseMessage]) -> tuple[list[BaseMessage], list[str]]:
    """Messages in an order a chat API accepts: each tool result right after its call, no orphans.

    Args:
        messages: Stored messages, in the order they were stored.

    Returns:
        The messages to replay, and one line for each thing left out.
    """
    results: dict[str, ToolMessage] = {}
    for m in messages:
        if isinstance(m, ToolMessage) and m.tool_call_id not in results:
            results[m.tool_call_id] = m
    out: list[BaseMessage] = []
    repairs: list[str] = []
    used: set[str] = set()
    for i, m in enumerate(messages):
        if isinstance(m, ToolMessage):
            if results.get(m.tool_call_id) is not m or m.tool_call_id not in used:
                repairs.append(f"message {i}: tool result for call {m.tool_call_id!r}, which no stored call "
                               "made (or a second result for it); left out")
            continue
        if not isinstance(m, AIMessage) or not m.tool_calls:
            out.append(m)
            continue
        answered = [c for c in m.tool_calls if c.get("id") in results and c.get("id") not in used]
        for c in m.tool_calls:
            if c not in answered:
                repairs.append(f"message {i}: call {c.get('id')!r} ({c.get('name')}) has no stored result; "
                               "left out")
        if len(answered) < len(m.tool_calls):
            m = _with_calls(m, answered)
            if m is None:
                continue
        out.append(m)
        for c in answered:
            out.append(results[c["id"]])
            used.add(c["id"])
    return out, repairs


def _with_calls(message: AIMessage, calls: list[dict[str, Any]]) -> AIMessage | None:
    """A copy of the message with only these calls; None when it is left with no calls and no text."""
    if not calls and not message.content:
        return None
    ids = {c["id"] for c in calls}
    extra = dict(message.additional_kwargs)
    if "tool_calls" in extra:
        extra["tool_calls"] = [c for c in extra["tool_calls"] if c.get("id") in ids]
        if not extra["tool_calls"]:
            del extra["tool_calls"]
    return message.model_copy(update={"tool_calls": calls, "additional_kwargs": extra})


def with_tool_chain_history(agent: Runnable, get_session_history: HistoryFactory,
                            **kwargs: Any) -> RunnableWithMessageHistory:
    """`RunnableWithMessageHistory` around a `create_agent` agent that stores each turn's whole tool chain.

    Set up as the agent needs (`input_messages_key="messages"`), it stores the user's message and
    exactly the messages the agent added in the turn (not the earlier ones again, which a plain
    `output_messages_key="messages"` does), through a `ToolChainHistory`.

    Args:
        agent: A runnable that takes and returns `{"messages": [...]}` (a `create_agent` graph).
        get_session_history: As for `RunnableWithMessageHistory`: session id (or configurable
            fields) -> a chat history; it is wrapped in a `ToolChainHistory`.
        **kwargs: Passed on to `RunnableWithMessageHistory` (e.g. `history_factory_config`).

    Returns:
        The runnable; its output is the agent's, with the turn's new messages under `new_messages`.
    """

    @functools.wraps(get_session_history)
    def history(*args: Any, **kw: Any) -> ToolChainHistory:
        found = get_session_history(*args, **kw)
        return found if isinstance(found, ToolChainHistory) else ToolChainHistory(found)

    def run(inputs: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return _with_new(inputs, agent.invoke(inputs, config))

    async def arun(inputs: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return _with_new(inputs, await agent.ainvoke(inputs, config))

    return RunnableWithMessageHistory(
        RunnableLambda(run, afunc=arun, name=agent.get_name()), history,
        input_messages_key="messages", output_messages_key=NEW_MESSAGES_KEY, **kwargs)


def _with_new(inputs: dict[str, Any], output: dict[str, Any]) -> dict[str, Any]:
    """The agent's output with the messages it added after its input."""
    given = inputs.get("messages") or []
    produced = output.get("messages") or []
    known = {m.id for m in produced[: len(given)] if m.id}
    new = [m for m in produced[len(given):] if not (m.id and m.id in known)]
    return {**output, NEW_MESSAGES_KEY: new}


class ChatHistoryMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """The `create_agent` equivalent: loads a session's stored messages before the agent runs, and stores
    the turn (user message, every `AIMessage` with `tool_calls`, every `ToolMessage`) after it.

    The session id is read from `config["configurable"][session_key]`. With a LangGraph checkpointer the
    agent keeps its thread's messages itself; this is for histories kept in your own store.
    """

    def __init__(self, get_session_history: HistoryFactory, session_key: str = "session_id") -> None:
        """Set up the middleware.

        Args:
            get_session_history: Session id -> a chat history (wrapped in a `ToolChainHistory`).
            session_key: The configurable field that holds the session id.
        """
        super().__init__()
        self.get_session_history = get_session_history
        self.session_key = session_key

    def _history(self) -> ToolChainHistory:
        session = get_config().get("configurable", {}).get(self.session_key)
        if session is None:
            raise ValueError(f"ChatHistoryMiddleware needs config['configurable'][{self.session_key!r}]")
        found = self.get_session_history(session)
        return found if isinstance(found, ToolChainHistory) else ToolChainHistory(found)

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Put the stored messages before this turn's input."""
        stored = self._history().messages
        if not stored:
            return None
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *stored, *state["messages"]]}

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Store the turn: the messages after the last stored one (all, on a first turn)."""
        history = self._history()
        messages = state["messages"]
        history.add_messages(messages[_turn_start(messages, len(history.messages)) :])
        return None


def _turn_start(messages: Sequence[BaseMessage], loaded: int) -> int:
    """Where this turn starts: after the replayed history, at the first user message that follows it."""
    for i in range(loaded, len(messages)):
        if isinstance(messages[i], HumanMessage):
            return i
    return loaded
