"""Run checkers over a suite: timed checks, the replayed retry pass, and the scores."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from factcheck.config import CheckerConfig
from factcheck.eval.baselines import make_baseline
from factcheck.eval.calibrate import calibration_scores
from factcheck.eval.classes import class_scores
from factcheck.eval.scoring import CaseResult, round_floats, summarize
from factcheck.eval.suite import Case
from factcheck.policy import apply_on_fail
from factcheck.report import Report

Progress = Callable[[int, int], None]
"""Called with `(done, total)` after each case."""

REPLAY_POLICY = "drop"
"""Downgrade applied when the last attempt is still flagged (same code as the LangChain wrapper)."""


class System(Protocol):
    """Anything that checks an answer and returns a `Report`: factcheck or a baseline."""

    name: str

    def check(
        self, answer: str, tool_calls: Sequence[Mapping[str, Any]], context: Sequence[str] = ()
    ) -> Report:
        """Check one answer against the tool calls of its run."""
        ...


class FactcheckSystem:
    """The real checker behind the `System` interface; the language is detected, not given."""

    name = "factcheck"

    def __init__(self, config: CheckerConfig | None = None) -> None:
        """Build the checker once.

        Args:
            config: Checker settings; defaults to `CheckerConfig()`.
        """
        from factcheck.checker import FactChecker

        self.checker = FactChecker(config or CheckerConfig())
        """The `FactChecker` used for every answer."""

    def check(
        self, answer: str, tool_calls: Sequence[Mapping[str, Any]], context: Sequence[str] = ()
    ) -> Report:
        """Check one answer.

        Args:
            answer: The agent's answer.
            tool_calls: Case-format tool call mappings, passed straight through.
            context: The question and other context strings.

        Returns:
            The checker's report.
        """
        return self.checker.check(answer, tool_calls=list(tool_calls), context=list(context),
                                  lang=None)


def make_system(name: str, config: CheckerConfig | None = None) -> System:
    """Build `factcheck` or a baseline by name.

    Args:
        name: `factcheck`, `seed-naive` or `fuzzy`.
        config: Settings for `factcheck` (ignored by the baselines).

    Returns:
        The system.
    """
    return FactcheckSystem(config) if name == "factcheck" else make_baseline(name)


def run_case(system: System, case: Case) -> CaseResult:
    """Check a case's answer (timed), then replay the retry pass and the downgrade.

    The answer is checked; when flagged and the case has a `retry_answer`, that is
    checked; when the last attempt is still flagged, `apply_on_fail(report, "drop")`
    gives the final text.

    Args:
        system: The checker.
        case: The case.

    Returns:
        The result with the report, the check time and the replay.
    """
    tools, context = case.tool_call_dicts(), case.checker_context()
    t0 = time.perf_counter()
    report = system.check(case.answer, tools, context)
    elapsed_ms = (time.perf_counter() - t0) * 1000
    result = CaseResult(case=case, report=report, elapsed_ms=elapsed_ms, final_text=case.answer)
    last = report
    if not report.ok and case.retry_answer is not None:
        last = result.retry_report = system.check(case.retry_answer, tools, context)
        result.final_source = "retry"
    if not last.ok:
        result.final_text = apply_on_fail(last, REPLAY_POLICY)
        result.downgraded = result.final_text != last.answer
    else:
        result.final_text = last.answer
    return result


def run_suite(
    system: System, cases: Sequence[Case], progress: Progress | None = None, warmup: bool = True
) -> list[CaseResult]:
    """Run one system over every case.

    Args:
        system: The checker.
        cases: The suite.
        progress: Called after each case.
        warmup: Check the first answer of each language once, untimed, so lazy loading
            (pipelines, lexicons) is not timed.

    Returns:
        One result per case, in suite order.
    """
    if warmup:
        for case in {c.lang: c for c in reversed(cases)}.values():
            system.check(case.answer, case.tool_call_dicts(), case.checker_context())
    results = []
    for i, case in enumerate(cases, start=1):
        results.append(run_case(system, case))
        if progress:
            progress(i, len(cases))
    return results


def evaluate(
    cases: Sequence[Case],
    baselines: Sequence[str] = (),
    config: CheckerConfig | None = None,
    progress: Callable[[str], Progress | None] | None = None,
) -> tuple[dict[str, Any], dict[str, list[CaseResult]]]:
    """Run factcheck and the named baselines over a suite and score them.

    Args:
        cases: The suite.
        baselines: Baseline names to run side by side.
        config: Checker settings.
        progress: Given a system name, returns the progress callback for its run.

    Returns:
        The JSON-ready summary (factcheck's scores at the top level with its `min_confidence`,
        `calibration` and, for cases with `error` / `in_outputs`, `by_error` / `by_difficulty`; each
        baseline's under `baselines`) and the per-case results of every system by name.
    """
    names = ["factcheck", *dict.fromkeys(b for b in baselines if b != "factcheck")]
    systems = [make_system(n, config) for n in names]
    results = {s.name: run_suite(s, cases, progress(s.name) if progress else None)
               for s in systems}
    summary = summarize(results["factcheck"])
    summary.update(class_scores(results["factcheck"]))
    min_confidence = (config or CheckerConfig()).min_confidence
    summary["min_confidence"] = min_confidence
    summary["calibration"] = round_floats(calibration_scores(results["factcheck"], min_confidence))
    if len(names) > 1:
        summary["baselines"] = {n: summarize(results[n]) for n in names[1:]}
    return summary, results
