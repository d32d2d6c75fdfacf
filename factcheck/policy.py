"""Downgrade policies: what to do with an answer whose claims are still flagged."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from factcheck.errors import FactCheckError, UnbackedActionError
from factcheck.extractors.segment import mostly_zh_or_en
from factcheck.report import Report

OnFail = Literal["drop", "annotate", "raise"] | Callable[[Report], str]

DEFAULT_FALLBACK = {
    "zh": "抱歉，我无法根据系统记录确认这些信息，请稍后再试或联系人工客服。",
    "en": "Sorry, I could not confirm this from the system records. Please try again later "
    "or contact a human agent.",
}
_ANNOTATION = {"zh": "【未经系统核实】", "en": " [not confirmed by the system]"}
_LEFTOVER_PUNCT = re.compile(r"[\s，,；;。.!！?？、]+")


def drop_flagged(report: Report, fallback: str | None = None) -> str:
    """Remove every flagged claim from the answer and keep the rest.

    Args:
        report: The report of the answer to downgrade.
        fallback: Text returned when nothing checkable is left; defaults to a
            message in the answer's language.

    Returns:
        The answer without its flagged claims, or the fallback message.
    """
    kept: list[str] = []
    cursor = 0
    for claim in report.flagged:
        kept.append(report.answer[cursor : claim.start])
        cursor = claim.end
        # swallow the separator that followed the dropped claim
        tail = _LEFTOVER_PUNCT.match(report.answer, cursor)
        if tail:
            cursor = tail.end()
    kept.append(report.answer[cursor:])
    text = "".join(kept).strip()
    if not text or not any(not c.flagged for c in report.claims):
        return fallback if fallback is not None else _fallback_for(report)
    return text


def annotate_flagged(report: Report) -> str:
    """Keep the answer's text and mark each flagged claim as not confirmed.

    Args:
        report: The report of the answer to annotate.

    Returns:
        The answer with a marker after every flagged claim.
    """
    out: list[str] = []
    cursor = 0
    for claim in report.flagged:
        out.append(report.answer[cursor : claim.end])
        out.append(_ANNOTATION[message_lang(report)])
        cursor = claim.end
    out.append(report.answer[cursor:])
    return "".join(out)


def apply_on_fail(report: Report, on_fail: OnFail = "drop", fallback: str | None = None) -> str:
    """Apply the downgrade policy to a report whose answer is still flagged.

    Args:
        report: The report of the last attempt.
        on_fail: `drop`, `annotate`, `raise`, or a callable taking the report
            and returning the text to use.
        fallback: Safe message for `drop` when nothing is left.

    Returns:
        The text to give the user (the answer itself when nothing is flagged).

    Raises:
        UnbackedActionError: with `raise`, when a flagged fact claims an action
            that no successful tool call performed.
        FactCheckError: with `raise`, for any other flagged claim.
        ValueError: for an unknown policy name.
    """
    if report.ok:
        return report.answer
    if callable(on_fail):
        return on_fail(report)
    if on_fail == "drop":
        return drop_flagged(report, fallback)
    if on_fail == "annotate":
        return annotate_flagged(report)
    if on_fail == "raise":
        summary = "; ".join(f"{c.text!r}: {c.reason}" for c in report.flagged)
        if any(f.unbacked_action for c in report.flagged for f in c.facts):
            raise UnbackedActionError(f"answer claims actions no tool performed: {summary}", report)
        raise FactCheckError(f"answer has ungrounded claims: {summary}", report)
    raise ValueError(f"on_fail must be 'drop', 'annotate', 'raise' or a callable, not {on_fail!r}")


def message_lang(report: Report) -> str:
    """Language for messages about an answer: `zh` or `en`.

    A `mixed` answer (Chinese with English links, ids or names) counts as Chinese
    when, links and emails aside, it has at least as many CJK characters as Latin words.
    """
    return report.lang if report.lang in ("zh", "en") else mostly_zh_or_en(report.answer)


def _fallback_for(report: Report) -> str:
    return DEFAULT_FALLBACK[message_lang(report)]
