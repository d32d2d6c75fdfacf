"""Profile: the functions that take the most cumulative time over the held-out suite (cProfile).

Every case of the held-out suite is checked once, untimed first (so pipelines and caches are
built), then once under cProfile; the top functions by cumulative time are printed.

Run: python bench/profile_heldout.py [TOP]
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys

from factcheck import FactChecker
from factcheck.eval.suite import load_suite


def main(top: int = 10) -> None:
    checker = FactChecker()
    runs = [(c.answer, c.tool_call_dicts(), c.checker_context()) for c in load_suite(["heldout"])]
    for answer, tools, context in runs:  # warm-up: lazy pipelines and per-lexicon caches
        checker.check(answer, tools, context)
    profile = cProfile.Profile()
    profile.enable()
    for answer, tools, context in runs:
        checker.check(answer, tools, context)
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.strip_dirs().sort_stats("cumulative").print_stats(top + 1)  # check() itself, then the top
    print(f"held-out suite: {len(runs)} answers")
    print(out.getvalue())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
