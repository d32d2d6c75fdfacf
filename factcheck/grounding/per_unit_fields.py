"""An amount a field names per unit (`refund_per_unit`, `self_pay_per_box`) said as the whole that a field of the
same name without the unit gives (`refund_total`, `self_pay`): "将退给买家 71.20 元" of three items at 71.20 each."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.roles import PER_SLASH, ClaimText, Recomputed, claim_hits, clause_bounds, num_text
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind

_PER_UNIT = re.compile(r"\bper\b(?:\s+\w+)?|\beach\b|\bunit\b")
"""The words of a field's name that make it one unit's (`per traveller`, `per box`, `unit`, `each`)."""
_PER_UNIT_NAME = re.compile(r"\b(?:per|each|unit|daily|nightly|weekly|monthly|hourly)\b")
"""Words of a field's name that make its value one unit's (`fee per ticket`, `monthly fee`: `per_unit_times`)."""
_MOST_TIMES = 60
"""Most times a unit's value a claimed whole is read as (`per_unit_times`)."""
_WHOLE_WORDS = frozenset({"total", "sum", "amount", "all"})
"""Words of a field's name that say it is the whole of what it names (`refund_total`)."""


def per_unit_field_as_whole(
    fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText
) -> Recomputed | None:
    """The whole a claimed amount should be, when every tool field it is found in is one unit's by its own name and
    the run gives the whole in a field of the same name without the unit, a whole number of times the amount.

    The claim says no per-unit word before the amount or in its clause ("each", 每期, "/box") and is no table row
    (a column's header says per what); the whole is not said in the claim too.

    Args:
        fact: A money number the tools hold.
        located: The tool numbers equal to it.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The whole, with how it is made up, or None.
    """
    lex = index.lex
    if fact.unit not in lex.currency_codes or not fact.value or not located or claim.text.lstrip().startswith("|"):
        return None
    _, stop = clause_bounds(fact, claim)
    if claim_hits(lex.per_unit_words, claim.text[:stop]) or PER_SLASH.match(claim.text, fact.end - claim.start):
        return None  # "每期应还：536.00 元（本金 500.00 元 …）": a label before it may say per what
    stems = set()
    for loc in located:
        name = field_name(loc.leaf.path)
        stem = tuple(_PER_UNIT.sub(" ", name).split())
        if loc.leaf.source != "tool" or stem == tuple(name.split()) or not stem:
            return None  # a field of no unit's name may be the whole itself
        stems.add(stem)
    if len(stems) != 1:
        return None
    stem, claimed = set(stems.pop()), Decimal(fact.value)
    said = {Decimal(f.value) for f in claim.facts if f.value and f.unit == fact.unit and f is not fact}
    for flat in index.flats[: len(index.calls)]:
        for path, _, value, is_count in flat.scalars():
            name = field_name(path)
            whole = _amount(value)
            if is_count or whole is None or whole <= claimed or whole in said or _PER_UNIT.search(name) \
                    or set(name.split()) - _WHOLE_WORDS != stem:
                continue
            times = whole / claimed
            if times >= 2 and times == times.to_integral_value():
                how = f"{path} is {num_text(whole)}, {num_text(times)} × {num_text(claimed)} ({located[0].leaf.path})"
                return Recomputed(whole, how, index.number_at(flat.call, path) or located[0])
    return None


def _amount(value: Any) -> Decimal | None:
    """A field's value as an amount (a JSON number, or a string of one: "213.60")."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and amount > 0 else None


def per_unit_times(same_field: list[Located], fact: Fact, claim_facts: list[Fact], exponent: int,
                   index: EvidenceIndex) -> str | None:
    """The claimed number as a whole number of times (2 to `_MOST_TIMES`) the value of a field whose name says it
    is one unit's (`fee_per_ticket`, `late_fee_per_day`, `monthly_fee`), written out; None otherwise, or when the
    claim says counts and none is that number of times ("16 payments left at $27.75 each, $416.25": 15 × 27.75).

    Args:
        same_field: The tool numbers of the claimed number's field.
        fact: The claimed number.
        claim_facts: Every fact of its claim (its other whole numbers with no currency are its counts).
        exponent: The power of ten of the claimed number's last written digit.
        index: The run's evidence.

    Returns:
        "n × value (path)", or None.
    """
    money, claimed = index.lex.currency_codes, Decimal(fact.value or "0")
    counts = {Decimal(f.value) for f in claim_facts if f is not fact and f.kind == FactKind.NUMBER and f.value
              and f.unit not in money and Decimal(f.value) == Decimal(f.value).to_integral_value()}
    for loc in same_field:
        value = Decimal(loc.mention.value)
        if value <= 0 or not _PER_UNIT_NAME.search(field_name(loc.leaf.path or "")):
            continue
        times = claimed / value
        if times == times.to_integral_value() and 2 <= times <= _MOST_TIMES and (not counts or times in counts) \
                and equal_at(value * times, claimed, exponent):
            return f"{int(times)} × {format(value, 'f')} ({loc.leaf.path})"
    return None
