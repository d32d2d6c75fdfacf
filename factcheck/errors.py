"""Exceptions raised by factcheck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from factcheck.report import Report


class FactCheckError(Exception):
    """An answer still had contradicted or unsupported claims after the retries."""

    def __init__(self, message: str, report: Report | None = None) -> None:
        super().__init__(message)
        self.report = report
        """The report of the last attempt (its `attempts` hold the earlier ones)."""
        self.answer: str | None = report.answer if report is not None else None
        """The answer as the model gave it (never lost: also when the checker failed)."""
        self.run_report: Any = None
        """The `RunReport` of the run, set by `.with_fact_check()` and `FactCheckMiddleware`
        (`get_run_report(error)` reads it)."""
        self.output: Any = None
        """Wrapper only: the output as the user may see it (the answer replaced by the
        fallback when the checker failed), or None."""


class UnbackedActionError(FactCheckError):
    """The answer claims an action (published, registered, emailed) no tool call performed."""


class CheckerFailure(FactCheckError):
    """The checker itself failed (a bug or resource limit), not the answer.

    Raised by the wrapper and the middleware with `fail_open=False`: `answer` holds the
    unchecked answer for the developer, `fallback` the safe message for the user, and
    `run_report` the run (outcome `failed`).
    """

    fallback: str | None = None
    """The safe message to give the user instead of the unchecked answer."""
