"""Stream shapes of `.with_fact_check()`: what of each chunk a consumer may see, and when."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.runnables import Runnable
from langchain_core.runnables.base import RunnableBindingBase

from factcheck.langchain.extract import (
    MESSAGES_KEY,
    AnswerLocation,
    find_answer,
    is_correction,
    message_text,
)
from factcheck.langchain.release import SentenceReleaser
from factcheck.langchain.run_report import RunReport
from factcheck.langchain.run_state import RunState

GRAPH_MODES = ("values", "updates", "messages", "custom")
"""LangGraph stream modes the wrapper can stream; others (`debug`, `tasks`,
`checkpoints`) carry the answer in shapes it does not rewrite, so they are refused."""

TOKENS_KWARG = "_factcheck_tokens"
"""Private stream argument: release answer tokens even when `messages` is not asked for."""


def unwrap(runnable: Runnable[Any, Any]) -> Runnable[Any, Any]:
    """The runnable inside `with_config`/`bind` bindings."""
    for _ in range(16):
        if not isinstance(runnable, RunnableBindingBase):
            break
        runnable = runnable.bound
    return runnable


def is_graph(runnable: Runnable[Any, Any]) -> bool:
    """True for a compiled LangGraph graph (a `create_agent` agent included)."""
    try:
        from langgraph.pregel import Pregel
    except ImportError:  # langgraph is optional
        return False
    return isinstance(unwrap(runnable), Pregel)


def new_attempt(
    state: RunState, bound: Runnable[Any, Any], kwargs: dict[str, Any], shown: str
) -> StreamAttempt:
    """The stream attempt fitting the wrapped runnable and the stream arguments.

    Raises:
        ValueError: a stream mode or `version` the wrapper cannot stream safely.
    """
    if is_graph(bound):
        return GraphAttempt(state, kwargs, shown, getattr(unwrap(bound), "stream_mode", "values"))
    if "stream_mode" in kwargs:
        raise ValueError("stream_mode is a LangGraph argument; this runnable is not a graph")
    return TokenAttempt(state, kwargs, shown)


class StreamAttempt:
    """One attempt's stream: the chunks the consumer may see now, and the output to check."""

    def __init__(self, state: RunState, kwargs: dict[str, Any], shown: str) -> None:
        self.state = state
        """The run this attempt belongs to (evidence, options, superseded messages)."""
        self.kwargs = dict(kwargs)
        """Keyword arguments for the wrapped runnable's `stream`."""
        self.shown = shown
        """Verified answer text the consumer already has (earlier attempts included)."""
        self.release = state.options.stream_release

    def releaser(self, evidence_output: Callable[[], Any]) -> SentenceReleaser:
        """A releaser checking text against the run's evidence plus `evidence_output()`'s."""
        return SentenceReleaser(lambda text: self.state.check_now(text, evidence_output()), self.release, self.shown)

    def on_chunk(self, raw: Any) -> list[Any]:
        """What to pass on now of one chunk of the wrapped stream."""
        raise NotImplementedError

    def output(self) -> Any:
        """The attempt's whole output, to check."""
        raise NotImplementedError

    def finish(self, output: Any, where: AnswerLocation | None, run: RunReport) -> list[Any]:
        """The chunks that end the stream once `output` (None after a raise) is final."""
        raise NotImplementedError

    def retried(self) -> str:
        """The attempt is superseded by a retry; returns the verified text shown so far."""
        return self.shown


class TokenAttempt(StreamAttempt):
    """A chain or chat model that streams message chunks or str; other chunks are held."""

    def __init__(self, state: RunState, kwargs: dict[str, Any], shown: str) -> None:
        super().__init__(state, kwargs, shown)
        self.total: Any = None
        self.kind: str | None = None
        self.message_id: str | None = None
        self.text = self.releaser(lambda: None)

    def on_chunk(self, raw: Any) -> list[Any]:
        if self.kind is None:
            self.kind = "message" if isinstance(raw, AIMessageChunk) else (
                "str" if isinstance(raw, str) else "other"
            )
        self.total = _add(self.total, raw)
        if self.kind == "str" and isinstance(raw, str):
            out = self.text.feed(raw)
            self.state.released(out, None)
            return [out] if out else []
        if self.kind == "message" and isinstance(raw, AIMessageChunk):
            self.message_id = self.message_id or raw.id
            out = self.text.feed(message_text(raw))
            self.state.released(out, self.message_id)
            emitted: list[Any] = []
            if raw.tool_call_chunks:
                emitted.append(
                    AIMessageChunk(content=out, id=raw.id, tool_call_chunks=raw.tool_call_chunks)
                )
            elif out:
                emitted.append(AIMessageChunk(content=out, id=raw.id))
            return emitted
        return []

    def output(self) -> Any:
        return self.total

    def finish(self, output: Any, where: AnswerLocation | None, run: RunReport) -> list[Any]:
        if output is None:
            return []
        if self.kind == "str" and isinstance(output, str):
            rest = self.text.finish(output)
            self.state.released(rest, None)
            return [rest]
        if self.kind == "message" and isinstance(output, AIMessage):
            rest = self.text.finish(run.final_text if where is not None else message_text(output))
            self.state.released(rest, self.message_id)
            key = self.state.options.report_key
            return [
                AIMessageChunk(
                    content=rest,
                    id=self.message_id,
                    response_metadata={key: output.response_metadata.get(key)},
                )
            ]
        return [output]

    def retried(self) -> str:
        return self.text.shown


class _Slot:
    """The chunks of one AI message in a graph's `messages` stream."""

    def __init__(self, releaser: SentenceReleaser, meta: Any, ns: tuple[str, ...]) -> None:
        self.releaser = releaser
        self.meta = meta
        self.ns = ns
        self.tool = False
        self.held: list[Any] = []


class GraphAttempt(StreamAttempt):
    """A LangGraph graph: every asked mode, with `values` and `messages` always read.

    `values` gives the state to check and retry from; `messages` gives the answer's
    tokens to release sentence by sentence. Chunks holding the final answer are held
    back and rewritten with the checked answer at the end; corrections and
    superseded answers never pass.
    """

    def __init__(
        self, state: RunState, kwargs: dict[str, Any], shown: str, default_mode: Any
    ) -> None:
        super().__init__(state, kwargs, shown)
        tokens = bool(self.kwargs.pop(TOKENS_KWARG, False))
        if self.kwargs.get("version", "v1") != "v1":
            raise ValueError('fact-checked graph streams support version="v1" only')
        asked = self.kwargs.pop("stream_mode", None) or default_mode
        self.single = isinstance(asked, str)
        self.modes: list[str] = [asked] if isinstance(asked, str) else list(asked)
        bad = [m for m in self.modes if m not in GRAPH_MODES]
        if bad:
            raise ValueError(
                f"stream_mode {bad} is not supported by .with_fact_check() streams "
                f"(use {', '.join(GRAPH_MODES)})"
            )
        self.subgraphs = bool(self.kwargs.get("subgraphs", False))
        # `messages` is read for token release only when tokens are wanted (asked for, or
        # for the event and log streams): reading it makes the graph's models stream
        internal = ["values", "messages"] if "messages" in self.modes or tokens else ["values"]
        self.kwargs["stream_mode"] = list(dict.fromkeys([*self.modes, *internal]))
        self.last_state: Any = None
        self.held_values = False
        self.held_updates: list[tuple[tuple[str, ...], Any]] = []
        self.slots: dict[str, _Slot] = {}

    def _emit(self, ns: tuple[str, ...], mode: str, payload: Any) -> list[Any]:
        if mode not in self.modes:
            return []
        if self.subgraphs:
            return [(ns, payload) if self.single else (ns, mode, payload)]
        return [payload if self.single else (mode, payload)]

    def on_chunk(self, raw: Any) -> list[Any]:
        if self.subgraphs:
            ns, mode, payload = raw
        else:
            (mode, payload), ns = raw, ()
        ns = tuple(ns)
        if mode == "values":
            return self._values(ns, payload)
        if mode == "updates":
            if _update_holds_answer(payload):
                self.held_updates.append((ns, payload))
                return []
            return self._emit(ns, mode, payload)
        if mode == "messages":
            return self._message(ns, payload)
        return self._emit(ns, mode, payload)

    def _values(self, ns: tuple[str, ...], payload: Any) -> list[Any]:
        if ns:
            return self._emit(ns, "values", payload)
        self.last_state = payload
        pruned = self.state.pruned(payload)
        if _state_holds_answer(pruned, self.state.options.answer_key):
            self.held_values = True
            return []
        return self._emit(ns, "values", pruned)

    def _message(self, ns: tuple[str, ...], payload: Any) -> list[Any]:
        message, meta = payload
        if is_correction(message) or getattr(message, "id", None) in self.state.superseded:
            return []
        if not isinstance(message, AIMessage) or message.id is None:
            return self._emit(ns, "messages", payload)
        slot = self.slots.get(message.id)
        if slot is None:
            slot = self.slots[message.id] = _Slot(self.releaser(lambda: self.last_state), meta, ns)
        if slot.tool:
            return self._emit(ns, "messages", payload)
        if message.tool_calls or getattr(message, "tool_call_chunks", None):
            slot.tool = True
            held, slot.held = slot.held, []
            return [c for h in [*held, payload] for c in self._emit(ns, "messages", h)]
        slot.held.append(payload)
        out = slot.releaser.feed(message_text(message))
        self.state.released(out, message.id)
        if not out:
            return []
        return self._emit(ns, "messages", (AIMessageChunk(content=out, id=message.id), meta))

    def output(self) -> Any:
        return self.last_state

    def _answer_id(self, output: Any, where: AnswerLocation | None) -> str | None:
        if where is None or where.kind != "state":
            return None
        return output[MESSAGES_KEY][where.index].id

    def retried(self) -> str:
        where = find_answer(self.last_state, self.state.options.answer_key)
        slot = self.slots.get(self._answer_id(self.last_state, where) or "")
        return slot.releaser.shown if slot is not None else self.shown

    def finish(self, output: Any, where: AnswerLocation | None, run: RunReport) -> list[Any]:
        out: list[Any] = []
        answer_id = self._answer_id(self.last_state, where)
        checked = None
        if output is not None and where is not None and where.kind == "state":
            checked = next((m for m in output[MESSAGES_KEY] if m.id == answer_id), None)
            if checked is None:  # pruned output: the answer is the last AI message
                checked = next(
                    (m for m in reversed(output[MESSAGES_KEY]) if isinstance(m, AIMessage)), None
                )
        for message_id, slot in self.slots.items():
            if slot.tool or message_id in self.state.superseded:
                continue
            if message_id != answer_id:  # not the answer (a subgraph's reply): as streamed
                out += [c for h in slot.held for c in self._emit(slot.ns, "messages", h)]
                continue
            if output is None:
                continue
            rest = slot.releaser.finish(run.final_text if checked is not None else where.text)
            self.state.released(rest, message_id)
            meta = checked.response_metadata if checked is not None else {}
            chunk = AIMessageChunk(content=rest, id=message_id, response_metadata=dict(meta))
            out += self._emit(slot.ns, "messages", (chunk, slot.meta))
        if output is None:
            return out
        for ns, update in self.held_updates:
            out += self._emit(ns, "updates", _replace_answer(update, answer_id, checked))
        if self.held_values:
            out += self._emit((), "values", output)
        return out


def _add(total: Any, chunk: Any) -> Any:
    if total is None:
        return chunk
    try:
        return total + chunk
    except TypeError:
        return chunk


def _final_ai(messages: Any) -> bool:
    if not isinstance(messages, Sequence) or isinstance(messages, str) or not messages:
        return False
    last = messages[-1]
    return isinstance(last, AIMessage) and not last.tool_calls and not is_correction(last)


def _state_holds_answer(state: Any, answer_key: str | None) -> bool:
    if not isinstance(state, Mapping):
        return False
    where = find_answer(state, answer_key)
    if where is None:
        return False
    if where.kind == "state":
        return _final_ai(state.get(MESSAGES_KEY))
    return True


def _update_holds_answer(payload: Any) -> bool:
    if not isinstance(payload, Mapping):
        return False
    for update in payload.values():
        if not isinstance(update, Mapping):
            continue
        messages = update.get(MESSAGES_KEY)
        if isinstance(messages, BaseMessage):
            messages = [messages]
        if isinstance(messages, Sequence) and any(
            isinstance(m, AIMessage) and not m.tool_calls and message_text(m) for m in messages
        ):
            return True
    return False


def _replace_answer(payload: Any, answer_id: str | None, checked: AIMessage | None) -> Any:
    if checked is None:
        return payload
    out = {}
    for node, update in payload.items():
        if isinstance(update, Mapping) and isinstance(update.get(MESSAGES_KEY), (list, BaseMessage)):
            messages = update[MESSAGES_KEY]
            messages = [messages] if isinstance(messages, BaseMessage) else messages
            update = {
                **update,
                MESSAGES_KEY: [checked if m.id == answer_id else m for m in messages],
            }
        out[node] = update
    return out
