"""Dates worked out from other dates: moved by days, business days, a week or a month."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

from factcheck.grounding.arithmetic import shifted_date
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.report import Fact, FactKind

_YEAR_DAYS = 366
"""Most days a claim's number is read as, moving a date (`worked_out`)."""
_BUSINESS_DAYS = 30
"""Most business days a number is read as ("1–5 个工作日", "5–10 business days"), moving a date."""
_WEEK = 7
"""Days of a weekly cycle's step."""
_DAY_OF_TRIP = re.compile(r"(?i)\bday\s?(\d{1,2})\b|(?<![A-Za-z])D(\d{1,2})\b|第\s?(\d{1,2})\s?天")
"""A day of a trip or a plan by its number ("Day 4", "D4", 第 4 天): its date is the first day's moved by one less."""
_BESIDE = 8
"""Most characters between a day's number and its date ("Day 4 (Sep 15)", "9月15日（D4）")."""


def worked_out(value: str, claim_facts: list[Fact], index: EvidenceIndex, claim: str = "", near: str = "",
               one_day: bool = True) -> bool:
    """Whether a date is a date of the tools or the context moved by a whole number of days: one, a number the
    claim says (its numbers up to a year's days, one less than a day of a trip's number: "Day 4 (Sep 15)" of a trip
    starting on Sep 12; in business days where the claim speaks of them, lexicon
    `business_day_cues`: "1–5 个工作日到账，最晚 6 月 18 日" of a transfer submitted on Tuesday 11 June), a week where
    it speaks of a weekly cycle (`weekly_cues`: 每周一放号), a duration the context gives ("within 30 days"); or by a
    month (a monthly cycle). A year is no such move: a warranty's end a year off is the misreading to catch.

    Args:
        value: The date (`YYYY-MM-DD`, or `--MM-DD` with no year written).
        claim_facts: Every fact of its claim.
        index: The run's evidence.
        claim: The claim's text.
        near: A tool's date the date may be a misreading of, whose year a date without one is read in.
        one_day: Whether a move by one day counts when no number of the claim says it.

    Returns:
        Whether some such move of a date the tools or the context give lands on it.
    """
    numbers = {int(Decimal(f.value)) for f in claim_facts if f.kind == FactKind.NUMBER and f.value
               and Decimal(f.value) == Decimal(f.value).to_integral_value() and 0 < Decimal(f.value) <= _YEAR_DAYS}
    days = ({1} if one_day else set()) | numbers | ({_WEEK} if index.lex.weekly_cues.search(claim) else set())
    days |= {int(next(g for g in m.groups() if g)) - 1 for m in _DAY_OF_TRIP.finditer(claim)} - {0}
    per_day = index.lex.duration_days
    days |= {int(Decimal(loc.mention.value) * per_day[unit]) for loc in index.context_mentions
             if loc.mention.kind == FactKind.NUMBER and (unit := (loc.mention.unit or "").lower()) in per_day
             and 0 < Decimal(loc.mention.value) * per_day[unit] <= _YEAR_DAYS}
    moves = [shifted_date(value, step * sign) for step in sorted(days) for sign in (1, -1)]
    year = value[:4] if not value.startswith("--") else near[:4]
    if index.lex.business_day_cues.search(claim):
        moves += [_business_days_moved(value, year, step * sign) for step in sorted(numbers)
                  if step <= _BUSINESS_DAYS for sign in (1, -1)]
    for moved in [*moves, _month_moved(value, 1), _month_moved(value, -1)]:  # a monthly cycle: Nov 5, due Dec 5
        if moved is not None and (
                any(same_date(moved, loc.mention.value) for loc in index.dates_times(FactKind.DATE, moved))
                or any(loc.mention.kind == FactKind.DATE and same_date(moved, loc.mention.value)
                       for loc in index.context_mentions)):
            return True
    return False


def _business_days_moved(value: str, year: str, days: int) -> str | None:
    """A date moved by `days` business days (Saturdays and Sundays skipped), in the same form; None when the date
    has no year to read its weekdays in."""
    if not year.isdigit():
        return None
    try:
        day = date(int(year), int(value[-5:-3]), int(value[-2:]))
    except ValueError:
        return None
    step, left = (1 if days > 0 else -1), abs(days)
    while left:
        day += timedelta(days=step)
        left -= day.weekday() < 5
    moved = f"{day.month:02d}-{day.day:02d}"
    return f"{day.year:04d}-{moved}" if not value.startswith("--") else f"--{moved}"


def same_date(claimed: str, evidence: str) -> bool:
    """Whether two dates (`YYYY-MM-DD`, `--MM-DD`) or times are the same; a missing year matches any."""
    if claimed == evidence:
        return True
    if ":" in claimed:
        return False
    cy, cmd = claimed[:-6].strip("-"), claimed[-5:]
    ey, emd = evidence[:-6].strip("-"), evidence[-5:]
    return cmd == emd and (not cy or not ey or cy == ey)


def _month_moved(value: str, months: int) -> str | None:
    """A date (`YYYY-MM-DD`, `--MM-DD`) on the same day `months` months away, or None when that month has no such
    day."""
    year, month = (int(value[:4]) if not value.startswith("--") else None), int(value[-5:-3]) - 1 + months
    year, month = (None if year is None else year + month // 12), month % 12 + 1
    moved = f"{year:04d}-{month:02d}-{value[-2:]}" if year is not None else f"--{month:02d}-{value[-2:]}"
    return moved if real_date(moved) else None


def real_date(moment: str) -> bool:
    """Whether `YYYY-MM-DD` or `--MM-DD` names a real date."""
    try:
        year = int(moment[:4]) if not moment.startswith("--") else 2000  # a leap year: 02-29 is a date
        date(year, int(moment[-5:-3]), int(moment[-2:]))
    except ValueError:
        return False
    return True


def trip_day(fact: Fact, claim: str, at: int, index: EvidenceIndex) -> Located | None:
    """The tool's date of a trip's or a plan's first day that a date said beside a day's number is: "Day 4 (Sep 15)",
    "9月15日（D4）", 第 4 天 of a tour whose `start_date` is 2025-09-12, moved by one less than the number.

    Args:
        fact: A date no tool gives.
        claim: The claim's text.
        at: Where the claim starts in the answer (the fact's offsets are the answer's).
        index: The run's evidence.

    Returns:
        The first day's date in a tool output, or None.
    """
    start, end = fact.start - at, fact.end - at
    beside = [m for m in _DAY_OF_TRIP.finditer(claim, max(0, start - _BESIDE), min(len(claim), end + _BESIDE))
              if m.end() <= start or m.start() >= end]
    if len(beside) != 1:
        return None
    number = int(next(g for g in beside[0].groups() if g))
    first = shifted_date(fact.value or "", 1 - number) if number > 1 else None
    if first is None:
        return None
    return next((loc for loc in index.dates_times(FactKind.DATE, first) if same_date(first, loc.mention.value)), None)
