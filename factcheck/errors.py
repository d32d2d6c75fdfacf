"""Exceptions raised by factcheck."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from factcheck.report import Report


class FactCheckError(Exception):
    """An answer still had contradicted or unsupported claims after the retries."""

    def __init__(self, message: str, report: Report | None = None) -> None:
        super().__init__(message)
        self.report = report
        """The report of the last attempt (its `attempts` hold the earlier ones)."""


class UnbackedActionError(FactCheckError):
    """The answer claims an action (published, registered, emailed) no tool call performed."""


class CheckerFailure(FactCheckError):
    """The checker itself failed (a bug or resource limit), not the answer."""
