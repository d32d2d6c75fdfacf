"""Cross-validate the calibration on the fitting data (bundled, heldout, real-fit, mutation-fit), 4 folds.

Prints, per suite and threshold, the out-of-fold flag precision, false alarms and answers caught, and
the expected calibration error: the figures docs/calibration.md chose the default threshold from.
Usage: python bench/cv_calibration.py [L2]
"""

import hashlib
import sys

from factcheck.calibration import answer_stats, fit, flag_features
from factcheck.checker import FactChecker
from factcheck.config import CheckerConfig
from factcheck.eval.calibrate import flag_samples
from factcheck.eval.scoring import overlaps
from factcheck.eval.suite import load_suite, span_ranges

FOLDS = 4


def fold(case) -> int:
    key = case.id.rsplit("-", 1)[0] if case.source else case.id
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % FOLDS


def main() -> None:
    l2 = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    checker = FactChecker(CheckerConfig(min_confidence=0.0))
    data = []
    for name in ("bundled", "heldout", "real-fit", "mutation-fit"):
        for case in load_suite([name]):
            report = checker.check(case.answer, case.tool_call_dicts(), case.checker_context())
            data.append((name, case, report, flag_samples(case, report)))
    rows: dict[str, list] = {}
    for k in range(FOLDS):
        table = fit([s for _, case, _, samples in data if fold(case) != k for s in samples], l2=l2)
        for name, case, report, _ in data:
            if fold(case) != k:
                continue
            gold = span_ranges(case.answer, case.hallucinated_spans)
            stats = answer_stats(report.lang, case.checker_context())
            claims = []
            for claim in report.claims:
                confs = [table.confidence(flag_features(f, claim, stats)) for f in claim.facts if f.verdict.flagged]
                if confs:
                    claims.append((max(confs), any(overlaps(claim.start, claim.end, s, e) for s, e in gold)))
            rows.setdefault(name, []).append((case.hallucinated, claims))
    for name, results in rows.items():
        faithful = [cs for h, cs in results if not h]
        lies = [cs for h, cs in results if h]
        for t in (0.4, 0.5, 0.6, 0.7, 0.8):
            flags = [ok for _, cs in results for conf, ok in cs if conf >= t]
            alarms = sum(any(conf >= t for conf, _ in cs) for cs in faithful) / max(1, len(faithful))
            caught = sum(any(conf >= t and ok for conf, ok in cs) for cs in lies) / max(1, len(lies))
            print(f"{name:9s} t={t:.1f} flags={len(flags):4d} flag P={sum(flags) / max(1, len(flags)):.3f} "
                  f"false alarms={alarms:.3f} answers caught={caught:.3f}")
        every = [(conf, ok) for _, cs in results for conf, ok in cs]
        ece = 0.0
        for b in range(10):
            inside = [(c, ok) for c, ok in every if b / 10 <= c < (b + 1) / 10 or (b == 9 and c == 1)]
            if inside:
                mean = sum(c for c, _ in inside) / len(inside)
                ece += len(inside) / len(every) * abs(mean - sum(ok for _, ok in inside) / len(inside))
        print(f"{name:9s} ECE {ece:.3f} over {len(every)} flagged claims")


if __name__ == "__main__":
    main()
