"""The check of one answer as its own traced child run, named `fact_check`, and the report's event."""

from __future__ import annotations

from functools import partial
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.runnables import RunnableConfig

from factcheck.errors import CheckerFailure
from factcheck.langchain.engine import CHECK_RUN_NAME, run_check
from factcheck.langchain.run_state import RunState
from factcheck.langchain.steps import CheckAnswer, EmitReport, Step, Steps
from factcheck.report import Report


def carry_out(
    steps: Steps,
    step: Step,
    state: RunState,
    run_manager: CallbackManagerForChainRun,
    config: RunnableConfig,
) -> None:
    """Carry out a run's `CheckAnswer` (as the traced check) or `EmitReport` step.

    Args:
        steps: The run's steps, answered with the check's report (or its `CheckerFailure`).
        step: The step to carry out.
        state: The run.
        run_manager: The wrapper's run, parent of the check's run.
        config: The wrapper's config, for the report's custom event.
    """
    if isinstance(step, CheckAnswer):
        steps.answer(partial(traced_check, state, run_manager, step.answer, step.tool_calls))
    elif isinstance(step, EmitReport):
        dispatch_custom_event(CHECK_RUN_NAME, step.data, config=config)


async def acarry_out(
    steps: Steps,
    step: Step,
    state: RunState,
    run_manager: AsyncCallbackManagerForChainRun,
    config: RunnableConfig,
) -> None:
    """Async `carry_out`."""
    if isinstance(step, CheckAnswer):
        await steps.aanswer(partial(atraced_check, state, run_manager, step.answer, step.tool_calls))
    elif isinstance(step, EmitReport):
        await adispatch_custom_event(CHECK_RUN_NAME, step.data, config=config)


def traced_check(
    state: RunState,
    run_manager: CallbackManagerForChainRun,
    answer: str,
    tool_calls: list[dict[str, Any]],
) -> Report:
    """Check one answer as its own child run named `fact_check`."""
    check_run = run_manager.get_child().on_chain_start(
        None, _check_inputs(state, answer, tool_calls), name=CHECK_RUN_NAME
    )
    try:
        report = run_check(state.options, answer, tool_calls, state.context)
    except CheckerFailure as exc:
        check_run.on_chain_error(exc)
        raise
    check_run.on_chain_end(_check_outputs(report))
    return report


async def atraced_check(
    state: RunState,
    run_manager: AsyncCallbackManagerForChainRun,
    answer: str,
    tool_calls: list[dict[str, Any]],
) -> Report:
    """Async `traced_check`."""
    check_run = await run_manager.get_child().on_chain_start(
        None, _check_inputs(state, answer, tool_calls), name=CHECK_RUN_NAME
    )
    try:
        report = run_check(state.options, answer, tool_calls, state.context)
    except CheckerFailure as exc:
        await check_run.on_chain_error(exc)
        raise
    await check_run.on_chain_end(_check_outputs(report))
    return report


def _check_inputs(state: RunState, answer: str, tool_calls: list[dict[str, Any]]) -> dict:
    return {
        "answer": answer,
        "attempt": state.attempt,
        "tools": [f"{c['name']} ({c['status']})" for c in tool_calls],
        "context_items": len(state.context),
    }


def _check_outputs(report: Report) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "flagged": [c.text for c in report.flagged],
        "report": report.model_dump(mode="json"),
    }
