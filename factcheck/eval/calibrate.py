"""Fit the flag-confidence table on labelled suites, and score how well confidences match outcomes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from factcheck.calibration import Calibration, answer_stats, fit, flag_features
from factcheck.config import CheckerConfig
from factcheck.eval.scoring import CaseResult, overlaps
from factcheck.eval.suite import Case, span_ranges
from factcheck.report import Claim, Fact, Report

THRESHOLDS = (0.5, 0.7, 0.9)
"""Thresholds `factcheck eval` reports precision and recall at, besides the configured one."""
BINS = 10
"""Equal-width bins of predicted confidence in the calibration table."""


def fact_right(fact: Fact, claim: Claim, gold: list[tuple[int, int]]) -> bool:
    """Whether a flagged fact is right: it overlaps a gold span, or its claim does and no flagged fact of
    the claim overlaps one (the span is wider than any fact, as "the whole sentence is invented")."""
    if any(overlaps(fact.start, fact.end, s, e) for s, e in gold):
        return True
    if not any(overlaps(claim.start, claim.end, s, e) for s, e in gold):
        return False
    return not any(
        f.verdict.flagged and any(overlaps(f.start, f.end, s, e) for s, e in gold) for f in claim.facts
    )


def flag_samples(case: Case, report: Report) -> list[tuple[list[str], bool]]:
    """`(features, right)` for every contradicted or unsupported fact of a case's report (uncertain included).

    Args:
        case: A labelled case.
        report: The checker's report of its answer.

    Returns:
        One sample per flagged fact, in answer order.
    """
    gold = span_ranges(case.answer, case.hallucinated_spans)
    stats = answer_stats(report.lang, case.checker_context())
    return [
        (flag_features(f, claim, stats), fact_right(f, claim, gold))
        for claim in report.claims for f in claim.facts if f.verdict.flagged
    ]


def calibrate(
    cases: Sequence[Case],
    sources: Sequence[str],
    l2: float = 1.0,
    config: CheckerConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Calibration:
    """Check every case and fit the confidence table on its flagged facts.

    Args:
        cases: Labelled cases (the case format).
        sources: Names of the suites, recorded in the table.
        l2: Ridge penalty (see `calibration.fit`).
        config: Checker settings; the features do not depend on the current table or threshold.
        progress: Called with `(done, total)` after each case.

    Returns:
        The fitted table.
    """
    from factcheck.checker import FactChecker

    checker = FactChecker(config or CheckerConfig())
    samples: list[tuple[list[str], bool]] = []
    seen: set[tuple[str, str, str, tuple[str, ...], bool]] = set()
    for i, case in enumerate(cases, start=1):
        report = checker.check(case.answer, case.tool_call_dicts(), case.checker_context())
        source = case.id.split("~", 1)[0]  # `factcheck mutate` ids: <source id>~<class>[~n]
        flags = [(c, f) for c in report.claims for f in c.facts if f.verdict.flagged]
        for (claim, fact), (features, right) in zip(flags, flag_samples(case, report), strict=True):
            # a flag of the source answer that every mutant of it repeats counts once
            key = (source, claim.text, fact.text, tuple(features), right)
            if key not in seen:
                seen.add(key)
                samples.append((features, right))
        if progress:
            progress(i, len(cases))
    table = fit(samples, l2=l2)
    table.fitted_on = list(sources)
    return table


def _claim_flags(result: CaseResult) -> list[tuple[Claim, float, bool]]:
    """`(claim, confidence, right)` for every claim holding a contradicted or unsupported fact."""
    gold = span_ranges(result.case.answer, result.case.hallucinated_spans)
    return [
        (c, c.confidence if c.confidence is not None else 1.0, any(overlaps(c.start, c.end, s, e) for s, e in gold))
        for c in result.report.claims
        if any(f.verdict.flagged for f in c.facts)
    ]


def _at(results: Sequence[CaseResult], threshold: float) -> dict[str, Any]:
    """Claim- and answer-level precision and recall when only flags at or above `threshold` count."""
    right = flagged = 0
    caught = gold_total = 0
    tp = fp = fn = 0
    faithful = false_alarms = 0
    for r in results:
        flags = [(c, ok) for c, conf, ok in _claim_flags(r) if conf >= threshold]
        flagged += len(flags)
        right += sum(ok for _, ok in flags)
        gold = span_ranges(r.case.answer, r.case.hallucinated_spans)
        gold_total += len(gold)
        caught += sum(any(overlaps(s, e, c.start, c.end) for c, _ in flags) for s, e in gold)
        predicted = bool(flags)
        if r.case.hallucinated:
            tp += predicted
            fn += not predicted
        else:
            faithful += 1
            false_alarms += predicted
            fp += predicted
    return {
        "threshold": threshold,
        "flag_precision": right / flagged if flagged else None,
        "flags": flagged,
        "span_recall": caught / gold_total if gold_total else None,
        "answer_precision": tp / (tp + fp) if tp + fp else None,
        "answer_recall": tp / (tp + fn) if tp + fn else None,
        "false_alarm_rate": false_alarms / faithful if faithful else None,
    }


def calibration_scores(results: Sequence[CaseResult], min_confidence: float) -> dict[str, Any]:
    """How well the flags' confidences match how often they are right, on claims.

    A claim's confidence is the highest of its flagged facts'; it is right when it overlaps a gold
    span (as in the span scores). Uncertain flags are included: calibration is about every flag.

    Args:
        results: One result per case, checked with any threshold.
        min_confidence: The threshold the checker ran with.

    Returns:
        `bins` (range, flags, mean confidence, observed precision), `ece` (expected calibration
        error, weighted by flags per bin), `flags`, and `at` (scores at `min_confidence` and at
        each of `THRESHOLDS`).
    """
    flags = [(conf, ok) for r in results for _, conf, ok in _claim_flags(r)]
    bins = []
    ece = 0.0
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [(c, ok) for c, ok in flags if low <= c < high or (b == BINS - 1 and c == 1.0)]
        if not inside:
            continue
        mean = sum(c for c, _ in inside) / len(inside)
        observed = sum(ok for _, ok in inside) / len(inside)
        ece += len(inside) / len(flags) * abs(mean - observed)
        bins.append({"low": low, "high": high, "flags": len(inside), "confidence": mean, "precision": observed})
    thresholds = sorted({min_confidence, *THRESHOLDS})
    return {
        "flags": len(flags),
        "ece": ece if flags else None,
        "bins": bins,
        "at": [_at(results, t) for t in thresholds],
    }
