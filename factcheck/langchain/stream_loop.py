"""The drivers of fact-checked streams: stream each attempt, check, retry, then end the stream."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.runnables import Runnable, RunnableConfig

from factcheck.errors import CheckerFailure
from factcheck.langchain.release import AsyncReleaseRun, ReleaseRun
from factcheck.langchain.run_state import RunState
from factcheck.langchain.steps import Ending, RunAttempt, Steps
from factcheck.langchain.streaming import StreamAttempt, new_attempt
from factcheck.langchain.tracing import acarry_out, carry_out


def stream_attempts(
    state: RunState,
    bound: Runnable[Any, Any],
    run_manager: CallbackManagerForChainRun,
    config: RunnableConfig,
    run_name: str | None,
    bound_kwargs: dict[str, Any],
) -> Iterator[Any]:
    """Stream each attempt of a fact-checked run, passing on only what may be seen.

    The `Steps` of `RunnableFactCheck._run`, with every attempt streamed through a
    `StreamAttempt` and the released answer text streamed by a `ReleaseRun`.

    Yields:
        The chunks the consumer gets (`(chunk, report)` pairs with `return_report`).

    Raises:
        FactCheckError: `on_fail="raise"` and the last answer is still flagged.
    """
    release = ReleaseRun(run_manager.get_child())
    steps = Steps(state, config, run_manager, run_name)
    done: StreamAttempt | None = None
    for step in steps:
        if not isinstance(step, RunAttempt):
            carry_out(steps, step, state, run_manager, config)
            continue
        attempt = new_attempt(state, bound, bound_kwargs, done.retried() if done else "")
        try:
            for raw in bound.stream(state.current, step.config, **attempt.kwargs):
                chunks = attempt.on_chunk(raw)
                release.emit(state.take_releases())
                yield from state.paired(chunks)
        except Exception as exc:
            steps.throw(exc)
            continue
        done = attempt
        steps.send(attempt.output())
    assert steps.ending is not None and done is not None
    for part in _ending(state, done, steps.ending):
        if part is None:
            release.end(state.take_releases())
        else:
            yield from part


async def astream_attempts(
    state: RunState,
    bound: Runnable[Any, Any],
    run_manager: AsyncCallbackManagerForChainRun,
    config: RunnableConfig,
    run_name: str | None,
    bound_kwargs: dict[str, Any],
) -> AsyncIterator[Any]:
    """Async `stream_attempts`."""
    release = AsyncReleaseRun(run_manager.get_child())
    steps = Steps(state, config, run_manager, run_name)
    done: StreamAttempt | None = None
    for step in steps:
        if not isinstance(step, RunAttempt):
            await acarry_out(steps, step, state, run_manager, config)
            continue
        attempt = new_attempt(state, bound, bound_kwargs, done.retried() if done else "")
        try:
            async for raw in bound.astream(state.current, step.config, **attempt.kwargs):
                chunks = attempt.on_chunk(raw)
                await release.emit(state.take_releases())
                for chunk in state.paired(chunks):
                    yield chunk
        except Exception as exc:
            steps.throw(exc)
            continue
        done = attempt
        steps.send(attempt.output())
    assert steps.ending is not None and done is not None
    for part in _ending(state, done, steps.ending):
        if part is None:
            await release.end(state.take_releases())
        else:
            for chunk in part:
                yield chunk


def _ending(state: RunState, done: StreamAttempt, ending: Ending) -> Iterator[list[Any] | None]:
    """The end of a stream once its report is out: the last chunks, and None where the release run ends.

    The last attempt's closing chunks are released, then the release run ends and the
    chunks pass; with `on_fail="raise"` the error follows them. A checker failing closed
    ends the release run and raises (the error carries the answer and the fallback).
    """
    try:
        final = None if ending.error is not None else state.output_only(ending.result())
    except CheckerFailure:
        yield None
        raise
    chunks = done.finish(final, ending.where, ending.run)
    yield None
    yield state.paired(chunks, ending.run if ending.error is None else None)
    if ending.error is not None:
        raise ending.error
