"""`RunnableFactCheck` and `with_fact_check`: check any Runnable's answer against its tool runs."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterator
from functools import partial
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.runnables import Runnable, RunnableConfig, RunnableSerializable
from langchain_core.runnables.config import ensure_config
from langchain_core.runnables.utils import ConfigurableFieldSpec
from pydantic import BaseModel, ConfigDict

from factcheck.langchain.engine import FactCheckOptions, enabled_from_env
from factcheck.langchain.run_report import RunReport
from factcheck.langchain.run_state import RunState
from factcheck.langchain.steps import RunAttempt, Steps
from factcheck.langchain.stream_loop import astream_attempts, stream_attempts
from factcheck.langchain.streaming import TOKENS_KWARG, is_graph
from factcheck.langchain.tracing import acarry_out, carry_out


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
        """Log patches of the checked stream: the wrapper's own output and tool runs only.

        LangChain deprecates `astream_log` (use `astream_events`); it is checked here for the callers it has.
        """
        from factcheck.langchain.events import checked_log

        patches = _unwarned(super().astream_log(input, config, diff=True, **self._whole_states(kwargs)))
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
        state = RunState(self.options, self.bound, next(iter(inputs)))
        yield from stream_attempts(state, self.bound, run_manager, config, run_name, bound_kwargs)

    async def _astream_run(
        self,
        inputs: AsyncIterator[Any],
        run_manager: AsyncCallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> AsyncIterator[Any]:
        state = RunState(self.options, self.bound, await anext(aiter(inputs)))
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
        state = RunState(self.options, self.bound, input)
        steps = Steps(state, config, run_manager, run_name)
        for step in steps:
            if isinstance(step, RunAttempt):
                steps.answer(partial(self.bound.invoke, state.current, step.config, **bound_kwargs))
            else:
                carry_out(steps, step, state, run_manager, config)
        assert steps.ending is not None
        return steps.ending.result()

    async def _arun(
        self,
        input: Any,
        run_manager: AsyncCallbackManagerForChainRun,
        config: RunnableConfig,
        run_name: str | None,
        bound_kwargs: dict[str, Any],
    ) -> Any:
        state = RunState(self.options, self.bound, input)
        steps = Steps(state, config, run_manager, run_name)
        for step in steps:
            if isinstance(step, RunAttempt):
                await steps.aanswer(partial(self.bound.ainvoke, state.current, step.config, **bound_kwargs))
            else:
                await acarry_out(steps, step, state, run_manager, config)
        assert steps.ending is not None
        return steps.ending.result()


def _split_run_name(config: RunnableConfig | None) -> tuple[RunnableConfig, str | None]:
    """Take `run_name` out of the config: it names the wrapped runnable's runs."""
    config = ensure_config(config)
    return config, config.pop("run_name", None)


async def _one(value: Any) -> AsyncIterator[Any]:
    yield value


async def _unwarned(patches: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """LangChain's `astream_log`, whose deprecation warning (given on its first step) is not the wrapper's."""
    with warnings.catch_warnings():  # issue 26: no deprecation warning from factcheck's own code
        warnings.filterwarnings("ignore", message="astream_log is deprecated")
        try:
            first = await anext(patches)
        except StopAsyncIteration:
            return
    yield first
    async for patch in patches:
        yield patch


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
