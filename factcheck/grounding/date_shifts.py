"""A date or time no tool gives, a little off one of the tools' that the answer never says: the tool's, moved."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.arithmetic import shifted_date, shifted_time
from factcheck.grounding.date_moves import same_date, worked_out
from factcheck.grounding.date_roles import WORKED
from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.grounding.moments import NAMED_DATE, bounded
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Claim, Fact, FactKind, Verdict

_CLOCK = re.compile(r"\d{2}:\d{2}(?::\d{2})?")
"""A time's value (`HH:MM`)."""
_MOST_DAYS = 3
"""Most days a tool's date may be moved to be read as the answer's date."""
_MOST_DATES = 2
"""Most tool dates that near the answer's it may be a moved one of: more, and it names none of them."""
_REACH = 32
"""How far (characters) before and after a date or time its clause is read for a bound, a limit or a relative day."""
_RANGE_BEFORE = re.compile(r"(?i)\d\s*(?:日|号)?\s*(?:[-–—~～至到、,，]|\bto\b|\band\b|和)\s*$")
"""Right before a date, another day and a range's or list's joint ("Nov 14–20", "6月2日–4日", "22, 23 and 24 Dec")."""
_RANGE_AFTER = re.compile(r"(?i)^\s*(?:[-–—~～至到]|\bto\b|\bthrough\b|\band\b)\s*(?:\d|[a-z]{3,9}\.?\s+\d)")
"""Right after a date, a range's joint and its other end ("Dec 19–21", "4 月 1 日—3 日")."""
_MOST_MINUTES = 60
"""Most minutes a tool's time may be moved to be read as the answer's time."""
_WORKED_TIME = re.compile(r"(?i)[≈~～]|也就是|即|差不多|[前后]|\bi\.e\.|\b(?:so|by|until|before|after)\b")
"""Words in a time's clause that make it worked out from another or a limit ("也就是 19:43", "so around 20:08",
"8:20 前到达")."""
_ROUNDED = 15
"""Fewest minutes a time on the hour or half hour must be from the tool's to be read as moved, not rounded."""
_PAST_HOUR = 3
"""How far after a time (characters) a word that makes it some time past the hour is read ("10 点多")."""
_CLOCK_RANGE = re.compile(r"\d{1,2}[:：.]\d{2}\s*(?:[ap]\.?m\.?)?\s*(?:[-–—~～至到]|to)\s*$|"
                          r"^\s*(?:[-–—~～至到]|to)\s*\d")
"""A time joined to another as a range ("20:15–01:42", "14:00–16:00"): its end is often worked out."""
_AFTER_TIME = re.compile(r"(?i)\d{1,2}[:：.]\d{2}\s*(?:[ap]\.?m\.?)?\s*[（(]\s*$")
"""A time and an opening bracket right before a date ("1:55 AM (Mar 15)"): the day a time past midnight falls on."""
_LIMIT_AFTER = re.compile(r"(?i)^[\s,，]*(?:[（(][^()（）]{0,16}[)）])?[\s,，]*(?:at\s+)?"
                          r"(?:\d{1,2}[:：.]\d{2}|\d{1,2}\s*[ap]\.?m\.?)?\s*(?:[ap]\.?m\.?)?\s*"
                          r"(?:[（(][^()（）]{0,16}[)）])?\s*(?:前|之前|以前|止|为止|before\b)")
"""After a date and its time, a limit's word ("7月18日18:00（酒店当地时间）前", "Nov 14, 14:30 before")."""


def record_date_moved(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict a date no tool gives ("Drop-off：4 月 7 日（周一）", "入园日期 10月4日") when a tool gives a date one
    to three days from it (`dropoff.datetime: 2025-04-06`, one or two such dates) that the answer says nowhere: the
    answer reports the record's date, moved. A date worked out is left: one with a bound, deadline or limit word
    beside it ("until", 截止, "18:00 前"), a day of today's (lexicon `relative_days`: tomorrow, 明天, the next
    business day), an end of a range or a list ("Nov 14–20"), or as many days from the tool's date as a number the
    claim or the context gives.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    said = [f.value for claim in claims for f in claim.facts if f.kind == FactKind.DATE and f.value]
    for claim in claims:
        for fact in claim.facts:
            if fact.kind != FactKind.DATE or fact.verdict != Verdict.UNSUPPORTED or fact.code != "not_found" \
                    or fact.evidence or not fact.value or not NAMED_DATE.search(fact.text) \
                    or _worked(fact, claim, index):
                continue
            near = _near_dates(fact.value, index)
            if not near or len(near) > _MOST_DATES or any(same_date(v, day) for day in near for v in said) \
                    or _counted(fact.value, near, claim, index):
                continue
            leaf, days = next(iter(near.values()))
            set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                        f"tool gives {leaf.text} ({leaf.path or 'text'}), {days} day{'s' * (days > 1)} from "
                        f"{fact.text}, a date the answer never says", [evidence_of(leaf, index)])


def record_time_moved(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict a time no tool gives ("Pick-up: Saturday 5 July, 7:30 AM") when a tool gives a time up to an hour
    from it (`pickup_time: 07:15`, one or two such times) that the answer says nowhere: the answer reports the
    record's time, moved. A time worked out is left: one in a clause with a duration or a count of the claim, an
    approximating word (around, 左右), a limit or a worked-out word (by, before, 前, 也就是), an end of a range, a time
    past the hour ("10 点多"), or a whole or half hour less than a quarter hour from the tool's (rounded).

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    lex = index.lex
    said = {f.value for claim in claims for f in claim.facts if f.kind == FactKind.TIME and f.value}
    for claim in claims:
        for fact in claim.facts:
            if fact.kind != FactKind.TIME or fact.verdict != Verdict.UNSUPPORTED or fact.code != "not_found" \
                    or fact.evidence or not fact.value or not _CLOCK.fullmatch(fact.value):
                continue
            at, end = fact.start - claim.start, fact.end - claim.start
            clause = claim.text[max(0, at - _REACH) : end + _REACH]
            if _WORKED_TIME.search(clause) or lex.approximators.search(clause.lower()) \
                    or lex.approximators_after.search(clause.lower()) \
                    or lex.past_hour_markers.search(claim.text[end : end + _PAST_HOUR]) \
                    or _CLOCK_RANGE.search(claim.text[max(0, at - _REACH) : at]) \
                    or _CLOCK_RANGE.match(claim.text[end:]) \
                    or any(f.kind == FactKind.NUMBER for f in claim.facts if abs(f.start - fact.start) <= _REACH):
                continue
            near: dict[str, tuple[Leaf, int]] = {}
            for minutes in range(1, _MOST_MINUTES + 1):
                for sign in (1, -1):
                    moved = shifted_time(fact.value, minutes * sign)
                    for loc in index.dates_times(FactKind.TIME, moved):
                        if loc.leaf.source == "tool" and index.calls[loc.leaf.index].status != "error" \
                                and loc.mention.value[:5] == moved:
                            near.setdefault(moved, (loc.leaf, minutes))
            if not near or len(near) > _MOST_DATES or any(t[:5] in near for t in said):
                continue
            leaf, minutes = next(iter(near.values()))
            if fact.value[3:5] in ("00", "30") and min(m for _, m in near.values()) < _ROUNDED:
                continue  # "at 9 PM" of 21:02: a time rounded
            set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                        f"tool gives {leaf.text} ({leaf.path or 'text'}), {minutes} minute{'s' * (minutes > 1)} from "
                        f"{fact.text}, a time the answer never says", [evidence_of(leaf, index)])


def _worked(fact: Fact, claim: Claim, index: EvidenceIndex) -> bool:
    """Whether the words beside the date make it worked out from another: a bound, a deadline, a limit, a day
    counted from today, a range's or a list's other end."""
    lex, text = index.lex, claim.text
    at, end = fact.start - claim.start, fact.end - claim.start
    before, after = text[max(0, at - _REACH) : at], text[end : end + _REACH]
    return bool(
        bounded(fact, text, claim.start, lex)
        or lex.deadline_words.search(before.lower())
        or WORKED.search(before) or WORKED.search(after[:4]) or _LIMIT_AFTER.match(after)
        or lex.relative_days.search(before.lower()) or lex.relative_days.search(after.lower())
        or _RANGE_BEFORE.search(before) or _RANGE_AFTER.match(after) or _AFTER_TIME.search(before)
    )


def _near_dates(value: str, index: EvidenceIndex) -> dict[str, tuple[Leaf, int]]:
    """The dates of the tools' outputs (failed calls' left out) one to `_MOST_DAYS` days from `value` (in any year
    when it has none), each with a leaf and its days from `value`."""
    found: dict[str, tuple[Leaf, int]] = {}
    for days in range(1, _MOST_DAYS + 1):
        for sign in (1, -1):
            moved = shifted_date(value, days * sign)
            if moved is None:
                continue
            for loc in index.dates_times(FactKind.DATE, moved):
                if loc.leaf.source == "tool" and index.calls[loc.leaf.index].status != "error" \
                        and same_date(moved, loc.mention.value):
                    found.setdefault(loc.mention.value, (loc.leaf, days))
    return found


def _counted(value: str, near: dict[str, tuple[Leaf, int]], claim: Claim, index: EvidenceIndex) -> bool:
    """Whether the date is worked out: a date of the tools or the context moved by as many days as a number the
    claim or the context gives (`worked_out`: "within 4 days of pickup, on June 12"), or a near date moved by as
    many hours ("the 48-hour window closes 15 Aug")."""
    said = {Decimal(f.value) for f in claim.facts if f.kind == FactKind.NUMBER and f.value}
    said |= {Decimal(loc.mention.value) for loc in index.context_mentions if loc.mention.kind == FactKind.NUMBER}
    return any(days * 24 in said for _, days in near.values()) or worked_out(
        value, claim.facts, index, claim.text, next(iter(near)), one_day=False)
