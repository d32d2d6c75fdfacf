"""Chat histories that keep each turn's tool chain (in a LangGraph store) and load back what a chat API accepts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
    convert_to_messages,
    messages_from_dict,
    messages_to_dict,
)
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langgraph.config import get_config
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

NEW_MESSAGES_KEY = "new_messages"
"""Output key `with_tool_chain_history` adds: the messages the agent added this turn (what gets stored)."""

NAMESPACE = ("factcheck", "chat_history")
"""Namespace of the sessions kept in a LangGraph store (one item per session, under the session id)."""

HistoryFactory = Callable[[str], BaseChatMessageHistory]
"""Session id -> a chat history of your own (a `BaseChatMessageHistory`, or anything with `messages`,
`add_messages` and `clear`)."""


class StoredSession:
    """One session's messages in a LangGraph store (`InMemoryStore`, `PostgresStore`, ...), in stored order."""

    def __init__(self, store: BaseStore, session_id: str, namespace: tuple[str, ...] = NAMESPACE) -> None:
        """Point at a session.

        Args:
            store: The LangGraph store (the one given to `create_agent(..., store=...)`, or any).
            session_id: The session.
            namespace: Where the sessions are kept in the store.
        """
        self.store = store
        self.key = (namespace, str(session_id))

    @property
    def messages(self) -> list[BaseMessage]:
        """The stored messages, as stored."""
        item = self.store.get(*self.key)
        return messages_from_dict(item.value["messages"]) if item is not None else []

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append messages to the session."""
        item = self.store.get(*self.key)
        kept = item.value["messages"] if item is not None else []
        self.store.put(*self.key, {"messages": [*kept, *messages_to_dict(list(messages))]})

    def clear(self) -> None:
        """Remove the session."""
        self.store.delete(*self.key)


class ToolChainHistory(BaseChatMessageHistory):
    """Wraps a session (a `StoredSession` in a LangGraph store, or a chat history of your own): stores every
    message of a turn (the `AIMessage` with `tool_calls` and each `ToolMessage` too) once, and loads them
    back in an order a chat API accepts.

    On load, each `ToolMessage` is put right after the `AIMessage` that called it; a tool result no
    stored call made is left out, and so is a call that has no stored result (an interrupted turn).
    What was left out is listed in `repairs`. Nothing is invented: no call and no result is added.
    """

    def __init__(self, inner: StoredSession | BaseChatMessageHistory) -> None:
        """Wrap a history.

        Args:
            inner: Where the messages are kept: a `StoredSession`, or any object with `messages`,
                `add_messages` and `clear` (a file, a database table).
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


def with_tool_chain_history(agent: Runnable, get_session_history: HistoryFactory | None = None, *,
                            store: BaseStore | None = None, session_key: str = "session_id") -> Runnable:
    """A `create_agent` agent that loads a session's history before each turn and stores the turn after it.

    The session id is read from `config["configurable"][session_key]`. The turn stored is the user's
    message and exactly the messages the agent added (its `AIMessage`s with `tool_calls`, its
    `ToolMessage`s, its answer), each once, through a `ToolChainHistory`; what is loaded is replayable.

    Args:
        agent: A runnable that takes and returns `{"messages": [...]}` (a `create_agent` graph).
        get_session_history: Session id -> a chat history of your own; or give `store`.
        store: A LangGraph store that keeps the sessions (under `NAMESPACE`).
        session_key: The configurable field that holds the session id.

    Returns:
        The runnable; its output is the agent's, with the turn's new messages under `new_messages`.

    Raises:
        ValueError: neither or both of `get_session_history` and `store` given.
    """
    if (get_session_history is None) == (store is None):
        raise ValueError("with_tool_chain_history needs get_session_history or store (one of them)")
    session = _SessionOpener(get_session_history, store, session_key)

    def turn(inputs: dict[str, Any], config: RunnableConfig) -> tuple[ToolChainHistory, list[BaseMessage], dict]:
        history = session.open(config)
        given = convert_to_messages(inputs.get("messages") or [])
        return history, given, {**inputs, "messages": [*history.messages, *given]}

    def run(inputs: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        history, given, full = turn(inputs, config)
        return _stored(history, given, full, agent.invoke(full, config))

    async def arun(inputs: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        history, given, full = turn(inputs, config)
        return _stored(history, given, full, await agent.ainvoke(full, config))

    return RunnableLambda(run, afunc=arun, name=agent.get_name())


class _SessionOpener:
    """Opens the `ToolChainHistory` of the session a config names."""

    def __init__(self, factory: HistoryFactory | None, store: BaseStore | None, session_key: str) -> None:
        self.factory = factory
        self.store = store
        self.session_key = session_key

    def open(self, config: RunnableConfig, store: BaseStore | None = None) -> ToolChainHistory:
        session = (config.get("configurable") or {}).get(self.session_key)
        if session is None:
            raise ValueError(f"the chat history needs config['configurable'][{self.session_key!r}]")
        if self.factory is not None:
            found = self.factory(session)
        elif (store := self.store or store) is not None:
            found = StoredSession(store, session)
        else:
            raise ValueError("ChatHistoryMiddleware without get_session_history keeps the sessions in the "
                             "agent's LangGraph store: create_agent(..., store=InMemoryStore())")
        return found if isinstance(found, ToolChainHistory) else ToolChainHistory(found)


def _stored(history: ToolChainHistory, given: list[BaseMessage], full: dict[str, Any],
            output: dict[str, Any]) -> dict[str, Any]:
    """Store the turn (the user's messages and what the agent added) and return the output with `new_messages`."""
    output = _with_new(full, output)
    history.add_messages([*given, *output[NEW_MESSAGES_KEY]])
    return output


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

    The session id is read from `config["configurable"][session_key]`. Without `get_session_history`, the
    sessions are kept in the agent's LangGraph store (`create_agent(..., store=...)`). With a LangGraph
    checkpointer the agent keeps its thread's messages itself; this is for sessions that outlive a thread,
    or histories kept in your own store.
    """

    def __init__(self, get_session_history: HistoryFactory | None = None, session_key: str = "session_id") -> None:
        """Set up the middleware.

        Args:
            get_session_history: Session id -> a chat history of your own (wrapped in a `ToolChainHistory`);
                None keeps the sessions in the agent's LangGraph store.
            session_key: The configurable field that holds the session id.
        """
        super().__init__()
        self.get_session_history = get_session_history
        self.session_key = session_key
        self._sessions = _SessionOpener(get_session_history, None, session_key)

    def _history(self, runtime: Runtime[Any]) -> ToolChainHistory:
        return self._sessions.open(get_config(), getattr(runtime, "store", None))

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Put the stored messages before this turn's input."""
        stored = self._history(runtime).messages
        if not stored:
            return None
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *stored, *state["messages"]]}

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Store the turn: the messages after the last stored one (all, on a first turn)."""
        history = self._history(runtime)
        messages = state["messages"]
        history.add_messages(messages[_turn_start(messages, len(history.messages)) :])
        return None


def _turn_start(messages: Sequence[BaseMessage], loaded: int) -> int:
    """Where this turn starts: after the replayed history, at the first user message that follows it."""
    for i in range(loaded, len(messages)):
        if isinstance(messages[i], HumanMessage):
            return i
    return loaded
