"""A whole count the answer gives after the counts it lists of the same unit ("2 件 … 2 件 … 1 件，合计 6 件")."""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from factcheck.extractors.status import clause_start
from factcheck.grounding.verdicts import Backing
from factcheck.lexicon import Lexicon
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind, Verdict

_MOST_PARTS = 8
"""Most counts before a whole that it may add up (a party's members, a bill's lines)."""
_LARGEST = 500
"""The largest count read: a bigger number is rarely a count the answer works out from its lines."""


class ListedCount(NamedTuple):
    """A count the answer gave before, with its unit and whether the records back it."""

    unit: str
    """Its unit, lower case (件, bags, 晚)."""
    value: Decimal
    """How many."""
    backed: bool
    """Whether the records back it: a line whose count they do not is no evidence of the whole."""
    whole: bool
    """Whether it was said as a whole (合计, in total): the counts after it start a new list."""
    claim: int
    """Where its claim starts in the answer: a list's lines are claims of one count each."""
    at: int
    """Where it stands in the answer (a count read again replaces its first reading)."""
    each: bool
    """Whether it is said of each of several (每人 2 件, 3 per person): a factor, no line of a list."""


def _is_count(fact: Fact, lex: Lexicon) -> bool:
    """Whether a number is a whole count of things with a count unit (3 件, 2 bags, 4 晚), not money or a measure."""
    if fact.kind != FactKind.NUMBER or not fact.value or not fact.unit or fact.unit in lex.currency_codes:
        return False
    value = Decimal(fact.value)
    unit = fact.unit.lower()
    return (value == value.to_integral_value() and 0 < value <= _LARGEST and not fact.precision and unit != "%"
            and unit not in lex.unit_scales)


def _clause_before(fact: Fact, claim: str, start: int) -> str:
    """The words of the count's clause before it, as lexicon keys."""
    before = claim[: max(0, fact.start - start)]
    return term_key(before[clause_start(before, len(before)) :])


def _said_whole(clause: str, lex: Lexicon) -> bool:
    """Whether a whole-count cue (合计, 共, in total) stands in the clause before a count ("all 5 items" adds up no
    lines)."""
    return lex.cue_in((cue for cue in lex.whole_count_cues if cue != "all"), clause)


def _unit_of(fact: Fact) -> str:
    """A count's unit, lower case and singular (bags and bag are one)."""
    unit = (fact.unit or "").lower()
    return unit[:-1] if unit.isascii() and len(unit) > 3 and unit.endswith("s") else unit


def listed_count_total(fact: Fact, listed: list[ListedCount], claim: str, start: int, lex: Lexicon) -> Backing | None:
    """A count said as the whole (合计 6 件, "5 bags in total") after two or more counts of the same unit the
    answer gave and the records backed, that they do not add up to: the answer's own lines are the evidence
    ("2 + 2 + 1 = 5 件, not 6 件").

    Args:
        fact: A count of the claim no tool field states.
        listed: The answer's counts before it, in order.
        claim: The claim's text.
        start: Where the claim's text starts in the answer.
        lex: The lexicon (its whole-count cues).

    Returns:
        ("recomputed", how, []) when the listed counts add up to another number; None otherwise.
    """
    if not _is_count(fact, lex) or not _said_whole(_clause_before(fact, claim, start), lex):
        return None
    unit = _unit_of(fact)
    if any(count.claim == start and count.unit == unit for count in listed):
        return None  # "每人 2 件，3 位共 6 件": counts of the claim's own are factors, not lines
    lines: dict[int, list[ListedCount]] = {}
    for count in listed:
        if count.unit == unit:
            lines.setdefault(count.claim, []).append(count)
    parts: list[Decimal] = []
    for counts in list(lines.values())[::-1]:  # the lines right before it, one count of the unit each
        if counts[-1].whole or counts[-1].each:
            break  # the last list's whole, or a rate of each ("每位乘客 3 件"): the lines start after it
        if len(counts) != 1 or not counts[0].backed:
            return None  # a line of two counts of the unit, or one the records do not back: no evidence
        parts.append(counts[0].value)
    parts = parts[:_MOST_PARTS][::-1]
    if len(parts) < 2:
        return None
    total, claimed = sum(parts, Decimal(0)), Decimal(fact.value or "0")
    if total == claimed or claimed in _subset_sums(parts):
        return None  # "已到货合计 200 箱" of lines 120, 80 and 150: the whole of those its condition keeps
    how = " + ".join(f"{p.normalize():f}" for p in parts)
    said = f"{how} = {total.normalize():f} {fact.unit}"
    return "recomputed", f"the answer's own counts come to {said}, not {fact.text}", []


def _subset_sums(parts: list[Decimal]) -> set[Decimal]:
    """What some of the parts (one or more) add up to."""
    sums: set[Decimal] = set()
    for part in parts:
        sums |= {s + part for s in sums} | {part}
    return sums


def note_count(listed: list[ListedCount], fact: Fact, claim: str, start: int, lex: Lexicon) -> None:
    """Add a count the answer gives to those before it, once its verdict is set (a count read again replaces its
    first reading).

    Args:
        listed: The answer's counts so far.
        fact: A number just given its verdict.
        claim: Its claim's text.
        start: Where the claim's text starts in the answer.
        lex: The lexicon.
    """
    if not _is_count(fact, lex):
        return
    clause = _clause_before(fact, claim, start)
    count = ListedCount(_unit_of(fact), Decimal(fact.value or "0"), fact.verdict == Verdict.SUPPORTED,
                        _said_whole(clause, lex), start, fact.start, lex.per_unit_words.search(clause))
    if listed and listed[-1].at == count.at:
        listed[-1] = count
    else:
        listed.append(count)
