"""A date said with a time that a tool gives as one moment of another day: the day moved, the time kept."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from factcheck.grounding.date_moves import same_date
from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.grounding.moments import bounded
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Claim, Fact, FactKind, Verdict

_MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})")
"""A moment in a tool's text (`2025-10-18 19:30`, `2025-10-18T19:30:00+08:00`): its date and its time."""
_GAP = re.compile(r"[\s,，、]*(?:[（(][^()（）\d]{1,12}[)）])?[\s,，、]*(?:at|@|on)?\s*")
"""What may stand between a date and its time: spaces, a comma, a weekday in brackets ("2025年10月19日（周六）19:30",
"Oct 19, at 7:30 PM")."""
_MOST_DAYS = 2
"""Most distinct days the tools give the time on: more (a daily departure at 08:00), and the time names no moment."""
_DEADLINE_REACH = 12
"""How far before the date (characters) a deadline's word makes it a deadline ("免费取消截止：10 月 2 日")."""


def day_moved(claims: list[Claim], index: EvidenceIndex) -> None:
    """Contradict a date no tool gives that the answer says with a time ("新时间：2025年10月19日（周六）19:30") when the
    tools give that time only as moments of other days (`new_time: 2025-10-18 19:30`), one or two of them: the
    time is the moment's, and its day was moved. A date with a bound or deadline word beside it ("until", 截止) is
    a range's end, often worked out from the moment (a cancellation deadline a day before check-in), and is left.

    Args:
        claims: The answer's claims, grounded.
        index: The run's evidence.
    """
    lex = index.lex
    for claim in claims:
        for fact in claim.facts:
            if fact.kind != FactKind.DATE or fact.verdict != Verdict.UNSUPPORTED or fact.code != "not_found" \
                    or not fact.value or bounded(fact, claim.text, claim.start, lex):
                continue
            at = fact.start - claim.start
            if lex.deadline_words.search(claim.text[max(0, at - _DEADLINE_REACH) : at].lower()):
                continue  # "免费取消截止：10 月 2 日 14:00": a deadline worked out from check-in
            time = _time_after(fact, claim)
            if time is None:
                continue
            moments: dict[str, Leaf] = {}
            for loc in index.dates_times(FactKind.TIME, time.value or ""):
                if loc.leaf.source != "tool":
                    continue
                for m in _MOMENT.finditer(loc.leaf.text):
                    if m[2] == time.value:
                        moments.setdefault(m[1], loc.leaf)
            if not moments or len(moments) > _MOST_DAYS or any(same_date(fact.value, day) for day in moments) \
                    or _counted(fact.value, moments, claim, index):
                continue
            leaf = next(iter(moments.values()))
            set_verdict(fact, Verdict.CONTRADICTED, "value_mismatch",
                        f"tool gives {time.text} only on {', '.join(sorted(moments))}, not {fact.text}",
                        [evidence_of(leaf, index)])


def _counted(value: str, moments: dict[str, Leaf], claim: Claim, index: EvidenceIndex) -> bool:
    """Whether the days between the date and a moment's, or as many hours, are a number the claim or the context
    gives ("the 48-hour window ended 15 Aug at 10:40" of a delivery on 13 Aug at 10:40): a window worked out."""
    said = {Decimal(f.value) for f in claim.facts if f.kind == FactKind.NUMBER and f.value}
    said |= {Decimal(loc.mention.value) for loc in index.context_mentions if loc.mention.kind == FactKind.NUMBER}
    for day in moments:
        try:
            days = abs((date.fromisoformat(day) - date.fromisoformat(day[:5] + value[-5:])).days)
        except ValueError:
            continue
        if days in said or days * 24 in said:
            return True
    return False


def _time_after(fact: Fact, claim: Claim) -> Fact | None:
    """The backed time said right after the date, with nothing but a weekday or a comma between them."""
    for other in claim.facts:
        if other.kind == FactKind.TIME and other.verdict == Verdict.SUPPORTED and other.start >= fact.end \
                and _GAP.fullmatch(claim.text[fact.end - claim.start : other.start - claim.start]):
            return other
    return None
