"""The check of one answer as its own traced child run, named `fact_check`."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)

from factcheck.errors import CheckerFailure
from factcheck.langchain.engine import CHECK_RUN_NAME, run_check
from factcheck.langchain.run_state import RunState
from factcheck.report import Report


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
