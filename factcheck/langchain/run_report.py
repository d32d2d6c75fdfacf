"""`RunReport`: every attempt of a fact-checked run, the corrections sent and the outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from factcheck.report import Report

Outcome = Literal["passed", "retried", "dropped", "annotated", "raised", "custom", "unchecked"]
"""How a run ended.

- `passed`: the first answer had no flagged claim.
- `retried`: a retry's answer had no flagged claim.
- `dropped`, `annotated`, `custom`: the last answer was still flagged and `on_fail`
  (`drop`, `annotate` or a callable) rewrote it.
- `raised`: the last answer was still flagged and `on_fail="raise"` raised.
- `unchecked`: the checker failed and `fail_open=True` passed the answer through.
"""

DEFAULT_REPORT_KEY = "fact_check"
"""Default key of the report in `AIMessage.response_metadata` and in dict outputs."""


class RunReport(BaseModel):
    """What the fact check did during one wrapped run or one agent turn.

    Outputs carry it as JSON-ready data (`model_dump(mode="json")`) so messages and
    states stay serialisable; `RunReport.model_validate(data)` or `get_run_report`
    turn it back into this model.
    """

    outcome: Outcome
    """How the run ended (see `Outcome`)."""
    attempts: list[Report] = Field(default_factory=list)
    """The report of every answer checked, first attempt first; each keeps its answer."""
    corrections: list[str] = Field(default_factory=list)
    """The correction sent after attempt `i` is `corrections[i]`."""
    final_text: str = ""
    """The answer text given to the user (after `on_fail`, if applied)."""
    executed_tools: list[str] = Field(default_factory=list)
    """Names of the tool runs that ended without error, in start order, all attempts."""
    failed_tools: list[str] = Field(default_factory=list)
    """Names of the tool runs that ended with an error, in start order, all attempts."""
    notes: list[str] = Field(default_factory=list)
    """Why retrying stopped early, fail-open errors, and similar events."""
    tool_guard: list[dict[str, Any]] = Field(default_factory=list)
    """What `ToolGuardMiddleware` stopped or repaired (refusals, repeats, edits, contained
    errors, instruction-like text in untrusted outputs), in call order."""

    @property
    def report(self) -> Report | None:
        """The report of the last attempt."""
        return self.attempts[-1] if self.attempts else None

    @property
    def retries(self) -> int:
        """How many times the wrapped runnable was re-invoked with a correction."""
        return max(len(self.attempts) - 1, 0)

    @property
    def ok(self) -> bool:
        """True when the text given to the user is the checked answer, unflagged."""
        return self.outcome in ("passed", "retried")


def get_run_report(output: Any, report_key: str = DEFAULT_REPORT_KEY) -> RunReport | None:
    """Read the run report a fact-checked output carries.

    Looks at `output[1]` of a `(output, report)` pair, `response_metadata` of an
    AI message, `output[report_key]` of a dict, and the last AI message of a
    dict's `messages`.

    Args:
        output: An output of a `.with_fact_check()` runnable or a final agent state.
        report_key: The key the report was stored under.

    Returns:
        The report, or None when the output carries none.
    """
    if isinstance(output, tuple) and len(output) == 2 and isinstance(output[1], RunReport):
        return output[1]
    data = _find(output, report_key)
    if data is None:
        return None
    return data if isinstance(data, RunReport) else RunReport.model_validate(data)


def _find(output: Any, key: str) -> Any:
    meta = getattr(output, "response_metadata", None)
    if isinstance(meta, Mapping) and key in meta:
        return meta[key]
    if isinstance(output, Mapping):
        if output.get(key) is not None:
            return output[key]
        for message in reversed(list(output.get("messages") or [])):
            meta = getattr(message, "response_metadata", None)
            if isinstance(meta, Mapping) and key in meta:
                return meta[key]
    return None
