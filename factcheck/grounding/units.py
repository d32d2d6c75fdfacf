"""Numbers in other forms: another unit of the same dimension, money in minor units, a year, a glued word."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.report import Fact, Verdict

_WORD_BEFORE = re.compile(r"([A-Za-z]{1,8}) ?$")
"""A short word right before a number ("Sev 2")."""


def in_other_unit(
    fact: Fact, claimed: Decimal, exponent: int, claim_facts: list[Fact], index: EvidenceIndex
) -> Backing | None:
    """A number in another unit of the same dimension (lexicon `unit_scales`).

    Either a tool's number whose field name gives its unit ("30 GB" of `总量MB`: 30720), or a
    backed number of the claim written with its unit ("4.8 kg (about 10.6 lb)"). A claim that
    names its field ("还剩约 11.4GB") takes only a tool's number of that field (`remainingMB`,
    not `usedMB`), when a tool gives one in another unit.

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
    own = index.lex.unit_field(unit)  # "7 days": the unit's own label names no field of the claim
    labels = frozenset((fact.concept or "").split("+")) - {"", own, "count"} - index.lex.generic_field_labels
    measures = index.numbers_in_units(others)
    if labels and all(labels.isdisjoint(leaf.labels) for _, _, leaf in measures):
        labels = frozenset()  # no measure of that field: "总共 10GB" of `quotaMB`
    for other, value, leaf in measures:
        if labels and labels.isdisjoint(leaf.labels):
            continue
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


def priced_in_minor_units(
    index: EvidenceIndex, locs: list[Located], minor: Decimal | None, fact: Fact
) -> list[Located]:
    """The matches of an amount, its minor units (4599 for $45.99) kept only as JSON integers that payment APIs
    would give: beside a currency field ({"amount": 4599, "currency": "usd"}), or when the answer writes the
    cents ("$45.99") or a tool names the amount's currency elsewhere (a line item's `amount: 1250`).

    Args:
        index: The run's evidence.
        locs: The numbers equal to the amount or to its minor units.
        minor: The amount in minor units; None when it is no amount of money.
        fact: The claimed amount.
    """
    if minor is None:
        return locs
    plain = [loc for loc in locs if Decimal(loc.mention.value) != minor]
    cents = [
        loc for loc in locs
        if Decimal(loc.mention.value) == minor and type(index.value_at(loc.leaf.index, loc.leaf.path)) is int
    ]
    if not cents:
        return plain  # the common case: no search of the outputs for the currency's name
    priced = fact.precision == 2 or index.find_token((fact.unit or "").lower()) is not None
    return plain + [loc for loc in cents if priced or index.currency_of(loc) is not None]


def in_minor_units(matches: list[Located], minor: Decimal | None) -> str:
    """What a reason adds when the first match gives the amount in minor units."""
    return " in minor units (cents)" if minor is not None and Decimal(matches[0].mention.value) == minor else ""


def year_of_a_date(fact: Fact, claimed: Decimal, index: EvidenceIndex) -> Backing | None:
    """A year ("your 2026 invoices", no count of 2026 invoices) that a tool's date holds.

    Args:
        fact: A number no tool output gives.
        claimed: Its value.
        index: The run's evidence.
    """
    if fact.unit in index.lex.currency_codes or not 1990 <= claimed <= 2100 or fact.text != str(claimed):
        return None
    leaf = index.find_text(f"{claimed}-")
    return None if leaf is None else ("derived", f"the year of a date a tool gives ({leaf.text[:20]})",
                                      [evidence_of(leaf, index)])


def glued(fact: Fact, before: str, index: EvidenceIndex) -> Backing | None:
    """A number after a word that a tool writes as one token with it ("Sev 2" of sev2, "P 1" of P1).

    Args:
        fact: A number no tool output gives.
        before: The claim's text before it.
        index: The run's evidence.
    """
    word = _WORD_BEFORE.search(before)
    if word is None or not fact.text.isdigit():
        return None
    leaf = index.find_token(f"{word[1].lower()}{fact.text}")
    return None if leaf is None else ("match", f"written as one word, {word[1]}{fact.text}",
                                      [evidence_of(leaf, index)])


_SPAN_UNIT = re.compile(r"(?i)day|hour|week|工作日|天|小时|周")
"""A unit that makes a number a span of time ("1–2 business days", 3-5 个工作日)."""
_SPAN_FIELD = re.compile(r"(?i)day|hour|week|duration|within|window|period|eta|sla|night")
"""Words of a field whose number is a span of time (`processing_days`, `sla_hours`)."""


def spans_of_time(fact: Fact, matches: list[Located]) -> list[Located]:
    """Of the tool numbers equal to a claimed span of time ("ship within 1–2 business days"), those that are one:
    a field of days, hours or a window, or a text that says the number with a unit after it. Any other (a quantity
    of 1, an item's 2) gives no span: a number of days no tool or policy states is not backed by them."""
    if not fact.unit or not _SPAN_UNIT.search(fact.unit):
        return matches
    kept = []
    for loc in matches:
        if loc.leaf.numeric:
            if _SPAN_FIELD.search(loc.leaf.path.rsplit(".", 1)[-1]):
                kept.append(loc)
        elif re.search(rf"(?<![\d.]){re.escape(loc.mention.value)}\s*(?:[-–~至到]\s*\d+\s*)?\S*\s*(?:business\s+)?"
                       rf"(?:days?|hours?|weeks?|工作日|个工作日|天|小时|周)", loc.leaf.text, re.IGNORECASE):
            kept.append(loc)
    return kept
