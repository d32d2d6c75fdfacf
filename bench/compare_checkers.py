"""Two checkers on the same suites, side by side: what each catches and flags wrongly, and every answer that moved.

    python bench/compare_checkers.py --base 31a2ddb                  # the working tree against a commit, shipped suites
    python bench/compare_checkers.py --base 31a2ddb --suite docs/blind-batches/h1083.jsonl --suite real-heldout

Run from the repository root. The base is checked out into a temporary git worktree (removed afterwards) and each
tree checks every case once, at min_confidence 0, in its own processes; a claim counts when its confidence reaches
--threshold, and a gold span is caught when a counted claim overlaps it. Both trees read the same suite files (a
shipped suite's name is the head tree's file). This is how a candidate check is measured before it is kept: on the
read batches and the shipped suites, then once on blind batches written after it was frozen.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("bundled", "heldout", "real-fit", "real-heldout", "mutation-fit", "mutation-heldout")
"""The suites compared when none is given."""

_CHECKER: Any = None


def _start() -> None:
    """Make this process's checker once (every flag kept: the threshold is applied when scoring)."""
    global _CHECKER
    from factcheck.checker import FactChecker
    from factcheck.config import CheckerConfig

    _CHECKER = FactChecker(CheckerConfig(min_confidence=0.0))


def _verdict(item: tuple[str, Any]) -> dict[str, Any]:
    """One case's gold spans and each flagged claim's span and confidence."""
    from factcheck.eval.suite import span_ranges

    suite, case = item
    report = _CHECKER.check(case.answer, case.tool_call_dicts(), case.checker_context())
    # a claim's confidence is its flagged facts' highest, as `factcheck eval` reads it (eval.calibrate._claim_flags)
    claims = [(c.start, c.end, 1.0 if c.confidence is None else c.confidence)
              for c in report.claims if any(f.verdict.flagged for f in c.facts)]
    return {"suite": suite, "id": case.id, "wrong": case.hallucinated,
            "gold": span_ranges(case.answer, case.hallucinated_spans), "claims": claims}


def verdicts(files: list[str], workers: int) -> list[dict[str, Any]]:
    """Check every case of the suite files with the factcheck this process imports.

    Args:
        files: `label=path` of each suite file (the label names its results).
        workers: Processes to check in.

    Returns:
        One record per case, in suite order.
    """
    from factcheck.eval.suite import load_suite

    named = [f.split("=", 1) for f in files]
    items = [(label, case) for label, f in named for case in load_suite([f])]
    with Pool(workers, initializer=_start) as pool:
        return pool.map(_verdict, items, chunksize=20)


def score(records: list[dict[str, Any]], threshold: float) -> dict[str, list[int]]:
    """Per suite: wrong answers caught, wrong answers, spans caught, spans, false alarms, faithful answers.

    Args:
        records: From `verdicts`.
        threshold: The confidence a claim needs to count.

    Returns:
        The six counts of each suite.
    """
    out: dict[str, list[int]] = {}
    for r in records:
        counts = out.setdefault(r["suite"], [0] * 6)
        flagged = [(s, e) for s, e, conf in r["claims"] if conf >= threshold]
        if r["wrong"]:
            counts[0] += bool(flagged)
            counts[1] += 1
            counts[2] += sum(any(s < ge and gs < e for s, e in flagged) for gs, ge in r["gold"])
            counts[3] += len(r["gold"])
        else:
            counts[4] += bool(flagged)
            counts[5] += 1
    return out


def moved(base: list[dict[str, Any]], head: list[dict[str, Any]], threshold: float) -> list[str]:
    """The answers flagged by one checker and not the other, as lines a person reads."""
    lines = []
    for b, h in zip(base, head, strict=True):
        was, now = (any(conf >= threshold for _, _, conf in r["claims"]) for r in (b, h))
        if was != now:
            what = "wrong" if h["wrong"] else "faithful"
            lines.append(f"{h['suite']} {h['id']} ({what}): {'flagged' if was else 'passed'} -> "
                         f"{'flagged' if now else 'passed'}")
    return lines


def _run_tree(tree: Path, files: list[str], workers: int) -> list[dict[str, Any]]:
    """`verdicts` in a fresh interpreter that imports factcheck from `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--verdicts", "--workers", str(workers),
                           *files], env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no error output"])[-1]
        raise SystemExit(f"checking with {tree} failed: {last}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _files(suites: list[str]) -> list[str]:
    """`label=path` of each suite: a shipped suite's name is this tree's file, another file is labelled by its stem."""
    sys.path.insert(0, str(ROOT))
    from factcheck.eval.suite import BUNDLED_SUITES, bundled_suite_path

    return [f"{s}={bundled_suite_path(s)}" if s in BUNDLED_SUITES
            else f"{Path(s).name.split('.')[0]}={Path(s).resolve()}" for s in suites]


def _table(base: dict[str, list[int]], head: dict[str, list[int]]) -> str:
    """The counts of both checkers and their differences, as a markdown table."""
    rows = ["| suite | base: wrong caught, spans, false alarms | head | head − base |", "|---|---|---|---|"]
    for suite, b in base.items():
        h = head[suite]
        rows.append(f"| {suite} | {b[0]}/{b[1]}, {b[2]}/{b[3]}, {b[4]}/{b[5]} | {h[0]}/{h[1]}, {h[2]}/{h[3]}, "
                    f"{h[4]}/{h[5]} | {h[0] - b[0]:+d}, {h[2] - b[2]:+d}, {h[4] - b[4]:+d} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="compare_checkers.py", description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the commit (or any git revision) to compare the working tree with")
    parser.add_argument("--suite", action="append", default=[], help="a suite name or file (repeatable)")
    parser.add_argument("--threshold", type=float, default=0.7, help="the confidence a claim needs to count")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes per tree")
    parser.add_argument("--show", type=int, default=40, help="most moved answers to list")
    parser.add_argument("--verdicts", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.verdicts:  # a tree's own run: one JSON record a line
        for record in verdicts(args.files, args.workers):
            print(json.dumps(record))
        return 0
    if not args.base:
        parser.error("--base is required")
    missing = [s for s in args.suite if s not in SHIPPED and not Path(s).exists()]
    if missing:
        parser.error(f"no suite {missing[0]!r}: give a shipped suite's name ({', '.join(SHIPPED)}) or a file")
    files = _files(args.suite or list(SHIPPED))
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.base],
                               capture_output=True, text=True, check=False)
        if added.returncode != 0:
            parser.error(f"cannot check out {args.base}: {added.stderr.strip()}")
        try:
            base = _run_tree(tree, files, args.workers)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           capture_output=True, check=False)
    head = _run_tree(ROOT, files, args.workers)
    print(_table(score(base, args.threshold), score(head, args.threshold)))
    lines = moved(base, head, args.threshold)
    print(f"\n{len(lines)} answer{'' if len(lines) == 1 else 's'} moved" + (":" if lines else "."))
    for line in lines[: args.show]:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
