"""A label's value that the tools give otherwise but the answer works out from amounts the tools give."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.verdicts import set_verdict
from factcheck.report import Claim, Fact, FactKind, Verdict

_MOST_TIMES = 20
"""Largest bare count an amount is multiplied by ("4 × ¥680")."""


def worked_by_the_answer(claims: list[Claim], index: EvidenceIndex) -> None:
    """Back an amount that a field of its label contradicted ("尾款合计 ¥10,020" against a booking's `total: 8740`)
    when two amounts of its unit that the answer says and a tool gives as they are (not ones the answer worked out:
    "合计 265 元，比 129 元多了 136 元" backs nothing), added or one taken from the other, or one of them times a bare
    count the answer gives, come to it: the answer worked it out, and the field it was read against is another total
    than the one it computes. Its parts are checked as facts of their own.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence (unused: the working is the answer's own; the post-pass signature).
    """
    del index
    facts = [f for c in claims for f in c.facts]
    for fact in facts:
        if fact.kind != FactKind.NUMBER or fact.code != "value_mismatch" or not fact.unit or not fact.value \
                or not fact.reason.startswith("tool gives"):
            continue
        how = _reached(fact, facts)
        if how is not None:
            set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how} (the answer's own amounts)", [])


def _reached(fact: Fact, facts: list[Fact]) -> str | None:
    """How two of the answer's amounts of the fact's unit that a tool gives, or one and a bare count, come to its
    value."""
    value = Decimal(fact.value or "0")
    backed = [Decimal(f.value) for f in facts if f is not fact and f.kind == FactKind.NUMBER and f.unit == fact.unit
              and f.value and f.verdict == Verdict.SUPPORTED and f.code == "match"]
    for a, b in combinations(backed, 2):
        if a + b == value:
            return f"{a} + {b}"
        if abs(a - b) == value:
            return f"{max(a, b)} − {min(a, b)}"
    counts = {int(f.value) for f in facts if f.kind == FactKind.NUMBER and not f.unit and f.value
              and f.value.isdigit() and 1 < int(f.value) <= _MOST_TIMES}
    for a in backed:
        for n in sorted(counts):
            if a * n == value:
                return f"{n} × {a}"
    return None
