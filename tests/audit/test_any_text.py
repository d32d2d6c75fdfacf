"""`factcheck audit` handles any text it reads: lone surrogates, UTF-16 with a byte order mark."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import histories as h
import pytest

from factcheck.audit.lines import read_lines

ROOT = Path(__file__).resolve().parents[2]
LONE = [{"role": "user", "content": "hi \ud800"},
        {"role": "assistant", "content": f"Your image: {h.FAKE_IMG} \ud800 done."}]


def audit(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "factcheck", "audit", *argv], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=300)


@pytest.fixture
def lone(tmp_path: Path) -> Path:
    path = tmp_path / "lone.jsonl"  # json.dumps escapes the surrogate as \ud800: valid JSON, read back lone
    path.write_text("".join(json.dumps(r) + "\n" for r in [LONE, h.seed_001(), LONE]), encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", ["text", "json", "report", "fix"])
def test_a_lone_surrogate_never_stops_the_output(lone, tmp_path, mode):
    extra = {"text": [], "json": ["--json"], "report": ["--report", str(tmp_path / "r.html")],
             "fix": ["--fix", str(tmp_path / "fixed.jsonl")]}[mode]
    done = audit(str(lone), *extra)
    assert done.returncode == 1, done.stderr  # flagged turns, no crash
    assert "Traceback" not in done.stderr
    if mode == "json":
        records = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(records) == 1 + 3 + 1  # every turn printed
        assert "\ud800" in records[0]["report"]["answer"]  # read back as it was
    elif mode == "text":
        assert "lone.jsonl:3 " in done.stdout and "flagged turns                                      3" in done.stdout
    elif mode == "report":
        assert "\ufffd" in (tmp_path / "r.html").read_text(encoding="utf-8")
    else:
        fixed = (tmp_path / "fixed.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(fixed) == 3 and "\ud800" in json.dumps(json.loads(fixed[0]), ensure_ascii=False)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_read_and_named_once(tmp_path, codec):
    records = [h.seed_001(), h.clean_history(3)]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    utf8 = tmp_path / "u8.jsonl"
    utf8.write_text(text, encoding="utf-8")
    wide = tmp_path / "u16.jsonl"
    wide.write_bytes(text.encode(codec) if codec == "utf-16" else b"\xfe\xff" + text.encode(codec))
    expected, got = audit(str(utf8), "--json"), audit(str(wide), "--json")
    strip = [{**json.loads(line), "file": ""} for line in expected.stdout.splitlines()]
    assert [{**json.loads(line), "file": ""} for line in got.stdout.splitlines()] == strip
    assert got.stderr.count("UTF-16 file") == 1 and got.returncode == expected.returncode == 1


def test_fix_of_a_utf16_file_keeps_it_utf16(tmp_path):
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [h.clean_history(2), h.seed_001()])
    wide = tmp_path / "u16.jsonl"
    wide.write_bytes(text.encode("utf-16"))
    fixed = tmp_path / "fixed.jsonl"
    assert audit(str(wide), "--fix", str(fixed)).returncode == 1
    before = wide.read_bytes().decode("utf-16").splitlines(True)
    after = fixed.read_bytes().decode("utf-16").splitlines(True)
    assert after[0] == before[0] and after[1] != before[1]  # the clean line byte-identical, the flagged one fixed
    assert h.FAKE_IMG not in after[1] and json.loads(after[1])


def test_lines_are_streamed(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b'{"messages": []}\n' * 1_000_001)
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_lines(str(path)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 1_000_001
    assert peak < path.stat().st_size / 10  # 17 MB of lines, read one at a time


def test_a_10000_digit_number_in_a_line_is_read_as_text(tmp_path):
    huge = "9" * 10_000
    call = {"id": "c1", "type": "function", "function": {"name": "get_balance",
                                                         "arguments": '{"n": ' + huge + "}"}}
    messages = [{"role": "user", "content": "balance?"}, {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "content": '{"balance": ' + huge + "}"},
                {"role": "assistant", "content": f"Your balance is {huge} dollars."}]
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps({"messages": messages, "total": 0}).replace('"total": 0', '"total": ' + huge) + "\n",
                    encoding="utf-8")
    done = audit(str(path), "--json", "--fix", str(tmp_path / "fixed.jsonl"))
    assert "Traceback" not in done.stderr and "line skipped" not in done.stderr
    assert "number(s) longer than 4,300 digits read as text" in done.stderr  # the line's
    assert "longer than 1,000 digits (up to 10,000) not read" in done.stderr  # the answer's
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["report"]["answer"].endswith("dollars.")
