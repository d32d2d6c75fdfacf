"""Write the faithful real answers the shipped mutation suites are built from, split as the real suites are.

Sources: the answers of ../shared/real/*.jsonl labelled faithful in real-fit / real-heldout (every answer there is
labelled by hand); every answer labelled hallucinated, and any answer not labelled yet, is left out: no checker
verdict chooses a source.
Split by conversation: sha1 of the id without its message index, odd = held out (docs/calibration.md).
Prints the counts. Then `factcheck mutate` builds the suites (docs/mutation.md has the recipe).
Usage: python bench/mutation_sources.py [REAL_DIR] [OUT_DIR]
"""

import glob
import hashlib
import json
import sys
from pathlib import Path

from factcheck.eval.suite import load_suite


def held_out(case_id: str) -> bool:
    """The real suites' split: sha1 of the conversation id (the id without its message index), odd."""
    return int(hashlib.sha1(case_id.rsplit("-", 1)[0].encode()).hexdigest(), 16) % 2 == 1


def main() -> None:
    real = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/real")
    out = Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    labelled = {c.id: c.hallucinated for c in load_suite(["real-fit", "real-heldout"])}
    parts: dict[bool, list[dict]] = {False: [], True: []}
    unlabelled = 0
    for path in sorted(glob.glob(str(real / "*.jsonl"))):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            if case["id"] not in labelled:
                unlabelled += 1
                continue
            if labelled[case["id"]]:
                continue
            case.setdefault("hallucinated_spans", [])
            parts[held_out(case["id"])].append(case)
    for heldout, name in ((False, "faithful-fit.jsonl"), (True, "faithful-heldout.jsonl")):
        cases = sorted(parts[heldout], key=lambda c: c["id"])
        (out / name).write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
        print(f"{out / name}: {len(cases)} faithful answers")
    labelled_faithful = sum(not h for h in labelled.values())
    print(f"labelled faithful {labelled_faithful}, labelled hallucinated (left out) {sum(labelled.values())}, "
          f"not labelled (left out) {unlabelled}")


if __name__ == "__main__":
    main()
