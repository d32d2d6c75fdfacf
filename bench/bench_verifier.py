"""What a verifier could add, and what it costs, as the confidence band it is asked in widens.

The verifier here is an oracle built from the labels (it knows which claims overlap a hallucinated span):
it exists only in this script, never in the library. It bounds what a perfect model could add: each
figure is the cost a user pays (calls per answer) for the recall such a model could buy.
Prints, per suite and band: the share of wrong claims (claims overlapping a gold span) that reach the
verifier, verifier calls per answer (mean and max), answers caught and false alarms.
Usage: python bench/bench_verifier.py [SUITE ...]   (default: real-fit real-heldout)
"""

import sys

from factcheck.checker import FactChecker
from factcheck.config import CheckerConfig
from factcheck.eval.scoring import overlaps
from factcheck.eval.suite import load_suite, span_ranges

BANDS = [None, (0.5, 0.6), (0.4, 0.6), (0.3, 0.6), (0.2, 0.6), (0.1, 0.6), (0.0, 0.6), (0.2, 0.8), (0.0, 1.0)]
"""None: no verifier. The default band is (0.2, 0.6); the last two also reach flags above the threshold."""
MAX_CLAIMS = [3, 100]


class Oracle:
    """Answers from the labels of the case being checked: a claim overlapping a gold span is contradicted."""

    def __init__(self) -> None:
        self.case = None
        self.__name__ = "oracle"

    def __call__(self, claim: str, evidence: list[str]) -> tuple[str, float]:
        at = self.case.answer.find(claim)
        gold = span_ranges(self.case.answer, self.case.hallucinated_spans)
        wrong = at >= 0 and any(overlaps(at, at + len(claim), s, e) for s, e in gold)
        return ("contradicted" if wrong else "supported"), 1.0


def wrong_claims(case, report) -> list:
    gold = span_ranges(case.answer, case.hallucinated_spans)
    return [c for c in report.claims if any(overlaps(c.start, c.end, s, e) for s, e in gold)]


def run(cases, band, max_claims) -> dict:
    oracle = Oracle()
    config = CheckerConfig() if band is None else CheckerConfig(
        verifier=oracle, verify_between=band, verify_max_claims=max_claims)
    checker = FactChecker(config)
    caught = alarms = lies = faithful = wrong = reached = 0
    calls = []
    for case in cases:
        oracle.case = case
        report = checker.check(case.answer, case.tool_call_dicts(), case.checker_context())
        bad = wrong_claims(case, report)
        wrong += len(bad)
        reached += sum(1 for c in bad if c.second_opinion is not None)
        calls.append(report.verifier.calls if report.verifier else 0)
        if case.hallucinated:
            lies += 1
            caught += not report.ok
        else:
            faithful += 1
            alarms += not report.ok
    return {
        "reached": reached / wrong if wrong else 0.0,
        "calls": sum(calls) / len(calls),
        "max_calls": max(calls),
        "recall": caught / lies if lies else 0.0,
        "false_alarms": alarms / faithful if faithful else 0.0,
        "lies": lies,
        "faithful": faithful,
        "wrong": wrong,
    }


def main() -> None:
    suites = sys.argv[1:] or ["real-fit", "real-heldout"]
    for name in suites:
        cases = load_suite([name])
        print(f"\n{name}: {len(cases)} answers")
        print(f"{'band':>12} {'max':>4} {'wrong claims reaching':>22} {'calls/answer':>13} {'max':>4} "
              f"{'answers caught':>15} {'false alarms':>13}")
        for band in BANDS:
            for max_claims in MAX_CLAIMS if band else [0]:
                r = run(cases, band, max_claims)
                label = "none" if band is None else f"[{band[0]:.1f}, {band[1]:.1f})"
                print(f"{label:>12} {max_claims:>4} {r['reached']:>22.1%} {r['calls']:>13.2f} {r['max_calls']:>4} "
                      f"{r['recall']:>15.1%} {r['false_alarms']:>13.1%}")
        print(f"({r['lies']} answers with a hallucination, {r['faithful']} faithful; {r['wrong']} wrong claims)")


if __name__ == "__main__":
    main()
