"""Running a suite in worker processes gives the serial run's verdicts, checked in other processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from eval_helpers import MINI

from factcheck.config import CheckerConfig
from factcheck.eval import runner
from factcheck.eval.runner import FactcheckSystem, run_suite, run_suite_in_processes
from factcheck.eval.suite import load_suite


def verdicts(results: list[runner.CaseResult]) -> list[tuple[str, list[tuple[int, int, str, float | None]]]]:
    return [(r.case.id, [(c.start, c.end, c.verdict.value, c.confidence) for c in r.report.claims]) for r in results]


@pytest.mark.parametrize("workers", [2, 3])
def test_processes_give_the_serial_verdicts_in_suite_order(workers: int, tmp_path: Path, monkeypatch) -> None:
    started = tmp_path / "pids"
    start = runner._start_worker

    def recording_start(config: CheckerConfig | None) -> None:
        with started.open("a") as f:
            f.write(f"{os.getpid()}\n")
        start(config)

    monkeypatch.setattr(runner, "_start_worker", recording_start)
    cases = load_suite([MINI]) * 3
    config = CheckerConfig(min_confidence=0.0)
    ticks: list[tuple[int, int]] = []
    parallel = run_suite_in_processes(cases, config, workers, progress=lambda done, total: ticks.append((done, total)))
    serial = run_suite(FactcheckSystem(config), cases)
    assert [r.case.id for r in parallel] == [c.id for c in cases]
    assert verdicts(parallel) == verdicts(serial)
    assert any(c.verdict.flagged for r in parallel for c in r.report.claims)
    pids = set(started.read_text().split())
    assert 1 <= len(pids) <= workers and str(os.getpid()) not in pids
    assert ticks[-1] == (len(cases), len(cases)) and [d for d, _ in ticks] == sorted(d for d, _ in ticks)


def test_evaluate_with_workers_scores_as_the_serial_run() -> None:
    cases = load_suite([MINI])
    one, _ = runner.evaluate(cases, baselines=["fuzzy"])
    two, _ = runner.evaluate(cases, baselines=["fuzzy"], workers=2)
    for key in ("answers", "spans", "end_to_end", "calibration", "by_kind"):
        if key == "by_kind":
            for block in (*one[key].values(), *two[key].values()):
                block.pop("latency_ms")
        assert one[key] == two[key]
    assert one["baselines"]["fuzzy"]["answers"] == two["baselines"]["fuzzy"]["answers"]
