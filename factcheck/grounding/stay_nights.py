"""A count of nights said beside the stay's two dates: the nights between them, worked out."""

from __future__ import annotations

import re
from datetime import date

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.member_counts import part_count
from factcheck.grounding.verdicts import set_verdict
from factcheck.report import Fact, FactKind, Verdict

_NIGHTS = "nights"
"""The label (lexicon `fields`) of a count of nights, and of its unit: 晚, nights (晚了 14 个小时 is late, not
nights)."""
_BETWEEN = 24
"""Most characters between a stay's two dates ("Fri 16 May → Mon 19 May": " → Mon ")."""
_RANGE = re.compile(r"(?i)[→–—~～]|(?<![a-z])-(?![a-z])|\b(?:to|until|through|thru)\b|至|到|入住|退房|离店|check-?out")
"""What stands between a stay's first and last day: a dash or an arrow, "to", 至, or the word of the check-in after
the first (10月1日入住、10月5日退房) or of the check-out before the last."""


def nights_between(facts: list[Fact], claim: str, start: int, index: EvidenceIndex) -> None:
    """Check a count of nights against the two dates its claim gives: "10月12日入住、10月15日退房，共 2 晚" is 3
    nights, not 2, whatever else a tool's 2 is (two guests). The count is the claim's one count of nights, the dates
    its only two dates, both backed; the later one's day less the earlier one's is what the count must be.

    Not a count said of a part of the stay ("the first two nights", 其余 2 晚: `part_count`), nor one with a rate
    after it ("2 nights at €410"), nor an amount per night.

    Args:
        facts: The claim's facts, grounded.
        claim: The claim's text.
        start: Where the claim starts in the answer.
        index: The run's evidence.
    """
    counts = [f for f in facts if f.kind == FactKind.NUMBER and f.concept == _NIGHTS and f.value
              and f.value.isdigit() and _NIGHTS in index.lex.fields_in((f.unit or "").lower())]
    dates = [f for f in facts if f.kind == FactKind.DATE and f.value and f.verdict == Verdict.SUPPORTED]
    if len(counts) != 1 or len(dates) != 2 or part_count(counts[0], claim, start, index.lex):
        return
    between = claim[dates[0].end - start : dates[1].start - start]
    if len(between) > _BETWEEN or any(c.isdigit() for c in between) or not _RANGE.search(between):
        return  # "the nights of Oct 15 and Oct 16", 7/5 | 7/6: nights listed, not a stay's first and last day
    first, last = (_day(d.value or "") for d in dates)
    if first is None or last is None:
        return
    years = {d.value[:4] for d in dates if d.value and not d.value.startswith("--")}
    if len(years) == 1:  # "Jan 14 – Jan 17, 2027": the year written once is both dates'
        year = int(years.pop())
        first, last = _in_year(first, year), _in_year(last, year)
    if last < first:
        last = _in_year(last, first.year + 1)  # "12月30日 – 1月2日": the stay runs into the next year
    nights = (last - first).days
    if nights <= 0:
        return
    fact = counts[0]
    how = f"{dates[0].text} → {dates[1].text} is {nights} night{'s' if nights != 1 else ''}"
    evidence = [ev for d in dates for ev in d.evidence[:1]]
    if int(fact.value or 0) != nights:
        set_verdict(fact, Verdict.CONTRADICTED, "recomputed", f"{how}, not {fact.text}", evidence)
    elif fact.verdict != Verdict.SUPPORTED:
        set_verdict(fact, Verdict.SUPPORTED, "derived", f"number equals the nights between the dates: {how}", evidence)


def _day(value: str) -> date | None:
    """A date fact's value as a day: `2025-10-12`, or `--10-12` (no year: read in 2023, and 29 February in 2024)."""
    try:
        if value.startswith("--"):
            month, day = int(value[2:4]), int(value[5:7])
            return date(2024 if (month, day) == (2, 29) else 2023, month, day)
        return date(int(value[:4]), int(value[5:7]), int(value[8:10]))
    except (ValueError, IndexError):
        return None


def _in_year(day: date, year: int) -> date:
    """The same day of the month in another year (29 February: the 28th, where the year has none)."""
    try:
        return day.replace(year=year)
    except ValueError:
        return day.replace(year=year, day=28)
