"""The options a deadline in a superlative's scope keeps ("the cheapest service that arrives by Dec 6")."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import scalars_of
from factcheck.grounding.roles import ClaimText
from factcheck.grounding.windows import current_time
from factcheck.report import FactKind

Option = tuple[Decimal, str, Any]


def deadline_of(claim: ClaimText, end: int, index: EvidenceIndex, options: list[Option]) -> tuple[bool, date | None]:
    """The last day a superlative's scope allows ("arrives by Wednesday (Mar 12)", 12月6日 前送达, "beats
    Friday"): a date or weekday of the claim inside the scope, with a deadline cue right before it (lexicon
    `deadline_cues`, "by"; "before" leaves the day out) or right after it (前, 之前).

    A date without a year takes the year of the options' own dates; a weekday alone is the first such day from
    today (the current time the context or a tool gives, else the day before the soonest arrival an option gives).

    Args:
        claim: The claim.
        end: Where the scope ends in the claim's text: where the pick is introduced.
        index: The run's evidence.
        options: The options ranked.

    Returns:
        Whether the scope says a deadline by a cued date or weekday, and its day (None when it cannot be read).
    """
    text = claim.text
    bound = [f for f in claim.facts if f.kind == FactKind.DATE
             and f.start - claim.start < end and _cued(index, text, f.start - claim.start, f.end - claim.start)]
    dates = [(d, _strict(index, text, f.start - claim.start)) for f in bound
             if (d := _day(f.value or "", options)) is not None]
    weekdays = [(index.lex.weekday_of[hit.key], _strict(index, text, hit.start))
                for hit in index.lex.weekday_words.finditer(text[:end]) if _cued(index, text, hit.start, hit.end)]
    today = _today(index, options)
    if not dates and weekdays and today is not None:
        day, strict = weekdays[0]
        dates = [(today + timedelta(days=(day - today.weekday()) % 7), strict)]
    if dates:
        day, strict = dates[0]
        return True, day - timedelta(days=1) if strict else day
    return bool(bound or weekdays), None


def _today(index: EvidenceIndex, options: list[Option]) -> date | None:
    """The current day the context or a tool gives; else the day before the soonest arrival an option gives (a
    search of deliveries quotes none for today)."""
    now = current_time(index)
    if now is not None:
        return now[0].date()
    days = [d for o in options for v in _dated_values(o[2]) if (d := _iso_day(v)) is not None]
    return min(days) - timedelta(days=1) if days else None


def by_deadline(options: list[Option], last: date) -> list[Option]:
    """The options whose own delivery or arrival day (`est_delivery`, `eta`; the earliest when it has two) is on or
    before the last day; an option that gives no such day is kept."""
    kept = []
    for option in options:
        days = [d for d in (_iso_day(v) for v in _dated_values(option[2])) if d is not None]
        if not days or min(days) <= last:
            kept.append(option)
    return kept


def has_dates(options: list[Option]) -> bool:
    """Whether some option gives a delivery or arrival day."""
    return any(_iso_day(v) is not None for o in options for v in _dated_values(o[2]))


def _cued(index: EvidenceIndex, text: str, at: int, end: int) -> bool:
    """Whether the date or weekday at these offsets of the text is a bound: a deadline cue right before it ("by Dec
    6", "by Friday, Nov 7") or right after it (12月6日前, "周五（8/22）前")."""
    before = text[max(0, at - _REACH) : at].lower()
    after = text[end : end + _REACH]
    return bool(index.lex.deadline_cues.search(before)) or _AFTER.match(after) is not None


def _strict(index: EvidenceIndex, text: str, at: int) -> bool:
    """Whether the cue before a date leaves the day itself out ("before Friday": Thursday at the latest)."""
    hits = index.lex.deadline_cues.finditer(text[max(0, at - _REACH) : at].lower())
    return bool(hits) and hits[-1].key in _STRICT_CUES


def _dated_values(record: Any) -> list[Any]:
    """The values of an option's delivery or arrival fields."""
    if not isinstance(record, dict):
        return []
    out: list[Any] = []
    for key, value in record.items():
        if _DATED_FIELD.search(str(key)):
            out.extend(scalars_of(value) if isinstance(value, dict | list) else [value])
    return out


def _day(value: str, options: list[Option]) -> date | None:
    """A claim's date (`2026-12-06`, or `--12-06` in the year of the options' own dates)."""
    m = re.fullmatch(r"(\d{4}|-)-(\d{2})-(\d{2})", value)
    if m is None:
        return None
    if m[1] == "-":
        years = {d.year for o in options for v in _dated_values(o[2]) if (d := _iso_day(v)) is not None}
        if len(years) != 1:
            return None
        year = years.pop()
    else:
        year = int(m[1])
    try:
        return date(year, int(m[2]), int(m[3]))
    except ValueError:
        return None


def _iso_day(value: Any) -> date | None:
    """The day an ISO date or moment gives (`2026-12-06`, `2026-12-06T18:00`)."""
    if not isinstance(value, str):
        return None
    m = _ISO.match(value)
    if m is None:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


_REACH = 14
"""Characters either side of a date searched for its deadline cue ("by Friday, " before "Nov 7")."""
_STRICT_CUES = frozenset({"before"})
"""Deadline cues that leave their day out: what arrives on it is late."""
_AFTER = re.compile(r"[\s)）]*(?:之前|以前|前)")
"""A deadline cue right after a date (12月6日前, "周五（8/22）前")."""
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DATED_FIELD = re.compile(r"(?i)deliver|arriv|(?:^|_)eta(?:$|_)|estimated|due|送达|到达")
"""A field that gives when an option arrives (`est_delivery`, `eta`, `arrival`, `estimated_delivery`)."""
