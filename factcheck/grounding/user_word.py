"""Numbers one digit off a tool's: the user's word over the record ("88321" of 88231), or one no one gave, misread."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from factcheck.grounding.evidence import EvidenceIndex, Located

_FIELD_WORD = re.compile(r"[a-z]{4,}")
"""A word of a field's path or of the claim (four letters or more: no `id`, `per`, `fee` alone)."""
_NAME_PARTS = re.compile(r"[^a-z]+")
"""What separates the words of a field name (`max_hours_week`)."""
_PER_WORD = re.compile(r"\b(?:per|each|every)\s+[a-z]+")
"""A unit an amount is per ("per item", "each night"): it names no field."""
MIN_DIGITS = 3
"""Fewest significant digits (trailing zeros aside) a number must have for a one-digit neighbour to be its
record's value, not a chance."""
MIN_DIGITS_UNSAID = 4
"""Fewest significant digits of a number no one gave for a tool's number one digit off it to be the value it
misread ("88321" of 88231): a worked-out average or difference of three digits is often a digit off some number
of a long output by chance (29.3 kWh a day beside a reading of 29.5)."""
MIN_DIGITS_NAMED = 2
"""Fewest for one no one gave when the words beside it name the neighbour's field ("1.5x surge" of
`surge_multiplier` 1.2): the field named is the evidence a chance neighbour lacks."""
MAX_DIGITS = 12
"""Most digits read (a longer number is an identifier, compared as one)."""


def neighbours(digits: str) -> set[str]:
    """The digit strings one substitution or one swap of neighbouring digits away, the first digit kept
    (`123` -> `124`, `132`; not `223`: a number misremembered keeps its size, a round budget of the user's own
    "$100" against a tool's 800 is another number).

    Args:
        digits: A string of digits.

    Returns:
        The neighbours of the same length and first digit.
    """
    out = set()
    for i in range(1, len(digits)):
        for d in "0123456789":
            if d != digits[i]:
                out.add(digits[:i] + d + digits[i + 1 :])
        if i + 1 < len(digits) and digits[i + 1] != digits[i]:
            out.add(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :])
    return out


def record_near(
    index: EvidenceIndex, value: str, exponent: int, unit: str | None = None, min_digits: int = MIN_DIGITS,
    accept: Callable[[Located], bool] | None = None,
) -> Located | None:
    """A tool's number one digit off a number of the answer: one it took from the user's message, or one no one gave.

    "Ship it to 132 Main Street" when the user wrote "I'm pretty sure it's 132" and the order says 123: the
    answer repeats the user's misremembered number over the record's. Only numbers of `min_digits` significant
    digits or more are read, at the precision they are written.

    Args:
        index: The run's evidence.
        value: The claimed number (a decimal string).
        exponent: The power of ten of its last written digit.
        unit: Its unit, when it has one: a tool's number written with another unit is no neighbour.
        min_digits: Fewest significant digits (`MIN_DIGITS` for the user's number, `MIN_DIGITS_UNSAID` for one
            no one gave).
        accept: Which of the tool's neighbours count (None: every one).

    Returns:
        The tool's number, or None when no tool gives such a neighbour.
    """
    sign, digits, point = _digits(value, exponent)
    if not (min_digits <= len(digits.rstrip("0")) and len(digits) <= MAX_DIGITS):
        return None  # a round number ("按 8000 单来算", "$100 voucher") is the user's own figure
    targets = [(Decimal(sign + n[: len(n) - point] + ("." + n[len(n) - point :] if point else "")), exponent)
               for n in sorted(neighbours(digits))]
    exact = {value for value, _ in targets}  # the tool's own digits: 3365.4 is no neighbour of 3315
    found = [loc for loc in index.equal_numbers(targets) if loc.leaf.source == "tool"
             and Decimal(loc.mention.value) in exact
             and (unit is None or loc.mention.unit in (None, unit))  # "800+ lumens" is no "500ml"
             and (accept is None or accept(loc))]
    return found[0] if found else None


def _digits(value: str, exponent: int) -> tuple[str, str, int]:
    """(sign, the digits as written at `exponent`, how many of them follow the point)."""
    number = Decimal(value)
    point = max(0, -exponent)
    text = f"{abs(number):.{point}f}"
    return ("-" if number < 0 else ""), text.replace(".", ""), point


def names_field(beside: str, path: str, units: set[str], limits: frozenset[str]) -> bool:
    """Whether words beside a number name a tool number's field: a word (four letters or more) of its own name or of
    the object it is in ("1.5x surge" of `fare.surge_multiplier`, "$1,500.00 deductible" of `deductible.limit`).

    A list's name is no such word ("desks[0].day_rate" is "day rate"), nor a limit's ("Week 48" beside
    `max_hours_week` 45: a number compared with the limit, not misread from it), nor a unit word of the claim ("22
    hours" names no `hours` field) or a unit an amount is per ("129 per item" names no `items` count).

    Args:
        beside: The claim's words right before and after the number.
        path: The tool number's path.
        units: The claim's unit words (lower case).
        limits: Words of a field name that make it a limit (lexicon `limit_fields`).

    Returns:
        Whether one of the words beside is one of the field's.
    """
    said_units = {unit.rstrip("s") for unit in units}
    fields = {w.rstrip("s") for part in path.lower().rsplit(".", 2)[-2:] if "[" not in part
              and limits.isdisjoint(_NAME_PARTS.split(part)) for w in _FIELD_WORD.findall(part)} - said_units
    if not fields:
        return False
    return any(w.rstrip("s") in fields for w in _FIELD_WORD.findall(_PER_WORD.sub(" ", beside.lower())))
