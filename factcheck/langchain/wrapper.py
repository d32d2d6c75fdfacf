"""`RunnableFactCheck` and `with_fact_check`: check any Runnable's answer against its tool runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, NoReturn
from uuid import uuid4

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.language_models import BaseLanguageModel
from langchain_core.runnables import Runnable, RunnableConfig, RunnableSerializable
from langchain_core.runnables.base import RunnableBindingBase
from langchain_core.runnables.config import ensure_config, patch_config
from langchain_core.runnables.utils import ConfigurableFieldSpec
from pydantic import BaseModel, ConfigDict

from factcheck.errors import CheckerFailure, FactCheckError
from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import (
    CHECK_RUN_NAME,
    FactCheckOptions,
    attach_run,
    enabled_from_env,
    failed_closed,
    finish,
    out_of_answers,
    run_check,
    unchecked,
)
from factcheck.langchain.extract import (
    MESSAGES_KEY,
    RUN_METADATA_KEY,
    AnswerLocation,
    OutputToolCall,
    context_from_input,
    find_answer,
    is_correction,
    put_answer,
    retry_input,
    tool_calls_from_output,
)
from factcheck.langchain.ledger import RepeatedActionBlocked, RepeatGuard, ToolLedger, plain_value
from factcheck.langchain.run_report import RunReport
from factcheck.langchain.stream_loop import astream_attempts, stream_attempts
from factcheck.langchain.streaming import TOKENS_KWARG, is_graph
from factcheck.langchain.tracing import atraced_check, traced_check
from factcheck.report import Report


class RunnableFactCheck(RunnableSerializable[Any, Any]):
    """A Runnable that runs another one and checks its final answer against its tool runs.

    Every entry point (invoke, ainvoke, batch, abatch, stream, astream, and the
    event/log streams) goes through the check. Streams pass answer text on only once
    it is checked, sentence by sentence (see `stream`). The output keeps its type; the
    `RunReport` travels in it (see `FactCheckOptions.report_key`), in the
    `fact_check` callback event, and in `(output, report)` with `return_report`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    bound: Runnable[Any, Any]
    """The runnable whose answers are checked."""
    options: FactCheckOptions
    """How to check, retry and downgrade."""
    name: str | None = "FactCheck"
    """Name of the wrapper's own traced run."""

    @property
    def InputType(self) -> Any:  # noqa: N802 - Runnable API
        """The wrapped runnable's input type."""
        return self.bound.InputType

    @property
    def OutputType(self) -> Any:  # noqa: N802 - Runnable API
        """The wrapped runnable's output type (a pair with `return_report`)."""
        if self.options.return_report:
            return tuple[self.bound.OutputType, RunReport]
        return self.bound.OutputType

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        """The wrapped runnable's input schema."""
        return self.bound.get_input_schema(config)

    def get_output_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        """The wrapped runnable's output schema (the base one with `return_report`)."""
        if self.options.return_report:
            return super().get_output_schema(config)
        return self.bound.get_output_schema(config)

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """The wrapped runnable's configurable fields."""
        return self.bound.config_specs

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Run the wrapped runnable, check its answer, retry or downgrade as configured.

        Args:
            input: The wrapped runnable's input.
            config: Passed on to the wrapped runnable (callbacks, tags, metadata and
                `run_name` included); the wrapper and each check are traced runs.
            **kwargs: Passed on to the wrapped runnable's `invoke`.

        Returns:
            The output, of the wrapped runnable's type, or `(output, RunReport)`.

        Raises:
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
            UnbackedActionError: the same, when a flagged claim is an unbacked action.
            CheckerFailure: the checker failed and `fail_open` is off.
        """
        if not enabled_from_env():
            return self._pass_through(self.bound.invoke(input, config, **kwargs))
        config, run_name = _split_run_name(config)
        return self._call_with_config(
            self._run, input, config, run_name=run_name, bound_kwargs=kwargs
        )

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Async `invoke`."""
        if not enabled_from_env():
            return self._pass_through(await self.bound.ainvoke(input, config, **kwargs))
        config, run_name = _split_run_name(config)
        return await self._acall_with_config(
            self._arun, input, config, run_name=run_name, bound_kwargs=kwargs
        )

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Any]:
        """Stream the wrapped runnable, letting answer text through only once it is checked.

        With `stream_release="sentence"` (default) each sentence of the answer is passed
        on once it is complete and grounded in the tool results the run already holds;
        a flagged sentence holds back everything after it until the retries and
        `on_fail` decide. Tool-call chunks, tool messages and custom events pass as they
        come. Graphs stream in every `stream_mode` of `values`, `updates`, `messages`
        and `custom` (a list of them too, and `subgraphs=True`); chunks that hold the
        answer are passed on rewritten with the checked answer and the report.

        Args:
            input: The wrapped runnable's input.
            config: Passed on to the wrapped runnable.
            **kwargs: Passed on to the wrapped runnable's `stream` (`stream_mode`, ...).

        Yields:
            The wrapped runnable's chunk types; `(chunk, None)` pairs and a last
            `(chunk_or_None, RunReport)` with `return_report`.

        Raises:
            ValueError: a LangGraph `stream_mode` other than the four above.
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
        """
        if not enabled_from_env():
            for chunk in self.bound.stream(input, config, **kwargs):
                yield (chunk, None) if self.options.return_report else chunk
            return
        config, run_name = _split_run_name(config)
        yield from self._transform_stream_with_config(
            iter([input]), self._stream_run, config, run_name=run_name, bound_kwargs=kwargs
        )

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """Async `stream`."""
        if not enabled_from_env():
            async for chunk in self.bound.astream(input, config, **kwargs):
                yield (chunk, None) if self.options.return_report else chunk
            return
        config, run_name = _split_run_name(config)
        async for chunk in self._atransform_stream_with_config(
            _one(input), self._astream_run, config, run_name=run_name, bound_kwargs=kwargs
        ):
            yield chunk

    async def astream_events(self, input: Any, config: RunnableConfig | None = None,
                             **kwargs: Any) -> AsyncIterator[Any]:
        """Events of the checked stream (see `factcheck.langchain.events`).

        The wrapper's own run streams its checked chunks; of the runs inside it, tool
        and custom events pass, model text is passed as `on_chat_model_stream` events
        only once released, and other events (whose inputs and outputs hold the
        unchecked answer, or on retries the flagged one) are withheld.
        """
        from factcheck.langchain.events import checked_events

        kwargs = self._whole_states(kwargs)
        async for event in checked_events(super().astream_events(input, config, **kwargs)):
            yield event

    async def astream_log(self, input: Any, config: RunnableConfig | None = None,
                          *, diff: bool = True, **kwargs: Any) -> AsyncIterator[Any]:
        """Log patches of the checked stream: the wrapper's own output and tool runs only."""
        from factcheck.langchain.events import checked_log

        patches = super().astream_log(input, config, diff=True, **self._whole_states(kwargs))
        async for item in checked_log(patches, diff=diff):
            yield item

    def _whole_states(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Stream a graph's whole states by default, so the run's output is its last state."""
        if not is_graph(self.bound):
            return kwargs
        return {"stream_mode": "values", **kwargs, TOKENS_KWARG: True}

    # batch and abatch are Runnable's: they call invoke / ainvoke once per input,
    # with max_concurrency, so every item is checked on its own ledger.

    def _stream_run(
        self,
        inputs: Iterator[Any],
        run_manager: CallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> Iterator[Any]:
        state = _RunState(self, next(iter(inputs)))
        yield from stream_attempts(state, self.bound, run_manager, config, run_name, bound_kwargs)

    async def _astream_run(
        self,
        inputs: AsyncIterator[Any],
        run_manager: AsyncCallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> AsyncIterator[Any]:
        state = _RunState(self, await anext(aiter(inputs)))
        async for chunk in astream_attempts(
            state, self.bound, run_manager, config, run_name, bound_kwargs
        ):
            yield chunk

    def _pass_through(self, output: Any) -> Any:
        return (output, None) if self.options.return_report else output

    def _run(
        self,
        input: Any,
        run_manager: CallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> Any:
        state = _RunState(self, input)
        while True:
            child = state.attempt_config(config, run_manager, run_name)
            try:
                output = self.bound.invoke(state.current, child, **bound_kwargs)
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
                report = traced_check(state, run_manager, where.text, tool_calls)
            except CheckerFailure as exc:
                run = state.checker_failed(where, exc)
                dispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
                return state.unchecked_result(output, where, run, exc)
            if not state.advance(output, where, report):
                break
        run, error = state.finish()
        dispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
        if error is not None:
            raise error
        return state.result(run)

    async def _arun(
        self,
        input: Any,
        run_manager: AsyncCallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> Any:
        state = _RunState(self, input)
        while True:
            child = state.attempt_config(config, run_manager, run_name)
            try:
                output = await self.bound.ainvoke(state.current, child, **bound_kwargs)
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
                report = await atraced_check(state, run_manager, where.text, tool_calls)
            except CheckerFailure as exc:
                run = state.checker_failed(where, exc)
                data = run.model_dump(mode="json")
                await adispatch_custom_event(CHECK_RUN_NAME, data, config=config)
                return state.unchecked_result(output, where, run, exc)
            if not state.advance(output, where, report):
                break
        run, error = state.finish()
        await adispatch_custom_event(CHECK_RUN_NAME, run.model_dump(mode="json"), config=config)
        if error is not None:
            raise error
        return state.result(run)



class _RunState:
    """The attempts of one wrapped run: ledger, evidence, retry inputs, final output."""

    def __init__(self, wrapper: RunnableFactCheck, input: Any) -> None:
        self.options = wrapper.options
        self.accepts_messages = _accepts_messages(wrapper.bound)
        self.original = input
        self.current = input
        self.context = context_from_input(input)
        self.max_retries = self.options.resolved_max_retries()
        self.ledger = ToolLedger()
        self.guard = (
            RepeatGuard(self.ledger, self.options.is_action)
            if self.options.block_repeated_actions
            else None
        )
        self.attempt = -1
        self.attempts: list[Report] = []
        self.corrections: list[str] = []
        self.notes: list[str] = []
        self.seen_outputs: list[OutputToolCall] = []
        self.last: tuple[Any, AnswerLocation] | None = None
        self.superseded: set[str] = set()
        self.releases: list[tuple[str, str | None]] = []
        self.run_key = uuid4().hex

    def attempt_config(
        self,
        config: RunnableConfig,
        run_manager: CallbackManagerForChainRun | AsyncCallbackManagerForChainRun,
        run_name: str | None,
    ) -> RunnableConfig:
        """The config of the next attempt: the caller's, plus the ledger (and guard)."""
        self.attempt += 1
        self.ledger.attempt = self.attempt
        callbacks = run_manager.get_child()
        callbacks.add_handler(self.ledger, inherit=True)
        if self.guard is not None and self.attempt > 0:
            callbacks.add_handler(self.guard, inherit=True)
        child = patch_config(config, callbacks=callbacks, run_name=run_name)
        child["metadata"] = {
            **child.get("metadata", {}),
            "factcheck_attempt": self.attempt,
            RUN_METADATA_KEY: self.run_key,  # ToolGuardMiddleware: once-only across attempts
        }
        return child

    def prepare(self, output: Any) -> tuple[AnswerLocation | None, list[dict[str, Any]]]:
        """Find the answer in an output and gather the evidence of all attempts so far."""
        where = find_answer(output, self.options.answer_key)
        for call in tool_calls_from_output(output):
            if call not in self.seen_outputs:
                self.seen_outputs.append(call)
        return where, self.evidence()

    def check_now(self, text: str, output: Any = None) -> Report:
        """Check a partial answer against the evidence held now (plus `output`'s results).

        Raises:
            CheckerFailure: the checker failed.
        """
        seen = list(self.seen_outputs)
        for call in tool_calls_from_output(output):
            if call not in seen:
                seen.append(call)
        return run_check(self.options, text, self.evidence(seen), self.context)

    def pruned(self, state: Any) -> Any:
        """A state without factcheck's corrections and the answers they superseded."""
        if not isinstance(state, dict) or not isinstance(state.get(MESSAGES_KEY), list):
            return state
        messages = state[MESSAGES_KEY]
        kept = [
            m for m in messages
            if not is_correction(m) and getattr(m, "id", None) not in self.superseded
        ]
        return state if len(kept) == len(messages) else {**state, MESSAGES_KEY: kept}

    def released(self, text: str, message_id: str | None) -> None:
        """Note answer text just released, for the `fact_check_release` run to stream."""
        if text:
            self.releases.append((text, message_id))

    def take_releases(self) -> list[tuple[str, str | None]]:
        """The released text not yet streamed by the release run."""
        out, self.releases = self.releases, []
        return out

    def paired(self, chunks: list[Any], run: RunReport | None = None) -> list[Any]:
        """Chunks as the consumer gets them: `(chunk, report)` pairs with `return_report`."""
        if not self.options.return_report:
            return chunks
        if run is None:
            return [(c, None) for c in chunks]
        if not chunks:
            return [(None, run)]
        return [*((c, None) for c in chunks[:-1]), (chunks[-1], run)]

    def output_only(self, result: Any) -> Any:
        """The output of a `result` (without the report of `return_report`)."""
        return result[0] if self.options.return_report else result

    def evidence(self, seen: list[OutputToolCall] | None = None) -> list[dict[str, Any]]:
        """Ledger runs merged with tool results found in outputs, without duplicates.

        Tool results in the outputs give the order (it is deterministic even when
        tools ran in parallel); the ledger gives the status of each run it saw.
        Runs only the ledger saw follow in start order; results only the output
        holds (e.g. from earlier turns of a conversation) keep their place.
        """
        runs = self.ledger.completed()
        by_call_id = {r.tool_call_id: r for r in runs if r.tool_call_id}
        used: set[Any] = set()
        out: list[dict[str, Any]] = []
        for call in self.seen_outputs if seen is None else seen:
            if call.repeat:  # a guard's notice, not a tool output
                continue
            run = by_call_id.get(call.tool_call_id) if call.tool_call_id else None
            if run is None and not call.tool_call_id:
                run = next(
                    (
                        r
                        for r in runs
                        if r.run_id not in used
                        and r.name == call.name
                        and r.output == plain_value(call.output)
                    ),
                    None,
                )
            if run is None:
                out.append(call.as_tool_call())
            elif run.run_id not in used:
                used.add(run.run_id)
                out.append({**run.as_tool_call(), "untrusted": True} if call.untrusted else run.as_tool_call())
        out.extend(r.as_tool_call() for r in runs if r.run_id not in used)
        return out

    def advance(self, output: Any, where: AnswerLocation, report: Report) -> bool:
        """Record an attempt; prepare the retry input and return True to retry."""
        self.attempts.append(report)
        self.last = (output, where)
        if report.ok or self.attempt >= self.max_retries:
            return False
        executed_actions = self.executed_actions()

        def correction(include_answer: bool) -> str:
            return build_correction(report, executed_actions, include_answer=include_answer)

        retry = retry_input(
            self.original,
            self.current,
            output,
            where.text,
            correction,
            accepts_messages=self.accepts_messages,
            input_key=self.options.input_key,
        )
        if retry is None:
            self.notes.append(
                f"no retry: a correction cannot be added to a {type(self.original).__name__} input"
                " (set input_key)"
            )
            return False
        if executed_actions and not retry.carries_history and self.guard is not None:
            self.notes.append(
                "no retry: it would re-run the runnable from its input, and these action "
                f"tools already ran: {', '.join(executed_actions)}"
            )
            return False
        self.corrections.append(retry.correction)
        self.current = retry.value
        if where.kind == "state" and output[MESSAGES_KEY][where.index].id:
            self.superseded.add(output[MESSAGES_KEY][where.index].id)
        return True

    def executed_actions(self) -> list[str]:
        """Names of action tools the ledger shows as executed, first run first."""
        names = [r.name for r in self.ledger.executed() if self.options.is_action(r.name)]
        return list(dict.fromkeys(names))

    def blocked(self, exc: RepeatedActionBlocked) -> None:
        """A retry tried to run an action tool again; the guard stopped it."""
        self.notes.append(f"retry {self.attempt} stopped: {exc}")

    def no_answer(self, output: Any) -> CheckerFailure:
        """The error for an output with no recognisable final answer."""
        return CheckerFailure(
            f"no final answer found in a {type(output).__name__} output "
            "(expected an AI message, a `messages` state, an `output` key or a str; "
            "set answer_key)"
        )

    def checker_failed(self, where: AnswerLocation | None, error: CheckerFailure) -> RunReport:
        """The report of a checker failure: `unchecked` (fail open) or `failed` (fail closed)."""
        answer = where.text if where else ""
        run = unchecked(self.options, answer, error, self.attempts)
        return self._with_tools(run.model_copy(update={"notes": [*self.notes, *run.notes]}))

    def unchecked_result(
        self, output: Any, where: AnswerLocation | None, run: RunReport, error: CheckerFailure
    ) -> Any:
        """The output with the report put in: the answer (fail open) or the fallback.

        Raises:
            CheckerFailure: fail closed; it carries the answer, the report, and this
                output with the fallback in place of the answer.
        """
        if where is not None:
            output = put_answer(
                output, where, run.final_text, run.model_dump(mode="json"), self.options.report_key
            )
        result = self._returned(output, where, run)
        if run.outcome == "failed":
            raise failed_closed(error, run, self.output_only(result)) from error.__cause__
        return result

    def so_far(self) -> RunReport:
        """The report of the attempts so far, for an error raised out of the run."""
        run = RunReport(outcome="raised", attempts=self.attempts, corrections=self.corrections, notes=self.notes)
        return self._with_tools(run)

    def reraise(self, error: BaseException) -> NoReturn:
        """Raise the clear error for a scripted model out of answers, else `error`; it carries
        the report of the attempts so far."""
        clear = out_of_answers(error, self.attempt)
        attach_run(clear or error, self.so_far())
        if clear is not None:
            raise clear from error
        raise error

    def finish(self) -> tuple[RunReport, FactCheckError | None]:
        """Apply `on_fail` to the last attempt and build the run report."""
        run = RunReport(
            outcome="passed",
            attempts=self.attempts,
            corrections=self.corrections,
            notes=self.notes,
        )
        return finish(self.options, self._with_tools(run))

    def result(self, run: RunReport) -> Any:
        """The last attempt's output with the final text and the report put in."""
        assert self.last is not None
        output, where = self.last
        output = put_answer(
            output, where, run.final_text, run.model_dump(mode="json"), self.options.report_key
        )
        return self._returned(output, where, run)

    def _returned(self, output: Any, where: AnswerLocation | None, run: RunReport) -> Any:
        if where is not None and where.kind == "state" and self.options.prune_history:
            messages = output[MESSAGES_KEY]
            drop = self.superseded - {messages[where.index].id}
            output[MESSAGES_KEY] = [
                m
                for m in messages
                if not is_correction(m) and getattr(m, "id", None) not in drop
            ]
        return (output, run) if self.options.return_report else output

    def _with_tools(self, run: RunReport) -> RunReport:
        runs = self.ledger.completed()
        return run.model_copy(
            update={
                "executed_tools": [r.name for r in runs if r.status == "ok"],
                "failed_tools": [r.name for r in runs if r.status == "error"],
                "tool_guard": [c.guard_event for c in self.seen_outputs if c.guard_event],
            }
        )


def _split_run_name(config: RunnableConfig | None) -> tuple[RunnableConfig, str | None]:
    """Take `run_name` out of the config: it names the wrapped runnable's runs."""
    config = ensure_config(config)
    return config, config.pop("run_name", None)


async def _one(value: Any) -> AsyncIterator[Any]:
    yield value


def _accepts_messages(runnable: Runnable[Any, Any]) -> bool:
    for _ in range(16):
        if not isinstance(runnable, RunnableBindingBase):
            break
        runnable = runnable.bound
    return isinstance(runnable, BaseLanguageModel)


def with_fact_check(runnable: Runnable[Any, Any], **options: Any) -> RunnableFactCheck:
    """Wrap a runnable so its final answers are checked against the tools it really ran.

    Args:
        runnable: An LCEL chain, a LangGraph graph, a `create_agent` agent, a legacy
            executor returning `{"output", "intermediate_steps"}`, or a chat model.
        **options: Fields of `FactCheckOptions` (`max_retries`, `on_fail`,
            `fallback`, `fail_open`, `return_report`, `report_key`, `config`, `min_confidence`, ...).

    Returns:
        A runnable with the same input and output types.
    """
    return RunnableFactCheck(bound=runnable, options=FactCheckOptions(**options))


def _with_fact_check_method(self: Runnable[Any, Any], **options: Any) -> RunnableFactCheck:
    """Check this runnable's final answers against its tool runs (see `with_fact_check`)."""
    return with_fact_check(self, **options)


def register() -> None:
    """Add `.with_fact_check()` to every LangChain `Runnable` (idempotent)."""
    current = getattr(Runnable, "with_fact_check", None)
    if current is None or getattr(current, "__module__", "") == __name__:
        Runnable.with_fact_check = _with_fact_check_method  # type: ignore[attr-defined]
