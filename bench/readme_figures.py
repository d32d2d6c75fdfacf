"""The README's Figures table and printed run report, from fresh runs: the single source of both.

    python bench/readme_figures.py            # print them
    python bench/readme_figures.py --write    # put them into README.md between the readme_figures markers
    python bench/readme_figures.py --check    # exit 1 (and show the difference) when README.md disagrees

Run from the repository root, after any change to the checker, calibration or suites.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLIND = ROOT / "docs" / "blind-batches"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)

# (label with {n} for the case count, suites, baselines, also the false alarms with every flag counted)
ROWS: tuple[tuple[str, list[str], list[str], bool], ...] = (
    ("bundled ({n} cases) `factcheck eval --baseline seed-naive fuzzy`", ["bundled"], ["seed-naive", "fuzzy"], False),
    ("real-heldout ({n} real answers labelled by hand, never fitted on; two of its wrong answers, glaive-zh-168-3 "
     "and -7, were read to build the link-target check: without them 15/30)", ["real-heldout"], [], True),
    ("mutation-heldout ({n}: realistic mistakes and rewrites of real answers, never fitted on)",
     ["mutation-heldout"], [], True),
    ("blind h20-h45 ({n} cases of the first four sessions, each scored once when written, then read; each batch's "
     "and round's figures when scored: docs/blind-batches/README.md)",
     [str(BLIND / f"h{k}.jsonl") for k in (*range(20, 26), *range(27, 46))], [], True),
    ("blind h46-h57 ({n} cases at a natural error rate, written during the fifth session; scored once in pairs at "
     "its freezes: pooled 0.526 / 0.203, the session's start 0.495 / 0.218; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(46, 58)], [], True),
    ("blind h58-h67 ({n} cases at a natural error rate, written during the sixth session; scored once in pairs at "
     "five freezes: pooled 0.487 / 0.177 at the freezes, the session's start 0.500 / 0.193; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(58, 68)], [], True),
    ("blind h68-h91 ({n} cases at a natural error rate, written during the seventh session; scored once at ten "
     "freezes: pooled 0.471 / 0.210 at the freezes, the session's start 0.466 / 0.226; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(68, 92)], [], True),
    ("blind h92-h127 ({n} cases at a natural error rate, written during the eighth session; scored once in fours at "
     "nine freezes: pooled 0.470 / 0.164 at the freezes, the session's start 0.429 / 0.160; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(92, 128)], [], True),
    ("blind h128-h159 ({n} cases at a natural error rate, written during the ninth session; scored once in fours at "
     "eight freezes: pooled 0.449 / 0.182 at the freezes, the session's start 0.453 / 0.185; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(128, 160)], [], True),
    ("blind h160-h175 ({n} cases at a natural error rate, written during the tenth session; scored once in fours at "
     "four freezes: pooled 0.320 / 0.158 at the freezes, the session's start 0.320 / 0.162; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(160, 176)], [], True),
    ("blind h176-h195 ({n} cases at a natural error rate, written during the eleventh session; scored once in fours at "
     "five freezes: pooled 0.356 / 0.113 at the freezes, the session's start 0.369 / 0.123; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(176, 196)], [], True),
    ("blind h196-h215 ({n} cases at a natural error rate, written during the twelfth and thirteenth sessions; scored "
     "once in fours at five freezes: pooled 0.469 / 0.086 and 0.438 / 0.143 at the freezes, the sessions' starts "
     "0.469 / 0.086 and 0.417 / 0.143; read since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(196, 216)], [], True),
    ("blind h216-h1512 ({n} cases at a natural error rate, written during the fourteenth to fiftieth sessions; "
     "scored once in fours at four, five, four, five, seven, five, four, five, five, five, seven, five, seven, "
     "eight, six, five, seven, seven, eight, seven, eight, nine, twelve, six, ten, ten, seven, four, six, six, five, "
     "five, seven, six, eight, six and four freezes: "
     "pooled "
     "0.477 / 0.111, 0.438 / 0.139, 0.398 / 0.143, "
     "0.414 / 0.123, 0.479 / 0.146, 0.419 / 0.123, 0.453 / 0.115, 0.350 / 0.145, 0.381 / 0.134, 0.475 / 0.125, "
     "0.429 / 0.136, 0.500 / 0.152, 0.500 / 0.136, 0.434 / 0.134, 0.479 / 0.132, 0.475 / 0.109, 0.406 / 0.122, "
     "0.464 / 0.124, 0.492 / 0.107, 0.535 / 0.102, 0.500 / 0.117, 0.576 / 0.134, 0.518 / 0.121, 0.495 / 0.125, "
     "0.512 / 0.119, 0.516 / 0.112, 0.509 / 0.107, 0.522 / 0.123, 0.495 / 0.111, 0.549 / 0.117, 0.552 / 0.096, "
     "0.493 / 0.104, 0.550 / 0.110, 0.529 / 0.120, 0.486 / 0.099, 0.529 / 0.103 and 0.500 / 0.109 "
     "at the freezes, the "
     "sessions' "
     "starts "
     "0.469 / 0.109, "
     "0.450 / 0.156, "
     "0.398 / 0.141, 0.406 / 0.123, 0.484 / 0.147, 0.419 / 0.123, 0.453 / 0.115, 0.350 / 0.142, 0.375 / 0.138, "
     "0.481 / 0.127, 0.424 / 0.137, 0.500 / 0.155, 0.496 / 0.142, 0.430 / 0.138, 0.484 / 0.130, 0.475 / 0.111, "
     "0.406 / 0.121, 0.464 / 0.124, 0.488 / 0.106, 0.527 / 0.103, 0.498 / 0.117, 0.568 / 0.134, 0.518 / 0.120, "
     "0.495 / 0.125, 0.509 / 0.119, 0.519 / 0.113, 0.509 / 0.112, 0.522 / 0.126, 0.495 / 0.112, 0.551 / 0.117, "
     "0.555 / 0.097, 0.489 / 0.104, 0.550 / 0.110, 0.531 / 0.122, 0.484 / 0.101, 0.529 / 0.104 and 0.500 / 0.109; "
     "read "
     "since)",
     [str(BLIND / f"h{k}.jsonl") for k in range(216, 1513)], [], True),
    ("heldout ({n}, fitted on)", ["heldout"], [], True),
)


WORKERS = min(2, os.cpu_count() or 1)
"""Processes each suite is checked in (verdicts do not depend on it)."""


def _scores(suites: list[str], baselines: list[str]) -> tuple[dict, float | None]:
    """The suite's summary at the default threshold, and its false-alarm rate at min_confidence 0.

    One run gives both: every flag keeps its confidence, and at 0 each flagged fact counts.
    """
    from factcheck.eval.calibrate import calibration_scores
    from factcheck.eval.runner import evaluate
    from factcheck.eval.suite import load_suite

    summary, results = evaluate(load_suite(suites), baselines=baselines, workers=WORKERS)
    at_zero = calibration_scores(results["factcheck"], 0.0)["at"][0]
    assert at_zero["threshold"] == 0.0
    rate = at_zero["false_alarm_rate"]
    return summary, None if rate is None else round(rate, 4)


def figures_table() -> str:
    """The Figures table, one row per suite, at the default threshold."""
    lines = ["| suite | answers P / R | spans R | false alarms on faithful answers |", "|---|---|---|---|"]
    for label, suites, baselines, before in ROWS:
        s, rate = _scores(suites, baselines)
        answers = s["answers"]
        alarms = f"{answers['false_alarm_rate']:.3f}"
        if baselines:
            rates = " / ".join(f"{s['baselines'][b]['answers']['false_alarm_rate']:.3f}" for b in baselines)
            alarms += f" (baselines {rates})"
        if before:
            alarms += f" ({rate:.3f} at min_confidence 0)"
        precision = "n/a" if answers["precision"] is None else f"{answers['precision']:.3f}"
        lines.append(f"| {label.format(n=s['cases'])} | {precision} / {answers['recall']:.3f} | "
                     f"{s['spans']['recall']:.3f} | {alarms} |")
    return "\n".join(lines)


def run_report(readme: str) -> str:
    """What `print(get_run_report(out))` prints after the README's agent example, as a text block."""
    agent = next(code for code in BLOCK.findall(readme) if "FactCheckMiddleware" in code)
    done = subprocess.run([sys.executable, "-c", agent + "\nprint(get_run_report(out))\n"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, check=True)
    return "```text\n" + done.stdout + "```"


PARTS = {"figures": lambda readme: figures_table(), "run-report": run_report}
"""The README parts this script writes, each between `<!-- readme_figures: NAME -->` and `<!-- /readme_figures -->`."""
_PART = re.compile(r"(<!-- readme_figures: ([\w-]+) -->\n)(.*?)(\n<!-- /readme_figures -->)", re.DOTALL)


def fresh(readme: str) -> str:
    """The README with every part replaced by a fresh run's."""
    def part(m: re.Match[str]) -> str:
        return m.group(1) + PARTS[m.group(2)](readme) + m.group(4)

    return _PART.sub(part, readme)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="update README.md")
    mode.add_argument("--check", action="store_true", help="exit 1 when README.md disagrees with a fresh run")
    args = parser.parse_args(argv)
    old = README.read_text(encoding="utf-8")
    new = fresh(old)
    if args.write:
        README.write_text(new, encoding="utf-8")
        print("README.md " + ("updated" if new != old else "already up to date"))
    elif args.check:
        if new != old:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "README.md",
                                                       "fresh run"))
            return 1
        print("README.md agrees with a fresh run")
    else:
        print("\n\n".join(m.group(3) for m in _PART.finditer(new)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # this checkout's factcheck, not an installed one
    sys.exit(main())
