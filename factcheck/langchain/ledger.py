"""Callback handlers that record the tool runs of a wrapped run and guard repeated actions."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage, ToolMessage

from factcheck.grounding.records import documents_as_values
from factcheck.langchain.extract import message_text, tool_message_value

ToolStatus = Literal["ok", "error", "pending"]
"""`ok`, `error` or `pending` (started, never ended)."""

_DECLARED: ContextVar[tuple[str, bool] | None] = ContextVar("factcheck_declared_read", default=None)


@contextmanager
def declared_read(name: str, read: bool | None) -> Iterator[None]:
    """While a tool call runs, tell the ledger and the repeat guard what `ToolGuardMiddleware`
    declares the tool: a read (True), an action (False); None declares nothing.

    The callbacks of the tool's run see it: they run in the context of the call.

    Args:
        name: Tool name.
        read: The declaration (a `ToolPolicy(read=...)`, or the guard's `read_tools`).
    """
    if read is None:
        yield
        return
    token = _DECLARED.set((name, read))
    try:
        yield
    finally:
        _DECLARED.reset(token)


def declaration(name: str) -> bool | None:
    """What the tool guard declares the tool whose call is running now: True for a read,
    False for an action, None when it declares nothing (its name decides)."""
    found = _DECLARED.get()
    return found[1] if found is not None and found[0] == name else None


class RepeatedActionBlocked(RuntimeError):
    """Raised inside a retry when it tries to run an action tool that already ran.

    The guard raises it from `on_tool_start`, before the tool body runs, so the
    action is never performed twice. The wrapper catches it and stops retrying.
    """

    def __init__(self, tool_name: str) -> None:
        super().__init__(
            f"fact-check guard: {tool_name!r} already ran successfully in this run "
            "and was not run again"
        )
        self.tool_name = tool_name
        """Name of the tool whose second run was blocked."""


@dataclass
class ToolRun:
    """One tool run seen through callbacks."""

    run_id: UUID
    """Callback run id; start, end and error events are paired by it."""
    parent_run_id: UUID | None
    """Run id of the run that started this tool (an agent node, another tool, ...)."""
    seq: int
    """Start order within the ledger."""
    attempt: int
    """Attempt of the wrapped runnable during which the tool started."""
    name: str
    """Tool name."""
    args: Any
    """Structured inputs when the tool got a dict, else the input string."""
    tool_call_id: str | None = None
    """Id of the model's tool call, when the tool was invoked with one."""
    status: ToolStatus = "pending"
    """`pending` until the run ends; then `ok` or `error`."""
    output: Any = None
    """What the tool returned (message content for `ToolMessage`s), or the error text."""
    retrieval: bool = False
    """A retriever's run: it only reads, so a retry may run it again."""
    read: bool | None = None
    """What the tool guard declared the tool (`declared_read`): a read, an action, or None."""

    def acts(self, is_action: Callable[[str], bool]) -> bool:
        """Whether the run may have performed an action: the guard's declaration, else `is_action`."""
        if self.retrieval:
            return False
        return not self.read if self.read is not None else is_action(self.name)

    def as_tool_call(self) -> dict[str, Any]:
        """The run as a checker `tool_calls` mapping."""
        return {"name": self.name, "args": self.args, "output": self.output, "status": self.status}


class ToolLedger(BaseCallbackHandler):
    """Records every tool run of a wrapped run: the system's own record of what executed.

    Attach it to the config of the wrapped runnable with `inherit=True` so nested
    runs (tools inside tools, sub-agents) report to it too. Only runs that ended
    without error count as executed. Thread-safe: parallel tool calls report to it
    from worker threads.
    """

    run_inline = True
    raise_error = False

    def __init__(self) -> None:
        super().__init__()
        self.runs: dict[UUID, ToolRun] = {}
        """Runs by run id, in start order."""
        self.attempt = 0
        """Attempt number stamped on runs that start from now on."""
        self._lock = threading.Lock()

    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Record a tool run as pending."""
        name = kwargs.get("name") or (serialized or {}).get("name") or "tool"
        with self._lock:
            self.runs[run_id] = ToolRun(
                run_id=run_id,
                parent_run_id=parent_run_id,
                seq=len(self.runs),
                attempt=self.attempt,
                name=str(name),
                args=inputs if inputs is not None else input_str,
                tool_call_id=kwargs.get("tool_call_id"),
                read=declaration(str(name)),
            )

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Mark a run as ended; a `ToolMessage` with status `error` counts as an error."""
        status = "ok"
        tool_call_id = None
        if isinstance(output, ToolMessage):
            status = "error" if output.status == "error" else "ok"
            tool_call_id = output.tool_call_id
            output = tool_message_value(output)
        else:
            output = plain_value(output)
        with self._lock:
            run = self.runs.get(run_id)
            if run is None:
                return
            run.status, run.output = status, output
            run.tool_call_id = run.tool_call_id or tool_call_id

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Mark a run as failed: it does not count as executed."""
        with self._lock:
            run = self.runs.get(run_id)
            if run is None:
                return
            run.status, run.output = "error", f"{type(error).__name__}: {error}"
            run.tool_call_id = run.tool_call_id or kwargs.get("tool_call_id")

    def on_retriever_start(
        self, serialized: dict[str, Any] | None, query: str, *, run_id: UUID,
        parent_run_id: UUID | None = None, **kwargs: Any,
    ) -> None:
        """Record a retriever run as pending: what it retrieves is evidence, named after it.

        Its query is no evidence: it is the user's or the model's text (on a retry, the correction's too).
        """
        name = kwargs.get("name") or (serialized or {}).get("name") or "retriever"
        with self._lock:
            self.runs[run_id] = ToolRun(
                run_id=run_id, parent_run_id=parent_run_id, seq=len(self.runs),
                attempt=self.attempt, name=str(name), args={}, retrieval=True,
            )

    def on_retriever_end(self, documents: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Record the retrieved documents (their `page_content` and `metadata`) as the run's output."""
        self.on_tool_end(documents, run_id=run_id)

    def on_retriever_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Mark a retriever run as failed."""
        self.on_tool_error(error, run_id=run_id)

    def completed(self) -> list[ToolRun]:
        """Runs that ended (with or without error), in start order."""
        with self._lock:
            return [r for r in self.runs.values() if r.status != "pending"]

    def executed(self) -> list[ToolRun]:
        """Runs that ended without error: the actions that really happened."""
        return [r for r in self.completed() if r.status == "ok"]


class _BlockedRepeatFilter(logging.Filter):
    """Drops LangChain's "Error in RepeatGuard.on_tool_start callback" warning.

    `handle_event` (langchain_core/callbacks/manager.py) logs every exception a handler
    raises before re-raising it; a blocked repeat is the guard doing its job, reported in
    the run report's notes, not an error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not (len(args) >= 3 and args[0] == "RepeatGuard" and "RepeatedActionBlocked" in str(args[2]))


logging.getLogger("langchain_core.callbacks.manager").addFilter(_BlockedRepeatFilter())


class RepeatGuard(BaseCallbackHandler):
    """Stops a retry from running an action tool that an earlier attempt already ran.

    It raises `RepeatedActionBlocked` from `on_tool_start`, which LangChain calls
    before the tool body, so the guarded tool never executes a second time. Tools
    that ran only in the current attempt, failed, or are reads (declared so by
    `ToolGuardMiddleware`, else by `is_action`) pass.
    """

    run_inline = True
    raise_error = True

    def __init__(self, ledger: ToolLedger, is_action: Callable[[str], bool]) -> None:
        super().__init__()
        self.ledger = ledger
        """Where executed runs are looked up; its `attempt` is the current attempt."""
        self.is_action = is_action
        """Whether a tool name performs an action (publish, refund, send, ...)."""

    def on_tool_start(
        self, serialized: dict[str, Any] | None, input_str: str, **kwargs: Any
    ) -> None:
        """Raise when an action tool executed by an earlier attempt is about to run again."""
        name = str(kwargs.get("name") or (serialized or {}).get("name") or "")
        declared = declaration(name)
        if not name or (declared if declared is not None else not self.is_action(name)):
            return
        current = self.ledger.attempt
        if any(r.name == name and r.attempt < current for r in self.ledger.executed()):
            raise RepeatedActionBlocked(name)


def plain_value(value: Any) -> Any:
    """Make a tool output something the checker can read (str, dict, list, scalar); documents as values."""
    documents = documents_as_values(value)
    if documents is not value:
        return documents
    if value is None or isinstance(value, (str, int, float, bool, dict, list)):
        return value
    if isinstance(value, BaseMessage):
        return message_text(value)
    if hasattr(value, "model_dump"):
        try:
            return value.model_dump(mode="json")
        except Exception:
            return str(value)
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)
