"""`factcheck calibrate` and the calibration figures of `factcheck eval`."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

from factcheck.calibration import Calibration
from factcheck.cli import main
from factcheck.config import DEFAULT_MIN_CONFIDENCE
from factcheck.eval.suite import load_suite

MINI = Path(__file__).resolve().parent / "data" / "mini.jsonl"


def test_calibrate_writes_a_table_that_check_and_eval_read(tmp_path, capsys) -> None:
    out = tmp_path / "cal.json"
    assert main(["calibrate", str(MINI), "bundled", "--out", str(out), "-q"]) == 0
    said = capsys.readouterr().out
    table = Calibration.load(out)
    assert table.samples > 0 and table.fitted_on == [str(MINI), "bundled"] and f"{table.samples} flagged" in said
    assert main(["eval", "--suite", str(MINI), "--calibration", str(out), "--json", "-q"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["min_confidence"] == DEFAULT_MIN_CONFIDENCE and summary["calibration"]["flags"] > 0


def test_eval_reports_calibration_bins_and_thresholds(capsys) -> None:
    assert main(["eval", "--suite", str(MINI), "--json", "-q", "--min-confidence", "0.3"]) == 0
    cal = json.loads(capsys.readouterr().out)["calibration"]
    assert [a["threshold"] for a in cal["at"]] == [0.3, 0.5, 0.7, 0.9]
    assert sum(b["flags"] for b in cal["bins"]) == cal["flags"]
    assert all(0 <= b["precision"] <= 1 and b["low"] <= b["confidence"] <= b["high"] for b in cal["bins"])
    # a higher threshold never counts more flags
    counts = [a["flags"] for a in cal["at"]]
    assert counts == sorted(counts, reverse=True)
    assert main(["eval", "--suite", str(MINI), "-q"]) == 0
    assert "expected calibration error" in capsys.readouterr().out


def test_a_bad_threshold_or_table_is_a_usage_error(tmp_path, capsys) -> None:
    assert main(["eval", "--suite", str(MINI), "--min-confidence", "1.5"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    bad.write_text('{"version": 7}', encoding="utf-8")
    assert main(["eval", "--suite", str(MINI), "--calibration", str(bad), "-q"]) == 2
    assert "version 7" in capsys.readouterr().err


def test_the_real_suites_keep_their_source_and_split_by_conversation() -> None:
    fit, held = load_suite(["real-fit"]), load_suite(["real-heldout"])
    assert (len(fit), len(held)) == (632, 599)  # every answer of ../shared/real, labelled by hand
    assert all(c.source and c.license for c in fit + held)
    conversations = {c.id.rsplit("-", 1)[0] for c in fit}
    assert not conversations & {c.id.rsplit("-", 1)[0] for c in held}
    assert all(int(hashlib.sha1(conv.encode()).hexdigest(), 16) % 2 == 0 for conv in conversations)
    assert Counter(c.lang for c in fit + held)["zh"] >= 60
    assert sum(c.hallucinated for c in fit + held) == 57
