"""Dates, times and durations worked out from others: a weekday, a date or time a backed duration away."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from itertools import combinations, product
from typing import Any

from factcheck.grounding.arithmetic import shifted_date, shifted_time
from factcheck.grounding.date_moves import real_date, same_date, worked_out
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.user_word import neighbours
from factcheck.grounding.verdicts import Backing, evidence_of, set_verdict
from factcheck.lexicon import Lexicon
from factcheck.report import Evidence, Fact, FactKind, Verdict

_ISO_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_CLOCK_SECONDS = re.compile(r"\d{1,2}[:：]\d{2}[:：](\d{2})")
"""The seconds of a clock time written with them (14:09:47): a time's value keeps only hours and minutes."""
_DURATION_GAP = re.compile(r"\s*(\S+?)\s*(?:,|，|and|和|零)?\s*", re.IGNORECASE)
"""What stands between two parts of one duration: the first part's unit and a joiner (2 hours and 35 minutes)."""
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


WINDOW_END = "the context's window"
NAMED_DATE = re.compile(r"[A-Za-z]{3}|月|\d{4}")
"""A date written with its month's name, 月 or its year (not "3/8", which may be a fraction)."""
_BOUND_REACH = 12
"""How far from a date a range's bound word is read (`bounded`)."""
"""How a date backed as the end of a window the context gives says so (a deadline `windows.passed_deadline` reads)."""
_LONGEST_WINDOW = 366
"""Most days of a window the context gives that a claimed date may close (a return or claim window)."""


def shifted(fact: Fact, claim_facts: list[Fact], earlier: list[Fact], index: EvidenceIndex) -> None:
    """Back a date or time that is a backed duration of the claim away from a backed date or time.

    "Delivered on May 2, so the 30-day window runs through June 1"; "arrive 15 minutes before
    your 2:00 PM slot, at 1:45 PM". The duration must be a number of the same claim with a unit
    of `duration_days` or the lexicon's time units (whole days for a date: "48 hours before July 12"),
    backed by a tool or the context.

    Args:
        fact: A date or time no tool output gives.
        claim_facts: Every fact of its claim.
        earlier: The backed dates and times of the answer's earlier claims.
        index: The run's evidence.
    """
    lex = index.lex
    # days for a date (48 hours is two), minutes for a time
    seconds_per = 86400 if fact.kind == FactKind.DATE else 60
    per_unit = {unit: seconds / seconds_per for unit, seconds in lex.duration_seconds.items()}
    if fact.kind == FactKind.DATE:
        per_unit.update(lex.duration_days)
    amounts = [
        (Decimal(f.value or "0") * per_unit[(f.unit or "").lower()], f) for f in claim_facts
        if f.kind == FactKind.NUMBER and f.verdict == Verdict.SUPPORTED and (f.unit or "").lower() in per_unit
    ]
    spans = [(int(amount), f) for amount, f in amounts if amount == amount.to_integral_value()]
    said = [f for f in earlier + claim_facts if f.kind == fact.kind and f.verdict == Verdict.SUPPORTED]
    # a date written without its year is in the year of the answer's backed dates (Feb. 20 + 30 days)
    year = next((y for y in map(_year_of, said) if y is not None), 2000) if fact.kind == FactKind.DATE else 2000
    for amount, span in spans:
        for step in (amount, -amount):
            # the date or time it is a duration away from: one the answer backed, or one a tool gives
            base = (
                shifted_date(fact.value or "", -step, year) if fact.kind == FactKind.DATE
                else shifted_time(fact.value or "", -step)
            )
            if base is None:
                continue
            found = next((f for f in said if same_date(f.value or "", base)), None)
            if found is not None:
                where, leaves = found.text, found.evidence[:1]
            else:
                locs = _given(index, fact.kind, base)
                if not locs:
                    continue
                where, leaves = locs[0].leaf.text, [evidence_of(locs[0].leaf, index)]
            how = f"{where} {'+' if step > 0 else '−'} {span.text} {span.unit}"
            evidence = [ev.model_copy(update={"note": how}) for ev in leaves + span.evidence[:1]]
            set_verdict(fact, Verdict.SUPPORTED, "derived", f"{fact.kind.value} equals {how}", evidence)
            return
    if fact.kind == FactKind.DATE:
        _window_end(fact, claim_facts, per_unit, year, index)


def _window_end(fact: Fact, claim_facts: list[Fact], per_unit: dict[str, Any], year: int,
                index: EvidenceIndex) -> None:
    """Back a date that is a backed date of the same claim plus a window of days the context gives ("returnable
    until Dec 21" of "delivered Nov 21" and the policy's "within 30 days of delivery"): the end of that window."""
    said = [f for f in claim_facts if f is not fact and f.kind == FactKind.DATE and f.verdict == Verdict.SUPPORTED
            and f.start < fact.start]
    if not said:
        return
    for loc in index.context_mentions:
        mention = loc.mention
        days = Decimal(mention.value) * Decimal(str(per_unit.get((mention.unit or "").lower(), 0))) \
            if mention.kind == FactKind.NUMBER else Decimal(0)
        if days <= 0 or days != days.to_integral_value() or days > _LONGEST_WINDOW:
            continue
        base = shifted_date(fact.value or "", -int(days), year)
        found = next((f for f in said if base is not None and same_date(f.value or "", base)), None)
        if found is not None:
            how = f"{found.text} + {loc.leaf.text[mention.start:mention.end]} ({WINDOW_END})"
            evidence = [ev.model_copy(update={"note": how}) for ev in found.evidence[:1]]
            set_verdict(fact, Verdict.SUPPORTED, "derived", f"date equals {how}", evidence)
            return


def _given(index: EvidenceIndex, kind: FactKind, value: str) -> list[Located]:
    """The dates or times tool outputs give that are `value` (a date without a year matches any year)."""
    return [loc for loc in index.dates_times(kind, value) if same_date(value, loc.mention.value)]


def duration_seconds(fact: Fact, claim_facts: list[Fact], text: str, start: int, lex: Lexicon) -> int | None:
    """The seconds of the duration a number is part of: "48 分钟", "4 小时 28 分", "2 hours and 35 minutes".

    The parts of one duration stand next to each other, each with its unit, larger units first.
    A unit of `duration_compound_units` (分) is a duration only beside another part.

    Args:
        fact: A number of the claim.
        claim_facts: Every fact of its claim.
        text: The claim's text.
        start: Where the claim's text starts in the answer (facts' offsets are the answer's).
        lex: The lexicon giving each unit's seconds.

    Returns:
        The whole duration in seconds, or None when the number is no duration.
    """
    unit = (fact.unit or "").lower()
    if unit not in lex.duration_seconds and unit not in lex.duration_compound_units:
        return None  # most numbers: no duration at all
    numbers = sorted((f for f in claim_facts if f.kind == FactKind.NUMBER), key=lambda f: f.start)
    at = next(i for i, f in enumerate(numbers) if f is fact)
    first = last = at
    while first > 0 and _next_part(numbers[first - 1], numbers[first], text, start):
        first -= 1
    while last + 1 < len(numbers) and _next_part(numbers[last], numbers[last + 1], text, start):
        last += 1
    parts = numbers[first : last + 1]
    sizes = [
        lex.duration_seconds.get(unit) or (lex.duration_compound_units.get(unit) if len(parts) > 1 else None)
        for unit in ((f.unit or "").lower() for f in parts)
    ]
    if any(size is None for size in sizes) or any(a <= b for a, b in zip(sizes, sizes[1:], strict=False)):
        return None  # not a duration, or parts out of order (a list of durations, not one)
    return int(sum(Decimal(f.value or "0") * size for f, size in zip(parts, sizes, strict=True) if size))


def _next_part(part: Fact, following: Fact, text: str, start: int) -> bool:
    """Whether `following` continues the duration `part` begins: only `part`'s unit and a joiner between."""
    gap = _DURATION_GAP.fullmatch(text, part.end - start, following.start - start)
    return gap is not None and gap[1].lower() == (part.unit or "").lower()


_TIMES_IN_TEXT = 8
"""At most this many clock times in one text are read as one record's (a short log); a long log is no record."""
_CLOCK_VALUE = re.compile(r"(?:^|[T\s])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
"""A clock time in a tool's value ("08:12", "2025-07-01T13:41:00Z")."""


def record_duration(seconds: int, index: EvidenceIndex) -> Evidence | None:
    """Evidence for a duration equal to the time between two clock times of one tool record (depart, arrive).

    Args:
        seconds: The claimed duration.
        index: The run's evidence.

    Returns:
        The evidence of the first such pair, or None.
    """
    for flat in index.flats:
        by_record: dict[int, list[tuple[int, str, Any, str]]] = {}
        for shape, bucket in flat.strings.items():
            for text, (node, key) in bucket.items():
                clocks = list(_CLOCK_VALUE.finditer(text)) if ":" in text else []
                # a value is one time ("08:12"), or a short text whose times are one record's (a log)
                for m in clocks if len(clocks) <= _TIMES_IN_TEXT else ():
                    if int(m[1]) < 24 and int(m[2]) < 60:
                        clock = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3] or 0)
                        shown = text if len(clocks) == 1 else m.group().strip()
                        by_record.setdefault(id(node), []).append((clock, shape, (node, key), shown))
        for times in by_record.values():
            for (a, shape, (node, key), text), (b, *_rest, other) in combinations(times, 2):
                if seconds in ((b - a) % 86400, (a - b) % 86400):
                    how = f"the time between {text} and {other} of one record"
                    leaf = index.leaf(flat.call, flat.path(node, key), shape, text)
                    return evidence_of(leaf, index, how)
    return None


def seconds_between(first: Fact, last: Fact) -> tuple[int, int]:
    """Seconds from one backed clock time to the other, each way round the clock ("9:20 AM instead of 8:05 AM")."""
    (h1, m1, s1), (h2, m2, s2) = (_clock(f) for f in (first, last))
    forward = (h2 * 3600 + m2 * 60 + s2 - h1 * 3600 - m1 * 60 - s1) % (24 * 3600)
    return forward, (24 * 3600 - forward) % (24 * 3600)


def _clock(fact: Fact) -> tuple[int, int, int]:
    """Hours, minutes and seconds of a time fact (seconds as written, else 0)."""
    hours, minutes = map(int, (fact.value or "0:0").split(":")[:2])
    written = _CLOCK_SECONDS.search(fact.text)
    return hours, minutes, int(written[1]) if written else 0


def zoned(fact: Fact, claim: str, claim_facts: list[Fact], index: EvidenceIndex, earlier_zone: str = "") -> bool:
    """Back a time or date the claim gives in a time zone it names, from a tool's time written with its offset.

    "10:30 AM Eastern" of 2026-03-17T14:30:00Z; "北京时间 3 月 17 日早上 6:40" of 2026-03-16T22:40:00Z.

    Args:
        fact: A time or date no tool output gives as written.
        claim: The claim's text (the time zone may stand anywhere in it).
        claim_facts: Every fact of the claim: a time's moment must fall on a date the claim gives, if it gives one.
        index: The run's evidence.
        earlier_zone: The time zone an earlier claim of the answer named, used when this one names none
            ("北京时间 10:14 被检测到 …。10:49 已回滚").

    Returns:
        Whether the fact was backed.
    """
    lex = index.lex
    hits = lex.time_zone_words.finditer(claim) or lex.time_zone_words.finditer(earlier_zone)
    offsets = {o for hit in hits for o in lex.time_zones[hit.key]}
    if not offsets:
        return False
    value = fact.value or ""
    dates = [f.value or "" for f in claim_facts if f.kind == FactKind.DATE]
    for moment, dated, entry in index.strings.zoned_times():
        for offset in sorted(offsets):
            local = moment + timedelta(hours=offset)
            day = f"{local.year:04d}-{local.month:02d}-{local.day:02d}"
            if fact.kind == FactKind.TIME:
                on_day = not dated or not dates or any(same_date(d, day) for d in dates)
                ok = on_day and value[:5] == f"{local.hour:02d}:{local.minute:02d}"
            else:
                ok = dated and same_date(value, day)
            if ok:
                leaf = index.string_leaf(entry)
                how = f"{leaf.text[:40]} at UTC{offset:+g}"
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"{fact.kind.value} equals {how}",
                            [evidence_of(leaf, index, how)])
                return True
    return False


def in_other_zone(fact: Fact, claim: str, start: int, claim_facts: list[Fact], lex: Lexicon) -> bool:
    """Back a time the claim gives in one time zone by a backed time of the claim in another.

    "2:41 AM Eastern (6:41 UTC)": each time takes the zone word nearest it (within a few
    characters), and the two must be the same moment in one of the zones' offsets.

    Args:
        fact: A time no tool output gives.
        claim: The claim's text.
        start: Where the claim's text starts in the answer (facts' offsets are the answer's).
        claim_facts: Every fact of its claim.
        lex: The lexicon naming time zones.

    Returns:
        Whether the fact was backed.
    """
    hits = lex.time_zone_words.finditer(claim)
    if fact.kind != FactKind.TIME or len(hits) < 2:
        return False

    def zone_of(f: Fact) -> tuple[str, str] | None:
        """The nearest zone word's key and text; one across a bracket ("14:41（UTC 6:41）") only if none is nearer."""
        a, b = f.start - start, f.end - start
        near = []
        for h in hits:
            between = claim[b : h.start] if h.start >= b else claim[h.end : a]
            near.append((any(ch in "()（）" for ch in between), len(between), h.key, claim[h.start : h.end]))
        _, gap, key, said = min(near)
        return (key, said) if gap <= _ZONE_GAP else None

    own = zone_of(fact)
    for other in claim_facts:
        if other is fact or other.kind != FactKind.TIME or other.verdict != Verdict.SUPPORTED:
            continue
        zone = zone_of(other)
        if own is None or zone is None or zone[0] == own[0]:
            continue
        for mine, theirs in product(lex.time_zones[own[0]], lex.time_zones[zone[0]]):
            if shifted_time(other.value or "00:00", round((mine - theirs) * 60)) == (fact.value or "")[:5]:
                how = f"{other.text} {zone[1]} at UTC{mine:+g}"
                set_verdict(fact, Verdict.SUPPORTED, "derived", f"time equals {how}",
                            [ev.model_copy(update={"note": how}) for ev in other.evidence[:1]])
                return True
    return False


_ZONE_GAP = 12
"""How far (in characters) a time zone word may stand from the time it names."""


_HALF_DAY = re.compile(r"[ap]\.?m|上午|下午|早上|晚上|中午|傍晚|凌晨|早|晚", re.IGNORECASE)
"""Words that say which half of the day a clock time is in."""


def other_half_of_day(fact: Fact, index: EvidenceIndex) -> bool:
    """Back a time written without a.m. or p.m. ("a 7:15 table") by the tool's time twelve hours on (19:15).

    Args:
        fact: A time no tool output gives as written.
        index: The run's evidence.

    Returns:
        Whether the fact was backed.
    """
    value = fact.value or "00:00"
    if _HALF_DAY.search(fact.text) or not 1 <= int(value[:2]) <= 11:
        return False
    later = shifted_time(value, 12 * 60)
    matches = _given(index, fact.kind, later)
    if not matches:
        return False
    set_verdict(fact, Verdict.SUPPORTED, "match", f"the time {later}, written without a.m. or p.m.",
                [evidence_of(matches[0].leaf, index)])
    return True


_NEAR_MINUTES = 30
"""How far an approximate time ("just after 9 PM") may be from the tool's."""


def approximate_time(fact: Fact, before: str, index: EvidenceIndex) -> bool:
    """Back a time on the quarter hour after an approximator ("just after 9 PM") by a tool's time near it.

    Args:
        fact: A time no tool output gives as written.
        before: The claim's text before it.
        index: The run's evidence.

    Returns:
        Whether the fact was backed.
    """
    value = fact.value or "00:00"
    tail = before.rstrip()[-16:]
    hits = index.lex.approximators.finditer(tail)
    if int(value[-2:]) % 15 or not hits or hits[-1].end != len(tail):
        return False
    return _given_near(fact, value, _AROUND, "about", index)


def time_said_after(fact: Fact, after: str, index: EvidenceIndex) -> bool:
    """Back a whole hour said loosely by a word after it by a tool's time near it.

    After `past_hour_markers` ("9 点多") the time is within the hour after; after
    `approximators_after` ("3 点左右", "9 PM or so") within half an hour either side.

    Args:
        fact: A time no tool output gives as written.
        after: The claim's text after it.
        index: The run's evidence.

    Returns:
        Whether the fact was backed.
    """
    value = fact.value or "00:00"
    if value[-2:] != "00":
        return False
    lex, after = index.lex, after.lstrip()
    if lex.past_hour_markers.match_at(after, 0):
        return _given_near(fact, value, range(1, 60), "within the hour after", index)
    if lex.approximators_after.match_at(after, 0):
        return _given_near(fact, value, _AROUND, "about", index)
    return False


_AROUND = sorted(range(-_NEAR_MINUTES, _NEAR_MINUTES + 1), key=abs)
"""Minutes from a time said approximately, nearest first."""


def _given_near(fact: Fact, value: str, offsets: Iterable[int], said: str, index: EvidenceIndex) -> bool:
    """Back a time by a tool's time some minutes from it (`offsets`, tried in order)."""
    for minutes in offsets:
        near = shifted_time(value, minutes)
        matches = _given(index, fact.kind, near)
        if matches:
            set_verdict(fact, Verdict.SUPPORTED, "match", f"{said} {value}: the time {near} a tool output gives",
                        [evidence_of(matches[0].leaf, index)])
            return True
    return False


def day_of_month(fact: Fact, claimed: Decimal, after: str, dated: list[Fact], index: EvidenceIndex) -> Backing | None:
    """Back a day of the month said alone ("周日（23 日）") in the month of a date the answer gave before it.

    Args:
        fact: A number no tool output gives.
        claimed: Its value.
        after: The claim's text after it (日 or 号 must follow).
        dated: The answer's backed dates and times so far, and its claim's facts.
        index: The run's evidence.

    Returns:
        How it is backed, or None.
    """
    if not after.lstrip().startswith(("日", "号")) or claimed != claimed.to_integral_value() or not 1 <= claimed <= 31:
        return None
    months = (d.value[-5:-3] for d in dated if d.kind == FactKind.DATE and d.value and d.start < fact.start)
    for month in dict.fromkeys(months):
        date = f"--{month}-{int(claimed):02d}"
        matches = _given(index, FactKind.DATE, date)
        if matches:
            return "derived", f"day {claimed} of the month the answer named ({date})", [
                evidence_of(matches[0].leaf, index)]
    return None


_EPOCH_SECONDS = (946_684_800, 4_102_444_800)
"""Unix times from 2000 to 2100: a JSON integer in this range may be a moment (`current_period_end`)."""


def epoch_date(fact: Fact, index: EvidenceIndex) -> bool:
    """Back a date by a Unix time a tool gives (1777507200 is 2026-04-30 UTC), in seconds or milliseconds.

    Args:
        fact: A date no tool output gives as written.
        index: The run's evidence.

    Returns:
        Whether the fact was backed.
    """
    value = fact.value or ""
    lo, hi = _EPOCH_SECONDS
    for flat in index.flats:
        for shape, (values, nodes, keys) in flat.numbers.items():
            for number, node, key in zip(values, nodes, keys, strict=True):
                if type(number) is not int:
                    break  # a column of floats holds no Unix times
                seconds = number // 1000 if lo * 1000 <= number < hi * 1000 else number
                if not lo <= seconds < hi:
                    continue
                day = datetime.fromtimestamp(seconds, tz=timezone.utc)
                if same_date(value, f"{day.year:04d}-{day.month:02d}-{day.day:02d}"):
                    leaf = index.leaf(flat.call, flat.path(node, key), shape, str(number), numeric=True)
                    how = f"{number} is {day:%Y-%m-%d %H:%M} UTC"
                    set_verdict(fact, Verdict.SUPPORTED, "derived", f"date equals {how}",
                                [evidence_of(leaf, index, how)])
                    return True
    return False


def weekday(fact: Fact, claim_facts: list[Fact]) -> None:
    """A day of the week must be its date's, in the year the answer or the tool gives that date.

    Args:
        fact: The weekday.
        claim_facts: Every fact of its claim (the nearest date is the one it names).
    """
    dates = [f for f in claim_facts if f.kind == FactKind.DATE]
    if not dates:
        fact.reason = "no date beside it"
        return
    day = min(dates, key=lambda d: min(abs(d.start - fact.end), abs(fact.start - d.end)))
    year = _year_of(day)
    if year is None:
        fact.reason = f"the year of {day.text} is not known"
        return
    try:
        day_of_week = date(year, int(day.value[-5:-3]), int(day.value[-2:])).weekday()
    except ValueError:
        fact.reason = f"{day.text} is not a date"
        return
    said = f"{day.text}{'' if str(year) in day.text else f' ({year})'} is a {_WEEKDAYS[day_of_week]}"
    evidence = [ev.model_copy(update={"note": said}) for ev in day.evidence[:1]]
    if str(day_of_week) == fact.value:
        set_verdict(fact, Verdict.SUPPORTED, "derived", said, evidence)
    else:
        set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch", f"{said}, not {fact.text}", evidence)


def _year_of(day: Fact) -> int | None:
    """The year of a date fact: written in the answer, or in the tool's text that backs it."""
    if day.value and not day.value.startswith("--"):
        return int(day.value[:4])
    if day.verdict != Verdict.SUPPORTED or not day.value:
        return None
    month, dom = int(day.value[-5:-3]), int(day.value[-2:])
    for ev in day.evidence[:1]:
        for m in _ISO_DATE.finditer(ev.text):
            if (int(m[2]), int(m[3])) == (month, dom):
                return int(m[1])
    return None


def date_near(fact: Fact, index: EvidenceIndex, claim_facts: list[Fact], claim_text: str, start: int
              ) -> Located | None:
    """A tool's date one digit off a date no tool gives ("6 月 12 日" of `estimated_delivery: 2024-06-14`,
    "2025年6月17日" of `end: 2026-06-17`): the date it misread.

    The digits compared are the year, month and day (the month and day when no year is written), one substituted
    or two neighbours swapped, the first kept (`user_word.neighbours`); the neighbour must be a real date. Only a
    date written with its month's name, 月 or its year is read ("3/8" may be a fraction), and none a bound word
    stands beside ("since Nov 3", "11月3日以来", "until December 10": a range's end, often worked out). A date some
    whole days away from a date of the tools or the context, as many as a number of the claim or a duration of the
    context says, or one, is worked out, not misread ("In the last 30 days (since Oct 19)"; "the day before
    check-in, 12月23日"; delivered Nov 10, returnable within 30 days: Dec 10): it has no neighbour. Times are not
    read: a time one digit off a tool's is as often worked out (an hour before, two hours from now) as misread.

    Args:
        fact: A date no tool output gives.
        index: The run's evidence.
        claim_facts: Every fact of its claim.
        claim_text: The claim's text.
        start: Where the claim starts in the answer.

    Returns:
        The tool's date, or None.
    """
    value = fact.value or ""
    if fact.kind != FactKind.DATE or not NAMED_DATE.search(fact.text) or bounded(fact, claim_text, start, index.lex):
        return None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        digits, shape = value.replace("-", ""), "{}{}{}{}-{}{}-{}{}"
    elif re.fullmatch(r"--\d{2}-\d{2}", value):
        digits, shape = value.replace("-", ""), "--{}{}-{}{}"
    else:
        return None
    if not digits.isdigit():
        return None
    for near in sorted(neighbours(digits)):
        moment = shape.format(*near)
        if not real_date(moment):
            continue
        found = [loc for loc in index.dates_times(fact.kind, moment)
                 if loc.leaf.source == "tool" and same_date(moment, loc.mention.value)]
        if found:
            return None if worked_out(value, claim_facts, index, claim_text, found[0].mention.value) else found[0]
    return None


def bounded(fact: Fact, claim_text: str, start: int, lex: Lexicon) -> bool:
    """Whether a bound word of a range stands right before or after a date ("since Nov 3", "11月3日以来")."""
    at = fact.start - start
    return lex.date_bounds.search(claim_text, max(0, at - _BOUND_REACH), at) \
        or lex.date_bounds.search(claim_text, at + len(fact.text), at + len(fact.text) + _BOUND_REACH)
