"""pytest helper: `assert_grounded` fails a test when an answer is not backed by its tools."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from factcheck.config import CheckerConfig
from factcheck.report import Report

if TYPE_CHECKING:
    from factcheck.checker import FactChecker

_default_checker: FactChecker | None = None


def _checker(config: CheckerConfig | None, config_fields: dict[str, Any]) -> FactChecker:
    global _default_checker
    from factcheck.checker import FactChecker

    if config is not None and config_fields:
        raise TypeError("pass either config= or CheckerConfig fields, not both")
    if config is None and not config_fields:
        if _default_checker is None:
            _default_checker = FactChecker(CheckerConfig())
        return _default_checker
    return FactChecker(config or CheckerConfig(**config_fields))


def format_failure(report: Report) -> str:
    """The assertion message: each flagged claim, why, and the evidence behind it.

    Args:
        report: A report with flagged claims.

    Returns:
        A multi-line message.
    """
    flagged = report.flagged
    lines = [
        f"answer is not grounded in the tool outputs: {len(flagged)} of "
        f"{len(report.claims)} claims flagged",
    ]
    for claim in flagged:
        reason = claim.reason or "no reason given"
        lines.append(f"- [{claim.verdict.value}] {claim.text!r}: {reason}")
        for fact in claim.facts:
            if not fact.flagged:
                continue
            lines.append(f"    {fact.kind.value} {fact.text!r}: {fact.verdict.value}"
                         f" ({fact.code or '-'}) {fact.reason}".rstrip())
            lines.extend(f"      <- {ev.describe()}" for ev in fact.evidence[:3])
        if not claim.facts:
            lines.extend(f"    <- {ev.describe()}" for ev in claim.evidence[:3])
    lines.append(f"answer: {report.answer!r}")
    return "\n".join(lines)


def assert_grounded(
    answer: str,
    tool_calls: Sequence[Any],
    context: Sequence[str] | None = None,
    *,
    lang: str | None = None,
    config: CheckerConfig | None = None,
    **config_fields: Any,
) -> Report:
    """Assert that every checkable claim of an answer is backed by the tool outputs.

    Args:
        answer: The agent's final answer.
        tool_calls: Case-format mappings, LangChain `ToolMessage`s or bare outputs.
        context: Other text the answer may rely on (user messages, system prompt).
        lang: `zh`, `en` or `mixed`; detected when `None`.
        config: Checker settings; or give `CheckerConfig` fields as keyword arguments.
        **config_fields: Fields of `CheckerConfig` (e.g. `lexicon_paths`).

    Returns:
        The report, for further assertions.

    Raises:
        AssertionError: listing each flagged claim, why, and its evidence.
    """
    __tracebackhide__ = True
    report = _checker(config, config_fields).check(
        answer, tool_calls=list(tool_calls), context=list(context or []), lang=lang
    )
    if not report.ok:
        raise AssertionError(format_failure(report))
    return report
