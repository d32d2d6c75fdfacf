"""Totals over the items of a list that hold the status a claim names ("the confirmed rooms", "已批准 4 笔，合计")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import NamedTuple

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.counting import names_value, record_lists
from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.grounding.flat import number_text
from factcheck.grounding.multiplicity import count_fields
from factcheck.grounding.roles import PER_UNIT_FIELD, ClaimText, claims_a_total
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind

_NOT_AMOUNT_WORDS = frozenset({"id", "count", "page", "pages", "qty", "quantity", "duration", "min", "km", "number",
                               "line", "no", "seq", "index", "rank", "position"})
"""Words of a field's name that make it no amount of money (`duration_min`, `distance_km`, `trip_id`, `line`)."""
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")
"""A numeric string: an amount a tool writes as text."""
_STATUS_REACH = 30
"""Most characters between the status word that singles the items out and the total ("已确认房间总价 ¥4,208.00")."""


class SubsetTotal(NamedTuple):
    """The sum over the items of a status, and whether it is the claimed amount."""

    value: Decimal
    """The sum (times the record's multiplicity, for an amount per unit)."""
    how: str
    """The computation, as a person reads it."""
    leaf: Leaf
    """The list."""
    agrees: bool
    """Whether it is the claimed amount."""


def subset_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> SubsetTotal | None:
    """The sum of one money field over the items of a list that hold a status the claim says.

    Backs the claimed amount when it is that sum ("Total for the confirmed rooms: $3,438.00", "已批准 4 笔，合计
    ¥5,933.44"). Recomputes it when it is not, but only where the claim leaves one reading: a total (by its words)
    right after the claim's one status word, over one list with one status of that word, of one money field. An
    amount per unit (`nightly_rate`) adds up to a total only times a multiplicity its record gives (`nights`: 3): the
    confirmed rooms' nightly rates summed are one night's price, not the stay's. Only a proper part of a list is
    read: a whole list's total is another check's.

    Args:
        fact: An amount of money of the claim.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The first part that adds up to the amount; else the one part the claim leaves, recomputed; else None.
    """
    lex = index.lex
    if not fact.value or fact.unit not in lex.currency_codes:
        return None
    claimed = Decimal(fact.value)
    exponent = -(fact.precision or 0)
    statuses = [f for f in claim.facts if f.kind in (FactKind.STATUS, FactKind.ACTION) and f.polarity
                and term_key(f.text) not in lex.presenting]
    if not statuses:
        return None
    readings: list[SubsetTotal] = []
    for leaf, records in record_lists(index):
        for status, kept, what in _parts(index, records, statuses):
            if not 0 < len(kept) < len(records):
                continue
            sums = list(_sums(lex, kept))
            for key, total in sums:
                per_unit = PER_UNIT_FIELD.search(field_name(key)) is not None  # a sum of them, times the nights
                times = count_fields(index, leaf) if per_unit else [(1, "")]
                for k, of in times:
                    agrees = equal_at(total * k, claimed, exponent)
                    if agrees or len(statuses) == len(sums) == len(times) == 1 and _beside(status, fact, claim) \
                            and _said_exactly(index, status, kept):
                        how = f"{key} summed over the {len(kept)} {what} of {leaf.path or 'the list'} = " \
                              f"{number_text(total)}" + (f" × {k} {of} = {number_text(total * k)}" if of else "")
                        if agrees:
                            return SubsetTotal(total * k, how, leaf, True)
                        readings.append(SubsetTotal(total * k, how, leaf, False))
    if len(readings) == 1 and claims_a_total(fact, index, claim):
        return readings[0]
    return None


def per_unit_stay_total(fact: Fact, index: EvidenceIndex) -> SubsetTotal | None:
    """The sum of an amount per unit over every item of a list, times a multiplicity its record gives, when it is the
    claimed amount ("Room charges come to $916.00" of two rooms at `nightly_rate` 199 and 259 for `nights: 2`).

    Args:
        fact: An amount of money of a claim.
        index: The run's evidence.

    Returns:
        The total that is the amount, or None.
    """
    if not fact.value or fact.unit not in index.lex.currency_codes:
        return None
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    for leaf, records in record_lists(index):
        if any(_off(index, r) for r in records):
            continue  # a cancelled room's rate is no part of the stay: the subset totals read that list
        for key, total in _sums(index.lex, records):
            if PER_UNIT_FIELD.search(field_name(key)) is None:
                continue
            for k, of in count_fields(index, leaf):
                if equal_at(total * k, claimed, exponent):
                    how = f"{key} summed over the {len(records)} items of {leaf.path or 'the list'} = " \
                          f"{number_text(total)} × {k} {of} = {number_text(total * k)}"
                    return SubsetTotal(total * k, how, leaf, True)
    return None


def _off(index: EvidenceIndex, record: dict) -> bool:
    """Whether a listed item's status field says it is off (cancelled, or a negative status: declined, failed)."""
    return any(isinstance(v, str) and index.lex.status_fields.lookup(field_name(str(k))) is not None
               and ("cancelled" in index.lex.record_states_in(v.lower())
                    or any(s.polarity == "negative" for s in index.statuses_of(v))) for k, v in record.items())


def _said_exactly(index: EvidenceIndex, status: Fact, kept: list[dict]) -> bool:
    """Whether the status word names the kept items' status itself, not only its polarity: the value is its own
    word ("confirmed" for 已确认 too), or a status of the same concept ("Total paid" says nothing of `processed`)."""
    values = {v for r in kept for k, v in r.items() if isinstance(v, str)
              and index.lex.status_fields.lookup(field_name(str(k))) is not None}
    return any(s.concept == status.concept for v in values for s in index.statuses_of(v))


def _beside(status: Fact, fact: Fact, claim: ClaimText) -> bool:
    """Whether the status word comes before the amount, near it, with no other status or amount between."""
    if not 0 <= fact.start - status.end <= _STATUS_REACH:
        return False
    return not any(status.end <= f.start < fact.start and (f.polarity or f.unit == fact.unit)
                   for f in claim.facts if f is not status and f is not fact)


def _parts(
    index: EvidenceIndex, records: list[dict], statuses: list[Fact]
) -> Iterator[tuple[Fact, list[dict], str]]:
    """The items of a list that hold each status the claim says, in each status field of the list's items."""
    keys = [k for k in records[0] if index.lex.status_fields.lookup(field_name(str(k))) is not None]
    for status in statuses:
        said = {(status.concept, status.polarity)}
        for key in keys:
            values = [r.get(key) for r in records]
            if all(isinstance(v, str) for v in values) and len(set(values)) > 1:
                kept = [r for r, v in zip(records, values, strict=True)
                        if names_value(index, v, term_key(status.text), said, strict=True)]
                yield status, kept, f"items with {key} agreeing with {status.text!r}"


def _sums(lex: Lexicon, records: list[dict]) -> Iterator[tuple[str, Decimal]]:
    """(field, sum) of each numeric field (or numeric string) every record has at its top level that may be an amount
    of money."""
    for key in records[0]:
        words = set(field_name(str(key)).split())
        if words & _NOT_AMOUNT_WORDS or words & lex.not_money_labels:
            continue
        values = [_amount(r.get(key)) for r in records]
        if all(v is not None for v in values):
            yield str(key), sum(values, Decimal(0))


def _amount(value: object) -> Decimal | None:
    """A field's number, written as one or as a numeric string ("2224.35")."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    if isinstance(value, str) and _NUMERIC.fullmatch(value.strip()):
        return Decimal(value.strip())
    return None
