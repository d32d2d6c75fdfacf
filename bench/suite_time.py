"""CPU time of `check()` over a suite, three passes, for the factcheck tree given (to pair two trees run by run).

Run the two trees in turn, A B A B ..., five times each after a warm-up, and quote the median of the A/B
ratios of the whole-process CPU time (e.g. `/usr/bin/time -f %U+%S` around each run):

    python bench/suite_time.py . factcheck/eval/heldout.jsonl
    python bench/suite_time.py /path/to/old/tree factcheck/eval/heldout.jsonl

Prints the CPU seconds and the per-answer p50 in milliseconds. A suite is a case-format .jsonl (or .jsonl.gz),
or the lines of ../shared/real/*.jsonl concatenated.
"""

import gzip
import json
import statistics
import sys
import time


def main() -> None:
    tree, path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, tree)  # that tree's factcheck, not an installed one
    from factcheck.checker import FactChecker

    checker = FactChecker()
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        cases = [json.loads(line) for line in lines if line.strip()]
    per_answer = []
    started = time.process_time()
    for _ in range(3):
        for case in cases:
            at = time.perf_counter()
            checker.check(case["answer"], case["tool_calls"], [case.get("question", ""), *(case.get("context") or [])])
            per_answer.append(time.perf_counter() - at)
    print(f"cpu {time.process_time() - started:.2f} s, p50 {statistics.median(per_answer) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
