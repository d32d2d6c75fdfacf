"""One unit's amount said as the whole a field holds ("Refund amount: $24.99" where `refund_amount` is 3 × 24.99)."""

from __future__ import annotations

from decimal import Decimal

from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.roles import PER_WORK, ClaimText, clause_bounds, line_quantity, num_text, said_per_unit
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.report import Fact, FactKind

_MOST_UNITS = 50
"""The most units a whole is read as a multiple of."""
_NEAR = 8
"""How far around the amount a word of working ("×", "at", "each", 每, 单价) makes it one unit's."""


def one_units_amount(
    fact: Fact, same_field: list[Located], claimed: Decimal, claim: ClaimText, index: EvidenceIndex
) -> Backing | None:
    """The whole a field the claim names holds, when the claimed amount is one unit's share of it: the field's value is
    a whole number of times the claimed one, and that many units stand in the records beside the claimed amount (the
    quantity of the line whose price it is) or in the claim ("for the 3 phone cases"). Not read when the claim says
    the amount is one unit's ("$25 each", "每张 ¥30", "单价 300 元", "¥580/张", "A$46 × 4 nights") or gives the whole
    too.

    Args:
        fact: An amount of money the claim labels with a field (`refund`) whose tool values differ from it.
        same_field: The tool values of that field.
        claimed: The claimed amount.
        claim: The claim (a count among its facts may give the units).
        index: The run's evidence.

    Returns:
        The contradiction's code (`recomputed`), reason and evidence, or None when no unit count explains the field.
    """
    lex = index.lex
    if claimed <= 0 or fact.unit not in lex.currency_codes:
        return None
    wholes = [(whole, value / claimed) for whole in same_field if (value := Decimal(whole.mention.value)) > claimed]
    wholes = [(whole, units) for whole, units in wholes if units == units.to_integral_value() and units <= _MOST_UNITS]
    if not wholes:
        return None  # no value of the field is a whole number of the amount (most mismatches end here)
    begin, end = clause_bounds(fact, claim)
    at = fact.end - claim.start
    if said_per_unit(fact, claim, lex) \
            or PER_WORK.search(claim.text[max(begin, at - len(fact.text) - _NEAR) : min(end, at + _NEAR)]):
        return None  # said to be one unit's
    others = [f for f in claim.facts if f is not fact and f.kind == FactKind.NUMBER and f.value]
    parts = [Decimal(f.value) for f in others if f.unit == fact.unit]
    if len(parts) > 1 and sum(parts) == claimed:
        return None  # "乙肝五项（120 元）和 TCT（260 元）……两项合计 380 元": the sum of the amounts it lists
    said = {Decimal(f.value) for f in others}
    counts = {Decimal(f.value) for f in others if f.unit and f.unit not in lex.currency_codes}  # "3 phone cases"
    for loc in index.equal_numbers([(claimed, -(fact.precision or 0))]):
        if loc.leaf.source == "tool" and (quantity := line_quantity(index, loc.leaf.index, loc.leaf.path)) is not None:
            counts.add(quantity)
    for whole, units in wholes:
        value = Decimal(whole.mention.value)
        if units in counts and value not in said:
            how = f"{num_text(units)} × {num_text(claimed)} = {num_text(value)}"
            return "recomputed", f"the records give {how} for {whole.leaf.path}; {fact.text} is one unit's amount", \
                [evidence_of(whole.leaf, index, how)]
    return None
