"""`factcheck mutate`: inputs (suites and stored histories), determinism, exit codes, and its suites in eval."""

from __future__ import annotations

import copy
import gzip
import io
import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict
from mutate_sources import MISTAKE_SOURCES, REWRITE_SOURCES, ZH_MISTAKE_SOURCES

from factcheck.cli import main
from factcheck.eval.suite import SuiteError, load_suite, parse_case
from factcheck.mutate import mutate_cases, read_inputs
from factcheck.mutate.command import progress_bar

SOURCES = [dict(src, id=f"{name}-{i}-3") for i, (name, src) in enumerate(
    [*MISTAKE_SOURCES.items(), *REWRITE_SOURCES.items(), *(("zh-" + k, v) for k, v in ZH_MISTAKE_SOURCES.items())])]


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "faithful.jsonl"
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in SOURCES), encoding="utf-8")
    return path


def test_same_seed_same_suite_other_seed_other_choices():
    before = copy.deepcopy(SOURCES)
    first = mutate_cases(SOURCES, per_answer=2, seed=7)
    assert SOURCES == before  # the sources are never changed
    assert first == mutate_cases(SOURCES, per_answer=2, seed=7)
    assert first == mutate_cases([dict(c) for c in SOURCES], per_answer=2, seed=7)  # copies: no state kept
    assert first != mutate_cases(SOURCES, per_answer=2, seed=8)


@pytest.mark.parametrize(("options", "check"), [
    ({"per_answer": 0}, lambda out: out == []),
    ({"per_answer": 1}, lambda out: max(_per_answer(out).values()) <= 2),
    ({"lang": "zh"}, lambda out: out and {c["lang"] for c in out} == {"zh"}),
    ({"classes": ["hedge"]}, lambda out: out and {c["error"] for c in out} == {"hedge"}),
])
def test_options(options, check):
    assert check(mutate_cases(SOURCES, seed=1, **options))


def _per_answer(out):
    counts: dict[str, int] = {}
    for c in out:
        counts[c["id"].split("~")[0]] = counts.get(c["id"].split("~")[0], 0) + 1
    return counts


def test_wrong_answers_and_runs_without_calls_are_not_mutated():
    wrong = dict(SOURCES[0], hallucinated_spans=["delivered"])
    silent = dict(SOURCES[0], id="s-1-1", tool_calls=[])
    assert mutate_cases([wrong, silent]) == []


def test_unknown_class_is_an_error():
    with pytest.raises(ValueError, match="unknown class 'nope'"):
        mutate_cases(SOURCES, classes=["nope"])


def test_cli_writes_a_suite_eval_loads(suite, tmp_path, capsys):
    out = tmp_path / "mutated.jsonl.gz"
    assert main(["mutate", str(suite), "--out", str(out), "--seed", "5", "--per-answer", "2"]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith(f"mutate: {len(SOURCES)} answers read,") and str(out) in summary
    cases = load_suite([out])
    assert cases and all(c.error for c in cases)
    assert {c.hallucinated for c in cases} == {True, False}
    again = tmp_path / "again.jsonl.gz"
    assert main(["mutate", str(suite), "--out", str(again), "--seed", "5", "--per-answer", "2", "-q"]) == 0
    assert gzip.decompress(out.read_bytes()) == gzip.decompress(again.read_bytes())


@pytest.mark.parametrize("argv", [
    ["mutate", "/no/such/file.jsonl", "--out", "x.jsonl"],
    ["mutate", "{suite}", "--out", "x.jsonl", "--classes", "status_flip,nope"],
    ["mutate", "{suite}", "--out", "x.jsonl", "--per-answer", "-1"],
    ["mutate", "{suite}"],
    ["mutate", "{empty}", "--out", "x.jsonl"],
    ["mutate", "{suite}", "--out", "/no/such/dir/x.jsonl"],
])
def test_bad_input_exits_2_with_one_line(argv, suite, tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n", encoding="utf-8")
    args = [a.format(suite=suite, empty=empty) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and err[-1].startswith(("factcheck: error:", "factcheck mutate: error:"))
    assert "Traceback" not in "\n".join(err)


def _openai_history() -> list[dict]:
    return [
        {"role": "user", "content": "Where is order #W4923227?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "get_order_details", "arguments": json.dumps({"order_id": "#W4923227"})}}]},
        {"role": "tool", "tool_call_id": "c1",
         "content": json.dumps({"order_id": "#W4923227", "status": "delivered", "total": 45.2})},
        {"role": "assistant", "content": "Your order #W4923227 is delivered; it came to $45.20."},
    ]


def _langchain_history() -> list[dict]:
    call = {"name": "cancel_pending_order", "args": {"order_id": "#W4923227"}, "id": "c9"}
    return messages_to_dict([
        HumanMessage("Please cancel order #W4923227."),
        AIMessage("", tool_calls=[call]),
        ToolMessage(json.dumps({"order_id": "#W4923227", "status": "cancelled"}), tool_call_id="c9"),
        AIMessage("Your order #W4923227 has been cancelled."),
    ])


@pytest.mark.parametrize(("record", "classes"), [
    ({"id": "conv-7", "messages": _openai_history()}, {"status_flip", "digit_change"}),
    ({"thread_id": "t-2", "messages": _langchain_history()}, {"unbacked_action"}),
])
def test_stored_histories_are_read_like_audit_reads_them(tmp_path, record, classes):
    path = tmp_path / "histories.jsonl"
    path.write_text(json.dumps(record) + "\nnot json\n", encoding="utf-8")
    cases, notes = read_inputs([str(path)])
    assert len(cases) == 1 and cases[0]["tool_calls"][0]["args"] == {"order_id": "#W4923227"}
    assert notes and ":2: invalid JSON" in notes[0]
    out = mutate_cases(cases, classes=sorted(classes), per_answer=len(classes), seed=2)
    assert {c["error"] for c in out} == classes


def test_progress_bar_draws_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    pipe, tty = io.StringIO(), Tty()
    for stream in (pipe, tty):
        with progress_bar("mutate", True, stream) as update:
            for i in range(1, 4):
                update(i, 3)
    assert pipe.getvalue() == ""
    assert "mutate" in tty.getvalue()


def test_loader_accepts_in_outputs_and_error_but_no_other_extra_key():
    out = mutate_cases([SOURCES[0]], classes=["status_flip"], per_answer=1)[0]
    assert parse_case(out).in_outputs is not None
    with pytest.raises(SuiteError, match="Extra inputs"):
        parse_case(dict(out, difficulty="hard"))
