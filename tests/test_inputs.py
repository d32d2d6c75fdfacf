"""Bad input to the command is refused before any work, in one line on stderr naming the accepted shapes (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factcheck.cli import main
from factcheck.inputs import InputError, load_tool_calls

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "eval" / "data" / "mini.jsonl"
REFUND = {"name": "refund_order", "args": {"order_id": "88231"}, "output": "refund failed: 88231 was not refunded",
          "status": "ok"}
WRONG_REFUND = "Your refund for order 88231 went through."
GOOD_CALIBRATION = (ROOT / "factcheck" / "data" / "calibration.json").read_text(encoding="utf-8")
CONVERSATION = [{"role": "user", "content": "Refund 88231"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "refund_order", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "refund failed: 88231 was not refunded"},
                {"role": "assistant", "content": WRONG_REFUND}]


def _write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _check(tmp: Path, answer: str = WRONG_REFUND, tools: str = json.dumps([REFUND]), *more: str) -> list[str]:
    return ["check", "--answer", _write(tmp, "answer.txt", answer), "--tools", _write(tmp, "tools.json", tools),
            *more]


# One row per wrong input of issue 25: the argv (built in tmp), and what the one-line error must say.
BAD_INPUTS = {
    "calibration {}": (lambda t: _check(t, WRONG_REFUND, json.dumps([REFUND]), "--calibration",
                                        _write(t, "bad.json", "{}")), "not a calibration table: no 'version'"),
    "calibration list": (lambda t: ["eval", "--suite", str(MINI), "--calibration", _write(t, "c.json", "[1]")],
                         "not a calibration table: a list"),
    "calibration without weights": (lambda t: _check(t, WRONG_REFUND, json.dumps([REFUND]), "--calibration",
                                                     _write(t, "c.json", '{"version": 1, "bias": 0, "weights": {}}')),
                                    "no weights"),
    "calibration text weights": (lambda t: ["audit", _write(t, "h.jsonl", json.dumps(CONVERSATION)), "--calibration",
                                            _write(t, "c.json", '{"version": 1, "bias": 0, "weights": {"a": "x"}}')],
                                 '"weights" an object of numbers'),
    "calibration version 2": (lambda t: _check(t, WRONG_REFUND, json.dumps([REFUND]), "--calibration", _write(
        t, "c.json", GOOD_CALIBRATION.replace('"version": 1', '"version": 2', 1))), "has version 2, expected 1"),
    "tools [1, 2, 3]": (lambda t: _check(t, WRONG_REFUND, "[1, 2, 3]"), "item 0: a number is not a tool call"),
    "tools {foo: 1}": (lambda t: _check(t, WRONG_REFUND, '{"foo": 1}'), "tool call without 'name' or 'output'"),
    "tools hello": (lambda t: _check(t, WRONG_REFUND, '"hello"'), "a string is not a tool call"),
    "tools {tool_calls: 5}": (lambda t: _check(t, WRONG_REFUND, '{"tool_calls": 5}'),
                              '"tool_calls" is a number, not a list'),
    "tools null line": (lambda t: _check(t, WRONG_REFUND, json.dumps(REFUND) + "\nnull\n"),
                        "tools.json:2: null is not a tool call"),
    "tools name number": (lambda t: _check(t, WRONG_REFUND, '[{"name": 5, "output": "x"}]'),
                          '"name" is a number, not a string'),
    "tools empty file": (lambda t: _check(t, WRONG_REFUND, "\n\n"), "tools.json: empty"),
    "answer empty": (lambda t: _check(t, ""), "the answer is empty"),
    "answer blank": (lambda t: _check(t, " \n\t\n"), "the answer is empty"),
    "audit empty file": (lambda t: ["audit", _write(t, "h.jsonl", "")], "no conversation to audit"),
    "audit blank lines": (lambda t: ["audit", _write(t, "h.jsonl", "\n  \n")], "no conversation to audit"),
    "audit [1, 2, 3]": (lambda t: ["audit", _write(t, "h.jsonl", "[1, 2, 3]\n")], "no item of it is a message"),
    "audit an object": (lambda t: ["audit", _write(t, "h.jsonl", '{"a": 1}\n')], "not a conversation"),
    "eval --report missing dir": (lambda t: ["eval", "--suite", str(MINI), "--report", str(t / "no" / "r.html")],
                                  "--report"),
    "eval --report a directory": (lambda t: ["eval", "--suite", str(MINI), "--report", str(t)], "is a directory"),
    "audit --report missing dir": (lambda t: ["audit", _write(t, "h.jsonl", json.dumps(CONVERSATION)), "--report",
                                              str(t / "no" / "r.html")], "does not exist"),
    "audit --fix missing dir": (lambda t: ["audit", _write(t, "h.jsonl", json.dumps(CONVERSATION)), "--fix",
                                           str(t / "no" / "f.jsonl")], "does not exist"),
    "calibrate --out missing dir": (lambda t: ["calibrate", str(MINI), "--out", str(t / "no" / "c.json")],
                                    "--out"),
    "eval --suite nonsense": (lambda t: ["eval", "--suite", "nonsense"], "shipped: bundled, heldout"),
    "eval --report under /proc": (lambda t: ["eval", "--suite", str(MINI), "--report", "/proc/report.html"],
                                  "--report /proc/report.html: cannot be written"),
}


@pytest.mark.parametrize("row", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_before_any_work(row, tmp_path, capsys, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("work started before the input was validated")

    monkeypatch.setattr("factcheck.checker.FactChecker.check", no_work)
    build, says = BAD_INPUTS[row]
    code = main(build(tmp_path))
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("factcheck: error: ") and says in lines[0], captured.err


@pytest.mark.parametrize("row", ["tools [1, 2, 3]", "calibration {}", "audit [1, 2, 3]"])
def test_errors_name_the_accepted_shapes(row, tmp_path, capsys):
    main(BAD_INPUTS[row][0](tmp_path))
    err = capsys.readouterr().err
    assert "expected " in err and ('"name"' in err or '"version": 1' in err or '"messages"' in err)


GOOD_TOOLS = {
    "list of tool calls": json.dumps([REFUND]),
    "one tool call": json.dumps(REFUND),
    "JSON Lines": json.dumps(REFUND) + "\n\n",
    "case-format object": json.dumps({"id": "x", "tool_calls": [REFUND]}),
    "OpenAI message export": json.dumps(CONVERSATION),
    "messages object": json.dumps({"messages": CONVERSATION}),
}


@pytest.mark.parametrize("shape", list(GOOD_TOOLS))
def test_accepted_tools_shapes_flag_the_wrong_refund(shape, tmp_path, capsys):
    assert main(_check(tmp_path, WRONG_REFUND, GOOD_TOOLS[shape], "--json")) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["tool_call_count"] == 1 and report["ok"] is False and report["flagged"] == 1


def test_a_langchain_message_export_gives_its_tool_results(tmp_path):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict

    messages = messages_to_dict([HumanMessage("Refund 88231"),
                                 AIMessage("", tool_calls=[{"name": "refund_order", "args": {}, "id": "c1"}]),
                                 ToolMessage("refund failed", tool_call_id="c1")])
    calls = load_tool_calls(_write(tmp_path, "lc.json", json.dumps(messages)))
    assert calls == [{"name": "refund_order", "args": {}, "output": "refund failed", "status": "ok"}]


def test_the_python_api_still_takes_bare_values():
    from factcheck import check

    assert check("The total is 5.", tool_calls=[2, 3]).claims[0].verdict.value == "supported"
    with pytest.raises(InputError):
        load_tool_calls(str(ROOT / "pyproject.toml"))


def test_a_closed_pipe_ends_quietly(tmp_path):
    history = _write(tmp_path, "h.jsonl", "".join(json.dumps({"id": i, "messages": CONVERSATION}) + "\n"
                                                  for i in range(400)))
    proc = subprocess.Popen([sys.executable, "-m", "factcheck", "audit", "-q", "--json", history], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read().decode()
    proc.wait(timeout=300)
    assert json.loads(first)["ok"] is False
    assert err == "" and proc.returncode == 141


def test_an_internal_error_is_one_line(tmp_path, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("factcheck.checker.FactChecker.check", broken)
    assert main(_check(tmp_path)) == 2
    assert capsys.readouterr().err == "factcheck: internal error (RuntimeError: boom second line); please report it\n"


def test_an_empty_file_beside_a_conversation_is_noted_and_skipped(tmp_path, capsys):
    empty = _write(tmp_path, "empty.jsonl", "\n")
    good = _write(tmp_path, "h.jsonl", json.dumps(CONVERSATION) + "\n")
    assert main(["audit", empty, good]) == 2  # some input skipped; the rest audited
    captured = capsys.readouterr()
    assert f"{empty}: empty file (no conversation); file skipped" in captured.err
    assert "flagged turns                                      1" in captured.out


def test_checking_an_output_path_leaves_nothing_behind(tmp_path):
    from factcheck.inputs import check_output_path

    new, old = tmp_path / "new.html", tmp_path / "old.html"
    old.write_text("kept", encoding="utf-8")
    check_output_path(str(new), "--report")
    check_output_path(str(old), "--report")
    assert not new.exists() and old.read_text(encoding="utf-8") == "kept"
