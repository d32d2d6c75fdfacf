"""Scores of an eval run, exactly as shared/case-format.md defines them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from factcheck.eval.suite import KINDS, LANGS, Case, span_ranges
from factcheck.report import Claim, Report


@dataclass
class CaseResult:
    """What one system did with one case, including the replayed retry pass."""

    case: Case
    """The case."""
    report: Report
    """Report of the case's answer."""
    elapsed_ms: float
    """Time of the `check()` call on the answer."""
    retry_report: Report | None = None
    """Report of `retry_answer`, when the answer was flagged and a retry answer exists."""
    final_text: str = ""
    """What the user gets after the retry pass and the downgrade."""
    final_source: Literal["answer", "retry"] = "answer"
    """Which text `final_text` came from."""
    downgraded: bool = False
    """True when the downgrade policy changed the text."""

    @property
    def predicted(self) -> bool:
        """True when the answer has at least one flagged claim."""
        return not self.report.ok

    @property
    def final_hallucinated(self) -> bool:
        """True when the final text still holds a gold span of the text it came from."""
        case = self.case
        spans = case.hallucinated_spans if self.final_source == "answer" else case.retry_spans
        return any(span in self.final_text for span in spans)


@dataclass
class SpanMatch:
    """Gold spans and flagged claims of one answer, each marked caught or right."""

    gold: list[tuple[int, int, bool]]
    """`(start, end, caught)` for every occurrence of every gold span."""
    flagged: list[tuple[Claim, bool]]
    """`(claim, right)` for every flagged claim: right when it overlaps a gold span."""


def overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    """Whether two character ranges `[start, end)` share a character."""
    return a_start < b_end and b_start < a_end


def match_spans(case: Case, report: Report) -> SpanMatch:
    """Match the flagged claims of a report against the case's gold spans.

    Args:
        case: The case whose `answer` the report is about.
        report: The report of that answer.

    Returns:
        Which gold spans are caught and which flagged claims are right.
    """
    gold = span_ranges(case.answer, case.hallucinated_spans)
    flagged = report.flagged
    return SpanMatch(
        gold=[(s, e, any(overlaps(s, e, c.start, c.end) for c in flagged)) for s, e in gold],
        flagged=[(c, any(overlaps(c.start, c.end, s, e) for s, e in gold)) for c in flagged],
    )


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def percentile(values: Sequence[float], q: float) -> float | None:
    """Percentile by linear interpolation between closest ranks.

    Args:
        values: The sample.
        q: The quantile, 0-100.

    Returns:
        The percentile, or `None` for an empty sample.
    """
    if not values:
        return None
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def answer_scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Answer-level scores: an answer is predicted hallucinated when any claim is flagged.

    Args:
        results: One result per case.

    Returns:
        `precision`, `recall`, `f1`, `false_alarm_rate` (`None` when undefined) and the counts.
    """
    tp = sum(r.predicted and r.case.hallucinated for r in results)
    fp = sum(r.predicted and not r.case.hallucinated for r in results)
    fn = sum(not r.predicted and r.case.hallucinated for r in results)
    tn = sum(not r.predicted and not r.case.hallucinated for r in results)
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {
        "precision": precision,
        "recall": recall,
        "f1": _f1(precision, recall),
        "false_alarm_rate": _ratio(fp, fp + tn),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def span_scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Span-level scores over every occurrence of every gold span and every flagged claim.

    Args:
        results: One result per case.

    Returns:
        `precision`, `recall`, `f1` (`None` when undefined) and the counts behind them.
    """
    gold = caught = flagged = right = 0
    for r in results:
        m = match_spans(r.case, r.report)
        gold += len(m.gold)
        caught += sum(c for _, _, c in m.gold)
        flagged += len(m.flagged)
        right += sum(ok for _, ok in m.flagged)
    precision, recall = _ratio(right, flagged), _ratio(caught, gold)
    return {
        "precision": precision,
        "recall": recall,
        "f1": _f1(precision, recall),
        "gold": gold,
        "caught": caught,
        "flagged": flagged,
        "right": right,
    }


def end_to_end_scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Replay scores: hallucination rate before and after the retry pass and downgrade.

    Args:
        results: One result per case, with the replay filled in.

    Returns:
        `before`, `after`, `retry_rate` (flagged faithful answers / faithful answers)
        and the counts behind them.
    """
    n = len(results)
    faithful = [r for r in results if not r.case.hallucinated]
    before = sum(r.case.hallucinated for r in results)
    after = sum(r.final_hallucinated for r in results)
    sent = sum(r.predicted for r in faithful)
    return {
        "before": _ratio(before, n),
        "after": _ratio(after, n),
        "retry_rate": _ratio(sent, len(faithful)),
        "hallucinated_before": before,
        "hallucinated_after": after,
        "retried": sum(r.retry_report is not None for r in results),
        "downgraded": sum(r.downgraded for r in results),
        "faithful_sent_to_retry": sent,
        "faithful_changed": sum(r.final_text != r.case.answer for r in faithful),
    }


def latency_scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Latency of the `check()` call on each answer.

    Args:
        results: One result per case.

    Returns:
        `p50`, `p95`, `mean` and `max` in milliseconds.
    """
    times = [r.elapsed_ms for r in results]
    return {
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "mean": sum(times) / len(times) if times else None,
        "max": max(times, default=None),
    }


def _block(results: Sequence[CaseResult]) -> dict[str, Any]:
    return {
        "cases": len(results),
        "hallucinated": sum(r.case.hallucinated for r in results),
        "answers": answer_scores(results),
        "spans": span_scores(results),
        "end_to_end": end_to_end_scores(results),
        "latency_ms": latency_scores(results),
    }


def round_floats(value: Any, digits: int = 4) -> Any:
    """Round every float in a JSON-ready value (through dicts and lists) to `digits` places."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: round_floats(v, digits) for k, v in value.items()}
    if isinstance(value, list):
        return [round_floats(v, digits) for v in value]
    return value


def summarize(results: Sequence[CaseResult]) -> dict[str, Any]:
    """All scores of one system, overall and broken down by language and by kind.

    Faithful answers have no kind; they appear under the kind `faithful`, and hallucinated
    answers without `kinds` under `unlabelled`.

    Args:
        results: One result per case, in suite order.

    Returns:
        A JSON-ready mapping with `cases`, `hallucinated`, `answers`, `spans`,
        `end_to_end`, `latency_ms`, `by_lang` and `by_kind`; floats rounded to 4 places.
    """
    summary = _block(results)
    summary["by_lang"] = {
        lang: _block(group)
        for lang in LANGS
        if (group := [r for r in results if r.case.lang == lang])
    }
    groups: dict[str, list[CaseResult]] = {k: [] for k in (*KINDS, "unlabelled", "faithful")}
    for r in results:
        if not r.case.hallucinated:
            groups["faithful"].append(r)
        elif not r.case.kinds:
            groups["unlabelled"].append(r)
        for kind in dict.fromkeys(r.case.kinds):
            groups[kind].append(r)
    summary["by_kind"] = {k: _block(g) for k, g in groups.items() if g}
    return round_floats(summary)
