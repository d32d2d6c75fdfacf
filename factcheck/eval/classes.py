"""Scores per `error` class (recall of each mistake class, false alarms of each rewrite) and easy vs hard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factcheck.eval.scoring import CaseResult, match_spans


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    wrong = [r for r in results if r.case.hallucinated]
    faithful = [r for r in results if not r.case.hallucinated]
    gold = caught = 0
    for r in wrong:
        m = match_spans(r.case, r.report)
        gold += len(m.gold)
        caught += sum(c for _, _, c in m.gold)
    return {
        "cases": len(results),
        "hallucinated": len(wrong),
        "recall": _ratio(sum(r.predicted for r in wrong), len(wrong)),
        "span_recall": _ratio(caught, gold),
        "false_alarm_rate": _ratio(sum(r.predicted for r in faithful), len(faithful)),
    }


def class_scores(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Recall (mistakes) and false alarms (rewrites, faithful cases) per `error` value, and easy vs hard.

    A hallucinated case is easy when its wrong value occurs in the tool outputs (`in_outputs` true: another
    record's price, a per-unit amount) and hard when it occurs nowhere (a changed digit).

    Args:
        results: One result per case.

    Returns:
        `by_error` (error -> `cases`, `hallucinated`, `recall`, `span_recall`, `false_alarm_rate`) when some
        case has an `error`, and `by_difficulty` (`easy`, `hard`) when some hallucinated case has `in_outputs`;
        an empty mapping for a suite with neither.
    """
    out: dict[str, Any] = {}
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        if r.case.error is not None:
            groups.setdefault(r.case.error, []).append(r)
    if groups:
        out["by_error"] = {name: _scores(group) for name, group in sorted(groups.items())}
    easy = [r for r in results if r.case.hallucinated and r.case.in_outputs is True]
    hard = [r for r in results if r.case.hallucinated and r.case.in_outputs is False]
    if easy or hard:
        out["by_difficulty"] = {"easy": _scores(easy), "hard": _scores(hard)}
    return out
