"""The progress line: rate and time left on a terminal, nothing on a pipe or with --quiet."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from factcheck.progress import ProgressLine


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream, enabled, drawn", [(Tty(), True, True), (Tty(), False, False),
                                                     (io.StringIO(), True, False)])
def test_drawn_only_on_a_terminal(stream, enabled, drawn, monkeypatch):
    monkeypatch.setattr("factcheck.progress._REFRESH_S", 0.0)
    line = ProgressLine("eval", "cases", stream=stream, enabled=enabled)
    for i in range(0, 21):
        line(i, 20)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    assert ("20/20" in text and "cases/s" in text and "left" in text) == drawn
    assert bool(text) == drawn


def test_steps_inside_an_item_get_their_own_line_that_goes_with_the_item(monkeypatch):
    monkeypatch.setattr("factcheck.progress._REFRESH_S", 0.0)
    stream = Tty()
    line = ProgressLine("audit", "conversations", stream=stream)
    line(0, 2)
    for turn in range(1, 4):
        line.step("h.jsonl:1: turn", turn, 3)
    line(1, 2)
    after = len(stream.getvalue())
    line(2, 2)
    text = stream.getvalue()
    assert "h.jsonl:1: turn" in text and "3/3" in text
    assert "h.jsonl:1: turn" not in text[after:]


def test_a_pipe_never_loads_rich():
    code = ("import io, sys\nfrom factcheck.progress import ProgressLine\n"
            "line = ProgressLine('x', stream=io.StringIO())\nline(1, 2)\nline(2, 2)\n"
            "assert 'rich' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_an_error_mid_run_finishes_the_line_before_its_message(monkeypatch):
    from pathlib import Path

    from factcheck.cli import main
    from factcheck.progress import _LIVE

    calls = []

    def breaks_later(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 6:  # after the warm-up, with the line drawn
            raise RuntimeError("boom")
        return real(self, *args, **kwargs)

    from factcheck.checker import FactChecker

    real = FactChecker.check
    monkeypatch.setattr(FactChecker, "check", breaks_later)
    monkeypatch.setattr("factcheck.progress._REFRESH_S", 0.0)
    stream = Tty()
    monkeypatch.setattr("sys.stderr", stream)
    mini = Path(__file__).parent / "eval" / "data" / "mini.jsonl"
    assert main(["eval", "--suite", str(mini)]) == 2
    text = stream.getvalue()
    assert "\x1b[?25l" in text  # the live line hid the cursor...
    shown = text.rindex("\x1b[?25h")  # ...and gave it back before the message, which ends the output
    assert text.endswith("factcheck: internal error (RuntimeError: boom); please report it\n")
    assert shown < text.index("factcheck: internal error") and not _LIVE
