"""A label's value that the tools give otherwise but the answer works out from amounts the tools give."""

from __future__ import annotations

from decimal import Decimal

from factcheck.grounding.verdicts import set_verdict
from factcheck.grounding.working import pair_working
from factcheck.report import Claim, Fact, FactKind, Verdict

_MOST_TIMES = 20
"""Largest bare count an amount is multiplied by ("4 × ¥680")."""


def worked_by_the_answer(claims: list[Claim]) -> None:
    """Back an amount that a field of its label contradicted ("尾款合计 ¥10,020" against a booking's `total: 8740`)
    when two amounts of its unit that the answer says and a tool gives as they are (not ones the answer worked out:
    "合计 265 元，比 129 元多了 136 元" backs nothing), added or one taken from the other, or one of them times a bare
    count the answer gives, come to it: the answer worked it out, and the field it was read against is another total
    than the one it computes. Its parts are checked as facts of their own.

    Args:
        claims: The answer's claims, grounded.
    """
    facts = [f for c in claims for f in c.facts]
    flagged = [f for f in facts if f.kind == FactKind.NUMBER and f.code == "value_mismatch" and f.unit and f.value
               and f.reason.startswith("tool gives")]
    if not flagged:
        return
    counts = sorted({int(f.value) for f in facts if f.kind == FactKind.NUMBER and not f.unit and f.value
                     and f.value.isdigit() and 1 < int(f.value) <= _MOST_TIMES})
    for fact in flagged:
        how = _reached(fact, facts, counts)
        if how is not None:
            set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals {how} (the answer's own amounts)", [])


def _reached(fact: Fact, facts: list[Fact], counts: list[int]) -> str | None:
    """How two of the answer's amounts of the fact's unit that a tool gives, or one of them times a count, come to
    its value."""
    value, exponent = Decimal(fact.value or "0"), -(fact.precision or 0)
    backed = [Decimal(f.value) for f in facts if f is not fact and f.kind == FactKind.NUMBER and f.unit == fact.unit
              and f.value and f.verdict == Verdict.SUPPORTED and f.code == "match"]
    how = pair_working(value, exponent, backed)
    if how is not None:
        return how
    return next((f"{n} × {a}" for a in backed for n in counts if a * n == value), None)
