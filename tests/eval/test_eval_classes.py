"""Recall and false alarms per `error` class and for easy vs hard mistakes: JSON, text and HTML."""

from __future__ import annotations

import json

import pytest
from eval_helpers import ScriptedSystem, make_case

from factcheck.cli import main
from factcheck.eval.classes import class_scores
from factcheck.eval.html import error_classes_section, render_html
from factcheck.eval.runner import run_suite
from factcheck.eval.scoring import summarize
from factcheck.eval.tables import text_report
from factcheck.report import Verdict

CASES = [  # (answer, spans, error, in_outputs, flagged claim or None)
    ("Refund failed.", ["failed"], "status_flip", False, "failed"),
    ("Refund failed again.", ["failed again"], "status_flip", False, None),
    ("It costs $12.", ["$12"], "per_unit_as_total", True, None),
    ("It costs $13.", ["$13"], "per_unit_as_total", True, "$13"),
    ("Orders: A, B.", [], "reorder", None, "A"),
    ("Orders: B, A.", [], "reorder", None, None),
    ("It is fine.", [], None, None, None),
]


@pytest.fixture
def results():
    cases = [make_case(answer, spans, id=f"c{i}", error=error, in_outputs=easy)
             for i, (answer, spans, error, easy, _) in enumerate(CASES)]
    script = {answer: [(flag, Verdict.CONTRADICTED)] for answer, _, _, _, flag in CASES if flag}
    return run_suite(ScriptedSystem(script), cases, warmup=False)


def test_recall_and_false_alarms_per_error(results):
    summary = class_scores(results)
    by_error = summary["by_error"]
    assert list(by_error) == ["per_unit_as_total", "reorder", "status_flip"]  # the faithful case has none
    assert by_error["status_flip"] == {"cases": 2, "hallucinated": 2, "recall": 0.5, "span_recall": 0.5,
                                       "false_alarm_rate": None}
    assert by_error["reorder"]["false_alarm_rate"] == 0.5 and by_error["reorder"]["recall"] is None
    assert summary["by_difficulty"]["easy"]["recall"] == 0.5
    assert summary["by_difficulty"]["hard"]["hallucinated"] == 2


def test_text_and_html_show_the_classes(results):
    summary = {"suite": ["s"], "system": "factcheck", **summarize(results), **class_scores(results)}
    text = text_report(summary, ["s"])
    assert "factcheck by error class" in text and "easy (wrong value in the tool outputs)" in text
    row = next(line for line in text.splitlines() if line.startswith("status_flip"))
    assert row.split() == ["status_flip", "2", "2", "0.500", "0.500", "n/a"]
    section = error_classes_section(summary, [])
    assert 'id="by-error"' in section and "<td>per_unit_as_total</td>" in section
    assert section in render_html(summary, results, ["s"])


def test_a_suite_without_classes_shows_no_section():
    results = run_suite(ScriptedSystem({}), [make_case("It is fine.")], warmup=False)
    summary = {**summarize(results), **class_scores(results)}
    assert "by_error" not in summary and error_classes_section(summary, []) == ""


def test_eval_and_calibrate_accept_a_mutated_suite(tmp_path, capsys):
    source = tmp_path / "faithful.jsonl"
    rows = [{"id": f"r-{i}-1", "lang": "en", "domain": "retail", "question": "Status?", "tool_calls": [
        {"name": "get_order_details", "args": {}, "output": {"order_id": f"#W{i}923227", "status": "delivered",
                                                             "total": 45.2}, "status": "ok"}],
        "answer": f"Your order #W{i}923227 is delivered; it came to $45.20.", "hallucinated_spans": []}
        for i in range(1, 7)]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    mutated = tmp_path / "mutated.jsonl"
    assert main(["mutate", str(source), "--out", str(mutated), "-q"]) == 0
    capsys.readouterr()
    assert main(["eval", "--suite", str(mutated), "--json", "-q", "--min-confidence", "0"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert {"digit_change", "status_flip"} <= set(summary["by_error"])
    assert set(summary["by_difficulty"]) == {"easy", "hard"}
    table = tmp_path / "calibration.json"
    assert main(["calibrate", str(mutated), "--out", str(table), "-q"]) == 0
    assert "flagged facts" in capsys.readouterr().out
    assert json.loads(table.read_text(encoding="utf-8"))["fitted_on"] == [str(mutated)]
