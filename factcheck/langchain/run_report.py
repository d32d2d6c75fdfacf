"""`RunReport`: every attempt of a fact-checked run, the corrections sent and the outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from factcheck.report import Report

Outcome = Literal["passed", "retried", "dropped", "annotated", "raised", "custom", "unchecked", "failed"]
"""How a run ended.

- `passed`: the first answer had no flagged claim.
- `retried`: a retry's answer had no flagged claim.
- `dropped`, `annotated`, `custom`: the last answer was still flagged and `on_fail`
  (`drop`, `annotate` or a callable) rewrote it.
- `raised`: the last answer was still flagged and `on_fail="raise"` raised; or the wrapped
  runnable raised, and the report of the attempts so far rides on its error.
- `unchecked`: the checker failed and `fail_open=True` passed the answer through.
- `failed`: the checker failed and `fail_open=False` raised `CheckerFailure`; `final_text`
  is the fallback for the user, `unchecked_answer` the answer.
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
    unchecked_answer: str | None = None
    """The answer the checker could not check (outcomes `unchecked` and `failed`)."""
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

    def __str__(self) -> str:
        """The outcome, each attempt's flagged claims with reason and evidence, the tools."""
        lines = [f"fact-checked run: {self._outcome_line()}"]
        if self.executed_tools or self.failed_tools:
            tools = ", ".join(self.executed_tools) or "none"
            failed = f"; failed: {', '.join(self.failed_tools)}" if self.failed_tools else ""
            lines.append(f"tools run: {tools}{failed}")
        else:
            lines.append("tools run: none")
        for i, attempt in enumerate(self.attempts, start=1):
            flagged = attempt.flagged
            head = "passed" if not flagged else f"{len(flagged)} of {len(attempt.claims)} claims flagged"
            lines.append(f"attempt {i}: {head}")
            for claim in flagged:
                lines.append(f"  - [{claim.verdict.value}] {claim.text!r}")
                for fact in (f for f in claim.facts if f.flagged):
                    conf = f", confidence {fact.confidence:.2f}" if fact.confidence is not None else ""
                    lines.append(f"      {fact.kind.value} {fact.text!r}: {fact.reason}{conf}")
                    seen = dict.fromkeys(ev.describe() for ev in fact.evidence)
                    lines.extend(f"        <- {where}" for where in list(seen)[:2])
                if not any(f.flagged for f in claim.facts) and claim.reason:
                    lines.append(f"      {claim.reason}")
        if self.outcome != "raised":
            lines.append(f"answer given: {self.final_text!r}")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def _outcome_line(self) -> str:
        retries = self.retries
        after = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
        return {
            "passed": "passed",
            "retried": f"fixed{after}",
            "dropped": f"flagged claims dropped{after}",
            "annotated": f"flagged claims annotated{after}",
            "raised": f"raised{after} (on_fail='raise')",
            "custom": f"rewritten by on_fail{after}",
            "unchecked": "unchecked (the checker failed; fail_open passed the answer through)",
            "failed": "the checker failed; the user got the fallback (fail_open=False)",
        }[self.outcome]


def get_run_report(output: Any, report_key: str = DEFAULT_REPORT_KEY) -> RunReport | None:
    """Read the run report a fact-checked output carries, whatever its shape.

    Finds it in: a `RunReport`; an `(output, report)` pair of `return_report`; an AI
    message's `response_metadata` (a streamed message's chunks added up included);
    `output[report_key]` of a dict (a `create_agent` state with the middleware, the
    wrapper's dict outputs); the last AI message of a dict's `messages`; the update
    of a node in a `stream_mode="updates"` chunk; the last item of a list or tuple
    that carries one (a list of streamed chunks, a `(message, metadata)` pair); and
    the `run_report` of a `FactCheckError` raised by `on_fail="raise"`.

    Args:
        output: An output, chunk, chunk list or error of a fact-checked runnable or agent.
        report_key: The key the report was stored under.

    Returns:
        The report, or None when the output carries none (a str output cannot).
    """
    data = _find(output, report_key, depth=0)
    if data is None:
        return None
    return data if isinstance(data, RunReport) else RunReport.model_validate(data)


def _find(output: Any, key: str, depth: int) -> Any:
    if depth > 4 or output is None:
        return None
    if isinstance(output, RunReport):
        return output
    if isinstance(output, BaseException):
        return getattr(output, "run_report", None)
    meta = getattr(output, "response_metadata", None)
    if isinstance(meta, Mapping):
        return meta.get(key)
    if isinstance(output, Mapping):
        if output.get(key) is not None:
            return output[key]
        messages = output.get("messages")
        if isinstance(messages, Sequence) and not isinstance(messages, str):
            return _find(list(messages), key, depth + 1)
        for value in output.values():
            if isinstance(value, Mapping) and (found := _find(value, key, depth + 1)) is not None:
                return found
        return None
    if isinstance(output, Sequence) and not isinstance(output, (str, bytes)):
        for item in reversed(output):
            if (found := _find(item, key, depth + 1)) is not None:
                return found
    return None
