"""The attempt loops of fact-checked streams: stream, check, retry, then end the stream."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.runnables import Runnable, RunnableConfig

from factcheck.errors import CheckerFailure
from factcheck.langchain.engine import CHECK_RUN_NAME, attach_run
from factcheck.langchain.ledger import RepeatedActionBlocked
from factcheck.langchain.release import AsyncReleaseRun, ReleaseRun
from factcheck.langchain.run_state import RunState
from factcheck.langchain.streaming import new_attempt
from factcheck.langchain.tracing import atraced_check, traced_check


def stream_attempts(
    state: RunState,
    bound: Runnable[Any, Any],
    run_manager: CallbackManagerForChainRun,
    config: RunnableConfig,
    run_name: str | None,
    bound_kwargs: dict[str, Any],
) -> Iterator[Any]:
    """Stream each attempt of a fact-checked run, passing on only what may be seen.

    The loop of `RunnableFactCheck._run`, with every attempt streamed through a
    `StreamAttempt` and the released answer text streamed by a `ReleaseRun`.

    Yields:
        The chunks the consumer gets (`(chunk, report)` pairs with `return_report`).

    Raises:
        FactCheckError: `on_fail="raise"` and the last answer is still flagged.
    """
    release = ReleaseRun(run_manager.get_child())
    shown, done = "", None
    while True:
        child = state.attempt_config(config, run_manager, run_name)
        attempt = new_attempt(state, bound, bound_kwargs, shown)
        try:
            for raw in bound.stream(state.current, child, **attempt.kwargs):
                chunks = attempt.on_chunk(raw)
                release.emit(state.take_releases())
                yield from state.paired(chunks)
        except RepeatedActionBlocked as exc:
            state.blocked(exc)
            break
        except (RuntimeError, StopIteration) as exc:
            state.reraise(exc)
        except Exception as exc:
            attach_run(exc, state.so_far())
            raise
        done = attempt
        output = attempt.output()
        where, tool_calls = state.prepare(output)
        try:
            if where is None:
                raise state.no_answer(output)
            report = traced_check(state, run_manager, where.text, tool_calls)
        except CheckerFailure as exc:
            run = state.checker_failed(where, exc)
            dispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
            release.end(state.take_releases())
            chunks = attempt.finish(state.unchecked_result(output, where, run, exc), where, run)
            yield from state.paired(chunks, run)
            return
        if not state.advance(output, where, report):
            break
        shown = attempt.retried()
    run, error = state.finish()
    dispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
    assert done is not None and state.last is not None
    final = None if error is not None else state.output_only(state.result(run))
    chunks = done.finish(final, state.last[1], run)
    release.end(state.take_releases())
    yield from state.paired(chunks, run if error is None else None)
    if error is not None:
        raise error

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
    shown, done = "", None
    while True:
        child = state.attempt_config(config, run_manager, run_name)
        attempt = new_attempt(state, bound, bound_kwargs, shown)
        try:
            async for raw in bound.astream(state.current, child, **attempt.kwargs):
                chunks = attempt.on_chunk(raw)
                await release.emit(state.take_releases())
                for chunk in state.paired(chunks):
                    yield chunk
        except RepeatedActionBlocked as exc:
            state.blocked(exc)
            break
        except (RuntimeError, StopIteration) as exc:
            state.reraise(exc)
        except Exception as exc:
            attach_run(exc, state.so_far())
            raise
        done = attempt
        output = attempt.output()
        where, tool_calls = state.prepare(output)
        try:
            if where is None:
                raise state.no_answer(output)
            report = await atraced_check(state, run_manager, where.text, tool_calls)
        except CheckerFailure as exc:
            run = state.checker_failed(where, exc)
            await adispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
            await release.end(state.take_releases())
            chunks = attempt.finish(state.unchecked_result(output, where, run, exc), where, run)
            for chunk in state.paired(chunks, run):
                yield chunk
            return
        if not state.advance(output, where, report):
            break
        shown = attempt.retried()
    run, error = state.finish()
    await adispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
    assert done is not None and state.last is not None
    final = None if error is not None else state.output_only(state.result(run))
    chunks = done.finish(final, state.last[1], run)
    await release.end(state.take_releases())
    for chunk in state.paired(chunks, run if error is None else None):
        yield chunk
    if error is not None:
        raise error
