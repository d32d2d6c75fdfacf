"""False alarms a rewrite class adds: each rewrite of mutation-heldout against its own source answer, at threshold 0.

Prints per rewrite class the share of source answers flagged, of rewrites flagged, and the difference.
Usage: python bench/mutation_paired.py FAITHFUL_HELDOUT.jsonl (written by bench/mutation_sources.py)
"""

import gzip
import json
import sys
from collections import defaultdict

from factcheck.checker import FactChecker
from factcheck.config import CheckerConfig
from factcheck.eval.suite import bundled_suite_path
from factcheck.mutate import REWRITES


def main() -> None:
    checker = FactChecker(CheckerConfig(min_confidence=0.0))
    with open(sys.argv[1], encoding="utf-8") as f:
        sources = {c["id"]: c for c in map(json.loads, f)}

    def flagged(case: dict) -> bool:
        report = checker.check(case["answer"], tool_calls=case["tool_calls"],
                               context=[case["question"], *case.get("context", [])])
        return not report.ok

    seen: dict[str, bool] = {}
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    with gzip.open(bundled_suite_path("mutation-heldout"), "rt", encoding="utf-8") as f:
        for case in map(json.loads, f):
            if case["error"] not in REWRITES:
                continue
            source = case["id"].split("~")[0]
            if source not in seen:
                seen[source] = flagged(sources[source])
            row = rows[case["error"]]
            row[0] += 1
            row[1] += seen[source]
            row[2] += flagged(case)
    for name, (n, before, after) in rows.items():
        print(f"{name:<16} {n:>4}  sources {before / n:.3f}  rewrites {after / n:.3f}  "
              f"added {(after - before) / n:+.3f}")


if __name__ == "__main__":
    main()
