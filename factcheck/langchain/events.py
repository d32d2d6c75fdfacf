"""Event and log streams of `.with_fact_check()`: only checked text and tool activity pass."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from langchain_core.tracers.log_stream import RunLog, RunLogPatch

from factcheck.langchain.release import RELEASE_RUN_NAME

PASSED_KINDS = ("tool", "retriever")
"""Run types inside the wrapper whose events and log entries pass unchanged."""


def _passes(event: dict[str, Any]) -> bool:
    kind = event["event"]
    if kind == "on_custom_event":
        return True
    if kind.startswith(("on_tool_", "on_retriever_")):
        return True
    return event.get("name") == RELEASE_RUN_NAME


async def checked_events(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """Filter `astream_events(version="v2")` of a fact-checked run.

    The wrapper's own events (the first run) carry checked chunks and pass. Inside it
    tool, retriever and custom events pass, and so do the `fact_check_release` run's
    `on_chat_model_stream` events, which carry the released answer text. Every other
    event is withheld: model token events hold unchecked text, and the start and end
    events of chains and models hold the unchecked answer in their inputs or outputs
    (on a retry, the flagged answer and the correction too).

    Args:
        events: The events of the wrapper's `astream_events`.

    Yields:
        The events a consumer may see, in order.
    """
    root: str | None = None
    async for event in events:
        if root is None:
            root = event["run_id"]
        if event["run_id"] == root or _passes(event):
            yield event


async def checked_log(patches: AsyncIterator[RunLogPatch], *, diff: bool) -> AsyncIterator[Any]:
    """Filter `astream_log` patches of a fact-checked run like `checked_events`.

    The root's `streamed_output` and `final_output` pass, and so do the log entries
    of tool and retriever runs and of the `fact_check_release` run.

    Args:
        patches: The wrapper's `astream_log(diff=True)` patches.
        diff: Yield patches (True) or the accumulated `RunLog` (False).

    Yields:
        `RunLogPatch`es or `RunLog`s without the withheld entries.
    """
    kept: set[str] = set()
    state: RunLog | None = None
    async for patch in patches:
        ops = []
        for op in patch.ops:
            path = op["path"]
            if not path.startswith("/logs/"):
                ops.append(op)
                continue
            name = path.split("/")[2]
            if path.count("/") == 2 and op["op"] == "add":
                entry = op["value"]
                if entry.get("type") in PASSED_KINDS or entry.get("name") == RELEASE_RUN_NAME:
                    kept.add(name)
            if name in kept:
                ops.append(op)
        if not ops:
            continue
        out = RunLogPatch(*ops)
        if diff:
            yield out
        else:
            state = RunLog(state=None) + out if state is None else state + out
            yield state
