"""Run checkers over a suite: timed checks, the replayed retry pass, and the scores."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
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


_WORKER: FactcheckSystem | None = None
"""The checker of a worker process of `run_suite_in_processes`, built once per process."""
_WARMED = False
"""Whether this worker process has warmed up (on its first chunk)."""


def _start_worker(config: CheckerConfig | None) -> None:
    """Build this worker process's checker."""
    global _WORKER
    _WORKER = FactcheckSystem(config)


def _run_chunk(cases: list[Case]) -> list[CaseResult]:
    """Check one chunk of the suite in a worker process, warming up before its first chunk only."""
    global _WARMED
    assert _WORKER is not None, "the worker was not started"
    results = run_suite(_WORKER, cases, warmup=not _WARMED)
    _WARMED = True
    return results


def run_suite_in_processes(
    cases: Sequence[Case], config: CheckerConfig | None, workers: int, progress: Progress | None = None
) -> list[CaseResult]:
    """Run factcheck over every case in `workers` processes; the results are those of `run_suite`.

    Each answer is checked on its own, so splitting the suite changes no verdict; only the check
    times (each process warms up on its own) are measured in parallel.

    Args:
        cases: The suite.
        config: Checker settings, given to each process's checker.
        workers: How many processes to check in.
        progress: Called after each chunk of cases.

    Returns:
        One result per case, in suite order.
    """
    size = max(1, min(200, len(cases) // (workers * 4)))  # four chunks a process or more, 200 cases at most
    chunks = [list(cases[i:i + size]) for i in range(0, len(cases), size)]
    results: list[CaseResult] = []
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(config,)) as pool:
        for done in pool.map(_run_chunk, chunks):
            results.extend(done)
            if progress:
                progress(len(results), len(cases))
    return results


def evaluate(
    cases: Sequence[Case],
    baselines: Sequence[str] = (),
    config: CheckerConfig | None = None,
    progress: Callable[[str], Progress | None] | None = None,
    workers: int = 1,
) -> tuple[dict[str, Any], dict[str, list[CaseResult]]]:
    """Run factcheck and the named baselines over a suite and score them.

    Args:
        cases: The suite.
        baselines: Baseline names to run side by side.
        config: Checker settings.
        progress: Given a system name, returns the progress callback for its run.
        workers: Processes to run factcheck in (the baselines run in this one); above 1, the
            verdicts and scores are the same and only the latencies are measured in parallel.

    Returns:
        The JSON-ready summary (factcheck's scores at the top level with its `min_confidence`,
        `calibration` and, for cases with `error` / `in_outputs`, `by_error` / `by_difficulty`; each
        baseline's under `baselines`) and the per-case results of every system by name.
    """
    names = ["factcheck", *dict.fromkeys(b for b in baselines if b != "factcheck")]
    results: dict[str, list[CaseResult]] = {}
    for name in names:
        tick = progress(name) if progress else None
        if name == "factcheck" and workers > 1 and len(cases) > workers:
            results[name] = run_suite_in_processes(cases, config, workers, tick)
        else:
            results[name] = run_suite(make_system(name, config), cases, tick)
    summary = summarize(results["factcheck"])
    summary.update(class_scores(results["factcheck"]))
    min_confidence = (config or CheckerConfig()).min_confidence
    summary["min_confidence"] = min_confidence
    summary["calibration"] = round_floats(calibration_scores(results["factcheck"], min_confidence))
    if len(names) > 1:
        summary["baselines"] = {n: summarize(results[n]) for n in names[1:]}
    return summary, results
