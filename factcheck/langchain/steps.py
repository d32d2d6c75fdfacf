"""The one prepare -> check -> decide loop of a wrapped run, as steps its sync and async drivers carry out."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.runnables import RunnableConfig

from factcheck.errors import CheckerFailure, FactCheckError
from factcheck.langchain.engine import attach_run
from factcheck.langchain.extract import AnswerLocation
from factcheck.langchain.ledger import RepeatedActionBlocked
from factcheck.langchain.run_report import RunReport
from factcheck.langchain.run_state import RunState


@dataclass(frozen=True)
class RunAttempt:
    """Run (or stream) the wrapped runnable once on `RunState.current`; reply with its output."""

    config: RunnableConfig
    """The attempt's config: the caller's, with the tool ledger (and the repeat guard) attached."""


@dataclass(frozen=True)
class CheckAnswer:
    """Check an answer (as the traced `fact_check` run); reply with its `Report`."""

    answer: str
    """The answer text found in the attempt's output."""
    tool_calls: list[dict[str, Any]]
    """The evidence of all attempts so far."""


@dataclass(frozen=True)
class EmitReport:
    """Dispatch the finished run report as the `fact_check` custom callback event."""

    data: dict[str, Any]
    """The report as JSON data."""


Step = RunAttempt | CheckAnswer | EmitReport
"""What a driver is asked to do next."""


@dataclass(frozen=True)
class Ending:
    """How a run ended, once its report is out: the result to return or the error to raise."""

    state: RunState
    """The run."""
    run: RunReport
    """The finished report."""
    where: AnswerLocation | None
    """Where the answer is in the last checked output."""
    error: FactCheckError | None = None
    """`on_fail="raise"` and the last answer is still flagged: raised by `result`."""
    checker_error: CheckerFailure | None = None
    """The checker failed on the last output (`fail_open` decides what the user gets)."""
    output: Any = None
    """The output the checker failed on."""

    def result(self) -> Any:
        """The last output with the final text and the report put in (`(output, report)` with `return_report`).

        Raises:
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
            CheckerFailure: the checker failed and `fail_open` is off; it carries the
                answer, the report and the output with the fallback in place of the answer.
        """
        if self.checker_error is not None:
            return self.state.unchecked_result(self.output, self.where, self.run, self.checker_error)
        if self.error is not None:
            raise self.error
        return self.state.result(self.run)


class Steps:
    """The steps of one wrapped run, for a driver to carry out one by one.

    Iterate over it; answer each `RunAttempt` and `CheckAnswer` with `send` (or `throw`
    what it raised), or let `answer`/`aanswer` do so; an `EmitReport` needs no answer.
    Once the iteration stops, `ending` says what the run returns or raises. The loop
    (retry bounded by `max_retries`, a blocked repeated action ends it, a checker failure
    ends it unchecked or failed, `on_fail` decides the last flagged answer) lives here
    only; the drivers (`invoke`, `ainvoke`, `stream`, `astream`) do the I/O.
    """

    def __init__(
        self,
        state: RunState,
        config: RunnableConfig,
        run_manager: CallbackManagerForChainRun | AsyncCallbackManagerForChainRun,
        run_name: str | None,
    ) -> None:
        """Start the run's steps.

        Args:
            state: The run.
            config: The caller's config (the wrapper's run's).
            run_manager: The wrapper's run, parent of every attempt.
            run_name: The name of the wrapped runnable's runs, if the caller gave one.
        """
        self._steps = _steps(state, config, run_manager, run_name)
        self._reply: Any = None
        self._error: BaseException | None = None
        self.ending: Ending | None = None
        """How the run ended; set once the iteration stops."""

    def __iter__(self) -> Iterator[Step]:
        return self

    def __next__(self) -> Step:
        reply, error = self._reply, self._error
        self._reply = self._error = None
        try:
            return self._steps.throw(error) if error is not None else self._steps.send(reply)
        except StopIteration as stop:
            self.ending = stop.value
            raise StopIteration from None

    def send(self, reply: Any) -> None:
        """Answer the current step (the attempt's output, the check's report)."""
        self._reply = reply

    def throw(self, error: BaseException) -> None:
        """Answer the current step with what carrying it out raised."""
        self._error = error

    def answer(self, call: Callable[[], Any]) -> None:
        """Answer the current step with what `call()` returns or raises."""
        try:
            self.send(call())
        except Exception as exc:
            self.throw(exc)

    async def aanswer(self, call: Callable[[], Awaitable[Any]]) -> None:
        """Async `answer`."""
        try:
            self.send(await call())
        except Exception as exc:
            self.throw(exc)


def _steps(
    state: RunState,
    config: RunnableConfig,
    run_manager: CallbackManagerForChainRun | AsyncCallbackManagerForChainRun,
    run_name: str | None,
) -> Generator[Step, Any, Ending]:
    while True:
        child = state.attempt_config(config, run_manager, run_name)
        try:
            output = yield RunAttempt(child)
        except RepeatedActionBlocked as exc:
            state.blocked(exc)
            break
        except (RuntimeError, StopIteration) as exc:
            state.reraise(exc)
        except Exception as exc:
            attach_run(exc, state.so_far())
            raise
        where, tool_calls = state.prepare(output)
        try:
            if where is None:
                raise state.no_answer(output)
            report = yield CheckAnswer(where.text, tool_calls)
        except CheckerFailure as exc:
            run = state.checker_failed(where, exc)
            yield EmitReport(run.model_dump(mode="json"))
            return Ending(state, run, where, checker_error=exc, output=output)
        if not state.advance(output, where, report):
            break
    run, error = state.finish()
    yield EmitReport(run.model_dump(mode="json"))
    assert state.last is not None  # finish() needs an attempt, and advance() sets both
    return Ending(state, run, state.last[1], error=error)
