"""A wrapped run's check and report steps: each check its own traced child run named `fact_check`, then the event."""

from __future__ import annotations

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
    """Carry out a run's `CheckAnswer` (as a traced child run) or `EmitReport` step.

    Args:
        steps: The run's steps, answered with the check's report (or its `CheckerFailure`).
        step: The step to carry out.
        state: The run.
        run_manager: The wrapper's run, parent of the check's run.
        config: The wrapper's config, for the report's custom event.
    """
    if isinstance(step, EmitReport):
        dispatch_custom_event(CHECK_RUN_NAME, step.data, config=config)
    elif isinstance(step, CheckAnswer):
        check_run = run_manager.get_child().on_chain_start(None, _check_inputs(state, step), name=CHECK_RUN_NAME)
        try:
            report = run_check(state.options, step.answer, step.tool_calls, state.context)
        except CheckerFailure as exc:
            check_run.on_chain_error(exc)
            steps.throw(exc)
            return
        check_run.on_chain_end(_check_outputs(report))
        steps.send(report)


async def acarry_out(
    steps: Steps,
    step: Step,
    state: RunState,
    run_manager: AsyncCallbackManagerForChainRun,
    config: RunnableConfig,
) -> None:
    """Async `carry_out`."""
    if isinstance(step, EmitReport):
        await adispatch_custom_event(CHECK_RUN_NAME, step.data, config=config)
    elif isinstance(step, CheckAnswer):
        check_run = await run_manager.get_child().on_chain_start(
            None, _check_inputs(state, step), name=CHECK_RUN_NAME
        )
        try:
            report = run_check(state.options, step.answer, step.tool_calls, state.context)
        except CheckerFailure as exc:
            await check_run.on_chain_error(exc)
            steps.throw(exc)
            return
        await check_run.on_chain_end(_check_outputs(report))
        steps.send(report)


def _check_inputs(state: RunState, step: CheckAnswer) -> dict[str, Any]:
    return {
        "answer": step.answer,
        "attempt": state.attempt,
        "tools": [f"{c['name']} ({c['status']})" for c in step.tool_calls],
        "context_items": len(state.context),
    }


def _check_outputs(report: Report) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "flagged": [c.text for c in report.flagged],
        "report": report.model_dump(mode="json"),
    }
