"""The `factcheck` command: `check` as a CI gate and `eval` over a suite."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from factcheck.cli import load_context, load_tool_calls, main

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "eval" / "data" / "mini.jsonl"
REFUND_FAILED = {"name": "refund_order", "args": {"order_id": "88231"},
                 "output": {"order_id": "88231", "refund_status": "FAILED", "amount": 299.0},
                 "status": "ok"}
FLIPPED = "您好，已为您成功退款，299 元将原路退回。"
FAITHFUL = "抱歉，订单 88231 退款失败，299 元暂时无法退回。"


@pytest.fixture
def files(tmp_path):
    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_check_exit_status_is_a_ci_gate(files, capsys):
    tools = files("tools.json", json.dumps([REFUND_FAILED], ensure_ascii=False))
    assert main(["check", "--answer", files("ok.txt", FAITHFUL), "--tools", tools]) == 0
    assert capsys.readouterr().out.startswith("fact check: OK")
    assert main(["check", "--answer", files("bad.txt", FLIPPED), "--tools", tools]) == 1
    out = capsys.readouterr().out
    assert out.startswith("fact check: FLAGGED") and "contradicted" in out


def test_check_json_output_is_the_report(files, capsys):
    tools = files("tools.json", json.dumps([REFUND_FAILED], ensure_ascii=False))
    assert main(["check", "--answer", files("a.txt", FLIPPED), "--tools", tools, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["answer"] == FLIPPED and report["tool_call_count"] == 1
    assert report["lang"] == "zh"
    flagged = [c for c in report["claims"] if c["verdict"] in ("contradicted", "unsupported")]
    assert flagged and any("成功" in c["text"] for c in flagged)


def test_check_reads_stdin_jsonl_and_case_objects(files, capsys, monkeypatch):
    jsonl = files("tools.jsonl", json.dumps({"name": "noop", "args": {}, "output": "pong",
                                              "status": "ok"}) + "\n\n"
                  + json.dumps(REFUND_FAILED, ensure_ascii=False) + "\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(FLIPPED))
    assert main(["check", "--answer", "-", "--tools", jsonl, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["tool_call_count"] == 2
    case = files("case.json", json.dumps({"id": "x", "tool_calls": [REFUND_FAILED]},
                                         ensure_ascii=False))
    assert main(["check", "--answer", files("a.txt", FAITHFUL), "--tools", case]) == 0
    capsys.readouterr()
    assert main(["check", "--answer", files("b.txt", FAITHFUL), "--tools", case,
                 "--lang", "mixed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["lang"] == "mixed"


def test_check_context_backs_facts(files, capsys):
    answer = files("a.txt", "已将收货地址改为上海市徐汇区漕溪北路 88 号 3 栋 502。")
    tools = files("t.json", json.dumps([{"name": "update_address", "args": {},
                                         "output": {"ok": True}, "status": "ok"}]))
    ctx = files("ctx.json", json.dumps(["请把地址改成上海市徐汇区漕溪北路 88 号 3 栋 502"],
                                       ensure_ascii=False))
    with_ctx = main(["check", "--answer", answer, "--tools", tools, "--context", ctx, "--min-confidence", "0"])
    capsys.readouterr()
    without = main(["check", "--answer", answer, "--tools", tools, "--min-confidence", "0"])
    assert (with_ctx, without) == (0, 1)


def test_tool_and_context_file_formats(files):
    assert load_tool_calls(files("a.json", '{"name": "t", "output": 1}')) == [
        {"name": "t", "output": 1}]
    assert load_context(files("c.txt", "plain text\nline 2")) == ["plain text\nline 2"]
    assert load_context(files("d.json", '["a", "b"]')) == ["a", "b"]
    assert load_context(files("e.json", '{"a": 1}')) == ['{"a": 1}']


def test_check_bad_input_exits_2_naming_file_and_line(files, capsys):
    answer = files("a.txt", FAITHFUL)
    bad = files("t.jsonl", '{"name": "a", "output": "x"}\n{"name": \n')
    assert main(["check", "--answer", answer, "--tools", bad]) == 2
    assert "t.jsonl:2: invalid JSON" in capsys.readouterr().err
    assert main(["check", "--answer", str(Path(answer).with_name("nope")), "--tools", bad]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["check", "--answer", "-", "--tools", "-"]) == 2
    assert main(["check", "--answer", answer]) == 2  # argparse: --tools missing
    assert "--tools" in capsys.readouterr().err


def test_eval_json_has_the_documented_shape(capsys):
    assert main(["eval", "--suite", str(MINI), "--json", "--baseline", "seed-naive",
                 "--baseline", "fuzzy"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    out = json.loads(captured.out)
    assert out["cases"] == 8 and out["suite"] == [str(MINI)]
    assert set(out["answers"]) >= {"precision", "recall", "f1", "false_alarm_rate"}
    assert set(out["spans"]) >= {"precision", "recall", "f1"}
    assert set(out["end_to_end"]) >= {"before", "after", "retry_rate"}
    assert set(out["latency_ms"]) >= {"p50", "p95"}
    assert out["end_to_end"]["before"] == 4 / 8
    assert list(out["baselines"]) == ["seed-naive", "fuzzy"]
    for scores in out["baselines"].values():
        assert set(scores) >= {"cases", "answers", "spans", "end_to_end", "latency_ms", "by_lang"}
    assert set(out["by_lang"]) == {"zh", "en", "mixed"}
    tallies = out["answers"]
    assert tallies["tp"] + tallies["fp"] + tallies["fn"] + tallies["tn"] == 8


def test_eval_table_and_html_report(tmp_path, capsys):
    html = tmp_path / "out.html"
    assert main(["eval", "--suite", str(MINI), "--baseline", "fuzzy", "--report", str(html)]) == 0
    text = capsys.readouterr().out
    assert "factcheck eval: 8 cases (zh 3, en 4, mixed 1), 4 hallucinated" in text
    header = next(line for line in text.splitlines() if "seed" in line or "fuzzy" in line)
    assert header.split() == ["factcheck", "fuzzy"]
    for label in ("false-alarm rate", "hallucinated after", "faithful sent to retry", "p95"):
        assert label in text
    assert "by language" in text and "by kind" in text and f"HTML report: {html}" in text
    assert main(["eval", "--suite", str(MINI), "--json", "--report", str(html)]) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    page = html.read_text(encoding="utf-8")
    missed, wrong = spans["gold"] - spans["caught"], spans["flagged"] - spans["right"]
    assert re.search(rf"Missed: {missed} spans? in \d+ cases?", page)
    assert re.search(rf"Flagged wrongly: {wrong} claims? in \d+ cases?", page)
    assert page.count('class="false-alarm"') == wrong
    assert page.count('class="gold missed-span"') == missed


def test_eval_is_deterministic_apart_from_latency(capsys):
    runs = []
    for _ in range(2):
        main(["eval", "--suite", str(MINI), "--json", "--baseline", "fuzzy"])
        out = json.loads(capsys.readouterr().out)
        out.pop("latency_ms")
        out["baselines"]["fuzzy"].pop("latency_ms")
        for block in (*out["by_lang"].values(), *out["by_kind"].values()):
            block.pop("latency_ms")
        runs.append(out)
    assert runs[0]["answers"] == runs[1]["answers"] and runs[0]["by_kind"] == runs[1]["by_kind"]


def test_eval_in_processes_gives_the_same_verdicts(capsys):
    outs = []
    for workers in ("1", "2"):
        assert main(["eval", "--suite", str(MINI), "--json", "--workers", workers]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["cases"] == 8
    for key in ("answers", "spans", "end_to_end", "calibration"):
        assert outs[0][key] == outs[1][key]


@pytest.mark.parametrize("workers", ["0", "two", "-1"])
def test_eval_bad_workers_exits_2_in_one_line(workers, capsys):
    assert main(["eval", "--suite", str(MINI), "--workers", workers]) == 2
    err = capsys.readouterr().err
    assert "--workers" in err.strip().splitlines()[-1] and "Traceback" not in err  # argparse: usage, then the error


def test_eval_bad_suite_and_bad_baseline(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(MINI.read_text(encoding="utf-8").splitlines()[0] + "\nnot json\n",
                   encoding="utf-8")
    assert main(["eval", "--suite", str(bad)]) == 2
    assert "bad.jsonl:2: invalid JSON" in capsys.readouterr().err
    assert main(["eval", "--suite", str(MINI), "--baseline", "nope"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_help_and_console_script():
    assert main(["--help"]) == 0
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^factcheck = "factcheck\.cli:main"$', pyproject, re.M)
    proc = subprocess.run([sys.executable, "-m", "factcheck.cli", "eval", "--suite", str(MINI),
                           "--json", "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and json.loads(proc.stdout)["cases"] == 8


@pytest.mark.parametrize("argv", [["--help"], ["eval", "--help"], ["check", "--help"]])
def test_help_loads_no_checker(argv: list[str]) -> None:
    code = (
        "import sys\n"
        "from factcheck.cli import main\n"
        f"code = main({argv!r})\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'spacy', 'langchain_core', 'rich'})\n"
        "assert code == 0 and not heavy, (code, heavy)\n"
        "assert 'factcheck.checker' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usage: factcheck" in done.stdout


def test_check_json_has_ok_and_counts_and_text_says_1_tool_call(files, capsys):
    tools = files("tools.json", json.dumps([REFUND_FAILED], ensure_ascii=False))
    assert main(["check", "--answer", files("bad.txt", FLIPPED), "--tools", tools, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert list(report)[:3] == ["ok", "flagged", "uncertain"]
    assert report["ok"] is False
    assert report["flagged"] == sum(c["verdict"] in ("contradicted", "unsupported") for c in report["claims"]) >= 1
    assert main(["check", "--answer", files("ok.txt", FAITHFUL), "--tools", tools]) == 0
    assert "(lang=zh, 1 tool call)" in capsys.readouterr().out


def test_help_names_every_shipped_suite_from_the_registry(capsys, monkeypatch):
    from factcheck.eval.suite import BUNDLED_SUITES

    monkeypatch.setitem(BUNDLED_SUITES, "added-later", "added-later.jsonl")
    assert main(["eval", "--help"]) == 0
    help_text = "".join(capsys.readouterr().out.split())  # argparse may wrap a name at its hyphen
    assert all(name in help_text for name in BUNDLED_SUITES)
    assert main(["eval", "--suite", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "nonsense" in err and all(name in err for name in BUNDLED_SUITES)


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["audit", "--help"]])
def test_help_documents_the_exit_codes(argv, capsys):
    assert main(argv) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "0 nothing flagged, 1 something flagged, 2 bad input" in text
