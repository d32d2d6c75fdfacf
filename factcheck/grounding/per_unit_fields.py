"""An amount a field names per unit (`refund_per_unit`, `self_pay_per_box`) said as the whole that a field of the
same name without the unit gives (`refund_total`, `self_pay`): "将退给买家 71.20 元" of three items at 71.20 each."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.flat import record_path
from factcheck.grounding.line_amounts import column_header
from factcheck.grounding.roles import (
    ONE_UNIT_BEFORE,
    ONE_UNIT_REACH,
    PER_SLASH,
    ClaimText,
    Recomputed,
    claim_hits,
    clause_bounds,
    num_text,
)
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
    if not _said_as_whole(fact, located, index, claim):
        return None
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


def per_unit_beside_its_whole(
    fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText
) -> Recomputed | None:
    """The whole a claimed amount should be, when it is found only in fields one unit's by their names (`per_day`,
    `price_per_day`) whose own record gives the whole beside it (`total`, `extra_total`) as that amount times a
    count the same output gives (`days: 5`): "Additional driver: $13.00 for the whole rental" of `{"per_day": 13.0,
    "total": 65.0}` in a quote of 5 days.

    The claim says no per-unit word before the amount or in its clause, is no table row, and does not say the whole.

    Args:
        fact: A money number the tools hold.
        located: The tool numbers equal to it.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The whole, with how it is made up, or None.
    """
    lex = index.lex
    if not _said_as_whole(fact, located, index, claim):
        return None
    if any(loc.leaf.source != "tool" or not _PER_UNIT.search(field_name(loc.leaf.path)) for loc in located):
        return None  # a field of no unit's name may be the whole itself
    begin, end = fact.start - claim.start, fact.end - claim.start
    if _WORKED_BESIDE.search(claim.text, max(0, begin - _BESIDE), begin) or _WORKING_AFTER.match(claim.text, end) \
            or ONE_UNIT_BEFORE.search(claim.text, max(0, begin - ONE_UNIT_REACH), begin):
        return None  # "2 × $18.00 = $36.00", "扣首晚房费 742 元", "1 × Garlic Naan ($3.25)"
    claimed = Decimal(fact.value)
    if claimed <= 0:
        return None
    if all(_PER_PERSON.search(field_name(loc.leaf.path)) for loc in located) \
            and not claim_hits(lex.total_words, claim.text) and not claim_hits(lex.all_words, claim.text):
        return None  # "His share of the package: ¥3,680", "GAO/MIN：€600": one person's amount said of one person
    said = {Decimal(f.value) for f in claim.facts if f.value and f.unit == fact.unit and f is not fact}
    loc = located[0]
    parent = record_path(loc.leaf.path)
    record = index.value_at(loc.leaf.index, parent)
    if not isinstance(record, dict):
        return None
    counted = lex.multiplicity_fields | lex.quantity_fields | lex.map("duration_days").keys()
    counts = {_amount(v) for path, _, v, _ in index.flats[loc.leaf.index].scalars()
              if not counted.isdisjoint(field_name(path).split())}
    for key, value in record.items():
        whole = _amount(value)
        if whole is None or whole in said or _PER_UNIT.search(name := field_name(str(key))) \
                or _WHOLE_WORDS.isdisjoint(name.split()):
            continue
        times = whole / claimed
        if times >= 2 and times == times.to_integral_value() and (
                times in counts or times <= _FEW_UNITS and _says_whole(fact, claim, index)):
            path = f"{parent}.{key}" if parent else str(key)
            how = f"{path} is {num_text(whole)}, {num_text(times)} × {num_text(claimed)} ({loc.leaf.path})"
            return Recomputed(whole, how, index.number_at(loc.leaf.index, path) or loc)
    return None


_FEW_UNITS = 31
"""The most units (nights, pallets) a whole beside a per-unit amount may count when no field of the output gives the
count: a claim that calls the amount a whole makes a small multiple the record's own, not 180 × 20 by chance."""
_BESIDE = 4
"""Characters before an amount a multiplication sign may stand in to make it a factor of the claim's working."""
_WORKED_BESIDE = re.compile(r"(?:×|(?<![\w*])[xX]|(?<!\*)\*(?!\*))\s*[$¥€£]?\s*$")
"""A multiplication sign right before an amount ("2 × $18.00"): the amount is one unit's, the claim works it out."""
_WORKING_AFTER = re.compile(r"\s*(?:[×=]|[xX*](?=\s*\d)|/\s*\w)|\s+(?:a|an|per|each)\s+[a-z]|"
                            r"\s+for\s+(?:the\s+)?(?:first|one|1|a single|each)\b")
"""A multiplication, an equals sign, a per-unit slash or words of one unit right after an amount ("$0.008 =
+$90.40", "$12/day", "$45.00 a pass", "$45.00 for the first pass")."""
_PER_PERSON = re.compile(r"\b(?:person|passenger|pax|guest|travell?er|head|adult|member)\b")
"""Field names of one person's amount: said of one person, it is theirs, unless the claim speaks of all of them."""


def _said_as_whole(fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether a money number the tools hold is said as no unit's: no per-unit word before it or in its clause
    ("每期应还：536.00 元（本金 500.00 元 …）", "$13.00 a day"), no per-unit slash after it ("9.60 元/盒"), no table row
    (a column's header says per what)."""
    lex = index.lex
    if fact.unit not in lex.currency_codes or not fact.value or not located:
        return False
    if claim.text.lstrip().startswith("|"):
        return _whole_column(fact, claim, index)  # "| 3晚总价 |": the column says a whole; "| 单价 |" one unit
    _, stop = clause_bounds(fact, claim)
    return not claim_hits(lex.per_unit_words, claim.text[:stop]) \
        and not PER_SLASH.match(claim.text, fact.end - claim.start)


def _whole_column(fact: Fact, claim: ClaimText, index: EvidenceIndex) -> bool:
    """Whether a table row's amount stands under a header that names a total ("3晚总价", "Total")."""
    header = column_header(fact, claim)
    return bool(header) and bool(index.lex.total_words.finditer(header)) \
        and not index.lex.per_unit_words.search(header)


def _says_whole(fact: Fact, claim: ClaimText, index: EvidenceIndex) -> bool:
    """Whether the claim says a number is a whole: a total word in its clause ("in total", 一共), a whole count's cue
    right before it ("服务费：共 20 元"), or a total over its table column."""
    begin, stop = clause_bounds(fact, claim)
    before = claim.text[begin : fact.start - claim.start].rstrip().lower()
    return bool(index.lex.total_words.finditer(claim.text[begin:stop])) \
        or any(before.endswith(cue) for cue in index.lex.whole_count_cues) or _whole_column(fact, claim, index)


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
