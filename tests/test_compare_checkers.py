"""bench/compare_checkers.py: the counts it scores, the answers it lists as moved, and a run against a commit."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "eval" / "data" / "mini.jsonl"


def _script():
    spec = importlib.util.spec_from_file_location("compare_checkers", ROOT / "bench" / "compare_checkers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record(wrong: bool, gold: list[tuple[int, int]], claims: list[tuple[int, int, float]], id_: str = "c") -> dict:
    return {"suite": "s", "id": id_, "wrong": wrong, "gold": gold, "claims": claims}


@pytest.mark.parametrize(
    ("records", "threshold", "expected"),
    [
        # a wrong answer caught on its span; a faithful one flagged: a false alarm
        ([record(True, [(0, 5)], [(0, 10, 0.9)]), record(False, [], [(3, 8, 0.8)])], 0.7, [1, 1, 1, 1, 1, 1]),
        # under the threshold nothing counts
        ([record(True, [(0, 5)], [(0, 10, 0.6)]), record(False, [], [(3, 8, 0.6)])], 0.7, [0, 1, 0, 1, 0, 1]),
        # a wrong answer caught off its span: the answer counts, the span does not
        ([record(True, [(0, 5), (20, 25)], [(8, 12, 0.95)])], 0.7, [1, 1, 0, 2, 0, 0]),
        # a span overlapped by one of two flagged claims
        ([record(True, [(20, 25)], [(0, 4, 0.9), (22, 30, 0.71)])], 0.7, [1, 1, 1, 1, 0, 0]),
    ],
)
def test_score_counts_answers_spans_and_false_alarms(records, threshold, expected):
    assert _script().score(records, threshold) == {"s": expected}


def test_moved_lists_the_answers_whose_verdict_changed():
    base = [record(True, [(0, 5)], [(0, 5, 0.9)], "a"), record(False, [], [], "b"), record(False, [], [], "c")]
    head = [record(True, [(0, 5)], [(0, 5, 0.5)], "a"), record(False, [], [(1, 2, 0.8)], "b"),
            record(False, [], [], "c")]
    assert _script().moved(base, head, 0.7) == ["s a (wrong): flagged -> passed", "s b (faithful): passed -> flagged"]


def test_a_commit_against_itself_moves_nothing(capsys):
    inside = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if inside.returncode != 0:
        pytest.skip("not a git checkout: there is no commit to compare with")
    status = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "factcheck"],
                            capture_output=True, text=True)
    if status.stdout.strip():
        pytest.skip("the working tree's checker differs from HEAD")
    assert _script().main(["--base", "HEAD", "--suite", str(MINI), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| mini |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == cells[2] and cells[3] == "+0, +0, +0"
    assert "0 answers moved." in out


@pytest.mark.parametrize("argv", [[], ["--base", "HEAD", "--suite", "no-such-suite.jsonl"]])
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        _script().main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("compare_checkers.py: error: ")
