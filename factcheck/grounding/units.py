"""Numbers in other units: a tool's number in another unit of the same dimension, money in minor units."""

from __future__ import annotations

from decimal import Decimal

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.report import Fact, Verdict


def in_other_unit(
    fact: Fact, claimed: Decimal, exponent: int, claim_facts: list[Fact], index: EvidenceIndex
) -> Backing | None:
    """A number in another unit of the same dimension (lexicon `unit_scales`).

    Either a tool's number whose field name gives its unit ("30 GB" of `总量MB`: 30720), or a
    backed number of the claim written with its unit ("4.8 kg (about 10.6 lb)").

    Args:
        fact: The claimed number, with its unit.
        claimed: Its value.
        exponent: Power of ten of its last written digit.
        claim_facts: Every fact of its claim.
        index: The run's evidence.

    Returns:
        How it is backed, or None.
    """
    scales = index.lex.unit_scales
    unit = (fact.unit or "").lower()
    if unit not in scales:
        return None
    dimension, size = scales[unit]
    others = [u for u, (d, s) in scales.items() if d == dimension and s != size]
    for other, value, leaf in index.numbers_in_units(others):
        converted = value * scales[other][1] / size
        if equal_at(converted, claimed, exponent):
            how = f"{value} {other} in {unit}"
            return "derived", f"number equals {how}", [evidence_of(leaf, index, how)]
    for said in claim_facts:
        other = (said.unit or "").lower()
        if said.verdict == Verdict.SUPPORTED and other in others:
            converted = Decimal(said.value or "0") * scales[other][1] / size
            if equal_at(converted, claimed, exponent):
                how = f"{said.text} in {unit}"
                evidence = [ev.model_copy(update={"note": how}) for ev in said.evidence[:1]]
                return "derived", f"number equals {how}", evidence
    return None


def priced_in_minor_units(index: EvidenceIndex, locs: list[Located], minor: Decimal | None) -> list[Located]:
    """The matches of an amount, its minor units (4599 for $45.99) kept only as JSON integers beside a currency
    field, as payment APIs give them ({"amount": 4599, "currency": "usd"}).

    Args:
        index: The run's evidence.
        locs: The numbers equal to the amount or to its minor units.
        minor: The amount in minor units; None when it is no amount of money.
    """
    if minor is None:
        return locs
    return [
        loc for loc in locs
        if Decimal(loc.mention.value) != minor
        or type(index.value_at(loc.leaf.index, loc.leaf.path)) is int and index.currency_of(loc) is not None
    ]


def in_minor_units(matches: list[Located], minor: Decimal | None) -> str:
    """What a reason adds when the first match gives the amount in minor units."""
    return " in minor units (cents)" if minor is not None and Decimal(matches[0].mention.value) == minor else ""
