"""Time windows: "still within the 24-hour window", "已超过 30 天", worked out from the records' moments."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from factcheck.grounding.moments import WINDOW_END
from factcheck.grounding.verdicts import set_verdict
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex
    from factcheck.report import Evidence

_UNITS = {"minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400, "week": 604800,
          "分钟": 60, "小时": 3600, "天": 86400, "日": 86400, "周": 604800}
_EN_UNIT = r"(minute|min|hour|hr|day|week)s?"
_ZH_UNIT = r"(分钟|小时|天|日|周(?!岁|年))"
_WITHIN = (
    re.compile(rf"(?i)\b(?:within|inside|under|less than|no more than|still in)\s+(?:the\s+|a\s+)?"
               rf"(?:(?:last|past|first)\s+)?(\d+(?:\.\d+)?)[\s-]*{_EN_UNIT}"),
    re.compile(rf"(\d+(?:\.\d+)?)\s*{_ZH_UNIT}[^，。,;；]{{0,10}}?(?:以内|之内|内)"),
    re.compile(rf"(?:不到|不满|未满|不足)\s*(\d+(?:\.\d+)?)\s*(?:个)?{_ZH_UNIT}"),
)
"""A window the claim says the moment is inside of: (number, unit)."""
_BEYOND = (
    re.compile(rf"(?i)\b(?:more than|over|beyond|past|exceeded|outside(?: of)?(?: the)?)\s+(?:the\s+)?"
               rf"(\d+(?:\.\d+)?)[\s-]*{_EN_UNIT}"),
    re.compile(rf"(?:超过|已超过|已过|超出|已满|(?<![不未])满)\s*(\d+(?:\.\d+)?)\s*(?:个)?{_ZH_UNIT}"),
)
"""A window the claim says the moment is past."""
_NEGATED = re.compile(r"(?i)\b(?:not|no longer|isn't|is not|aren't)\s+(?:still\s+)?$|不在\s*$|不再\s*$")
_MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?")
_NOW_CUE = re.compile(
    r"(?i)(?:current (?:date|time)(?:\s+is)?|today is|now is|as of|当前(?:时间|日期)|今天是|现在是|今天)\s*[:：]?\s*"
    r"(?:[A-Za-z]{3,9}day,?\s+|星期.\s*|周.\s*)?(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?)"
)
_NOW_FIELDS = ("now", "current_time", "current_date", "current_datetime", "today", "as_of", "server_time", "utc")
"""Fields of a tool's output that give the current time (a search's `server_time`, `get_current_time`'s `utc`)."""
_STILL_OPEN = re.compile(r"(?i)\bstill\b|仍可|仍然可以|还可以|还能|仍在")
"""Words that say something is still open or possible ("You can still cancel free of charge until …")."""
_NO_LONGER = re.compile(r"(?i)\b(?:no longer|not|can't|cannot|isn't|passed|expired|closed)\b"
                        r"|已过|不再|不能|无法|已截止")
"""Words that say it is not open any more: the claim agrees with a passed deadline."""
_CLAUSE_BREAK = re.compile(r"[,;，；。]|\s[-–—]\s")
"""What ends a clause: the window's own clause says whether it measures time already passed."""
_NOT_ELAPSED = re.compile(
    r"(?i)\bif\b|\bunless\b|如果|若|假如|预计|将在|\bwill\b|\bexpected\b|内有效|valid for"
    r"|会在|一般|通常|需要?在|要在|请在|\bshould\b|\busually\b|\btypically\b|\bgenerally\b|\bonly\b"
    r"|前\s*\d+\s*(?:个)?(?:小时|天|分钟)(?:内|以内)|\b\d+\s*(?:hours?|days?|minutes?)\s+(?:before|prior to)\b")
"""A window's clause that states no time already passed: a condition, something ahead or usual ("会在 48 小时内回复",
"usually within 15 minutes"), how long a thing stays valid ("链接 1 小时内有效"; not "仍在有效期内", which measures the
time since), a rule ("only applies within 24 hours") or one before an event ("24 hours before departure", 发车前 2
小时内)."""
_HALF_YEAR = 183
"""Most days a window's end without a year may lie before now (else it is next year's)."""
_DEADLINE_FIELD = re.compile(r"until|deadline|cutoff|cut_off|expire|expiry|截止")
"""A field name that holds a deadline (`free_cancellation_until`, `add_deadline`, `expires_at`)."""
_UNIT_AFTER_NUMBER = re.compile(rf"(?i)\d[\s-]*(?:个)?(?:{_EN_UNIT[1:-3]}|{_ZH_UNIT[1:-1]})")
"""What every window pattern holds, a number and its unit ("24 hours", "30 天", "3 个月"... read loosely): a claim
without it is not searched with the five patterns."""


def _moment(text: str) -> tuple[datetime, bool] | None:
    """The first ISO moment in `text` (naive), and whether it has a time of day."""
    m = _MOMENT.search(text)
    if m is None:
        return None
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups())
    try:
        return datetime(y, mo, d, h, mi, s), m[4] is not None
    except ValueError:
        return None


def _window_passed(fact: Fact, now: datetime) -> bool:
    """Whether a window's last day (`--06-22`, in the current year when the answer gives none) is before today."""
    m = re.match(r"(\d{4}|-)-(\d{2})-(\d{2})$", fact.value or "")
    if m is None:
        return False
    try:
        end = datetime(int(m[1]) if m[1] != "-" else now.year, int(m[2]), int(m[3]))
    except ValueError:
        return False
    return end.date() < now.date() and (now - end).days < _HALF_YEAR


def current_time(index: EvidenceIndex) -> tuple[datetime, bool] | None:
    """The current time the context or a tool gives ("当前时间：2026-12-02 10:00", `"now": "…"`)."""
    for leaf in index.context.leaves:
        m = _NOW_CUE.search(leaf.text)
        if m is not None:
            return _moment(m[1])
    for i in range(len(index.calls)):
        output = index.flats[i].value
        if isinstance(output, dict):
            for key in _NOW_FIELDS:
                if isinstance(output.get(key), str) and (found := _moment(output[key])) is not None:
                    return found
    return None


def _window(text: str) -> tuple[str, float, int, int, str] | None:
    """The claim's window: (`within` or `beyond`, its length in seconds, where its number starts and ends,
    the unit as written)."""
    if _UNIT_AFTER_NUMBER.search(text) is None:
        return None
    for relation, patterns in (("within", _WITHIN), ("beyond", _BEYOND)):
        for pattern in patterns:
            m = pattern.search(text)
            if m is None:
                continue
            negated = _NEGATED.search(text[: m.start()]) is not None
            if negated:
                relation = "beyond" if relation == "within" else "within"
            return relation, float(m[1]) * _UNITS[m[2].lower()], m.start(1), m.end(1), m[2]
    return None


def time_window(
    facts: list[Fact], text: str, start: int, index: EvidenceIndex, earlier: list[Fact], in_view: bool = False
) -> None:
    """Contradict a window a claim puts a record's moment in when the moments say otherwise.

    "It was booked on December 1 at 08:15, so you are still within 24 hours" when the context gives the
    current time 2026-12-02 10:00: 25.75 hours have passed. The moments are the claim's backed dates and
    times (their tool values, to the second; the answer's earlier ones when the claim has none) against the
    current time the context or a tool states, and flagged only when every such moment is outside the
    claimed window; with no current time, the span between the claim's own two moments ("returned at
    6:12 pm against a due time of 5:00 pm, within the 29-minute grace period").

    Args:
        facts: The claim's facts, grounded.
        text: The claim's text.
        start: Where it starts in the answer.
        index: The run's evidence.
        earlier: The backed dates and times of the answer's earlier claims.
        in_view: The claim puts the record in view in its window ("This one is also still inside the 30-day
            window"): only the answer's last moment before it is measured, not every earlier one.
    """
    if not any(f.kind == FactKind.NUMBER for f in facts):
        return  # the window's length is one of the claim's numbers
    window = _window(text)
    if window is None:
        return
    relation, seconds, at, end, unit = window
    begin = max((m.end() for m in _CLAUSE_BREAK.finditer(text, 0, at)), default=0)
    stop = _CLAUSE_BREAK.search(text, end)
    if _NOT_ELAPSED.search(text[begin : stop.start() if stop else len(text)]):
        return  # "if the outage lasts more than 24 hours", "预计 5 分钟内发出", "发车前 2 小时内不能退": no time since
    number = next((f for f in facts if f.kind == FactKind.NUMBER and f.start - start == at), None)
    if number is None or number.verdict == Verdict.CONTRADICTED:
        return
    own = _moments(facts)
    now = current_time(index)
    if now is not None:  # the time since a moment: one still ahead (a show, a departure, a leave) is no such moment
        pairs = [(then, now, ev) for then, ev in own or _moments(earlier)[-1 if in_view else 0 :] if then[0] <= now[0]]
    elif len(own) == 2:
        pairs = [(own[0][0], own[1][0], own[0][1])]
    else:
        return
    spans = [(_between(a, b), ev) for a, b, ev in pairs]
    limit = timedelta(seconds=seconds)
    if not spans or any(low <= limit if relation == "within" else high > limit
                        for low, high in (_bounds(a, b) for a, b, _ in pairs)):
        return  # no moment to measure, or one of them may fit the claim
    nearest = min if relation == "within" else max  # the moment nearest to fitting the claim, for the reason
    elapsed, ev = nearest(spans, key=lambda span: span[0])
    since = f"{_shown(ev.text)} and now ({now[0]:%Y-%m-%d %H:%M})" if now is not None else \
        f"{_shown(own[0][1].text)} and {_shown(own[1][1].text)}"
    set_verdict(number, Verdict.CONTRADICTED, "time_window",
                f"{_span(elapsed)} between {since}: {'not ' if relation == 'within' else ''}within the "
                f"{text[at:end]} {unit} window", [ev for _, ev in spans[:2]] if now is not None else
                [own[0][1], own[1][1]])


def _moments(facts: list[Fact]) -> list[tuple[tuple[datetime, bool], Evidence]]:
    """The tool moments (to the second) behind the backed dates and times of these facts, each once."""
    found: list[tuple[tuple[datetime, bool], Evidence]] = []
    for fact in facts:
        if fact.kind in (FactKind.DATE, FactKind.TIME) and fact.verdict == Verdict.SUPPORTED and fact.evidence:
            ev = fact.evidence[0]
            moment = _moment(ev.text) if ev.source == "tool" else None
            if moment is not None and all(moment[0] != m[0] for m, _ in found):
                found.append((moment, ev))
    return found


def _between(a: tuple[datetime, bool], b: tuple[datetime, bool]) -> timedelta:
    """The span between two moments; whole days between their dates when either has no time of day."""
    first, second = sorted((a[0], b[0]))
    if not (a[1] and b[1]):
        first, second = datetime(first.year, first.month, first.day), datetime(second.year, second.month,
                                                                                second.day)
    return second - first


def _bounds(a: tuple[datetime, bool], b: tuple[datetime, bool]) -> tuple[timedelta, timedelta]:
    """The shortest and longest the span between two moments may be: one known to the day only lies anywhere in
    it ("booked on December 1", now 2026-12-02 10:00: 10 to 34 hours)."""
    first, second = sorted((_day_span(a), _day_span(b)))
    return max(timedelta(0), second[0] - first[1]), second[1] - first[0]


def _day_span(moment: tuple[datetime, bool]) -> tuple[datetime, datetime]:
    """When a moment may be: itself when it has a time of day, else its whole day."""
    at, timed = moment
    if timed:
        return at, at
    day = datetime(at.year, at.month, at.day)
    return day, day + timedelta(days=1)


def _shown(text: str) -> str:
    """A tool moment as the reason shows it."""
    m = _MOMENT.search(text)
    return m[0].replace("T", " ") if m else text


def _span(elapsed: timedelta) -> str:
    """A span as a person reads it (25.8 hours, 35 days)."""
    hours = elapsed.total_seconds() / 3600
    return f"{hours:.1f} hours" if hours < 72 else f"{elapsed.days} days"


def passed_deadline(facts: list[Fact], text: str, index: EvidenceIndex) -> None:
    """Contradict a deadline a claim says is still ahead when the current time is past it ("You can still cancel
    free of charge until 03/07 11:32", the search's `free_cancellation_until` 2026-03-07T11:32 and the current time
    16:32 the same day).

    The claim says something is still open ("still", 仍可, 还可以) and gives a backed date or time whose field
    names a deadline (`…_until`, `deadline`, `cutoff`, `expires`, 截止); the current time is the one the context or
    a tool states. Not when the claim says it is no longer open ("no longer", "not", 已过, 不再).

    Args:
        facts: The claim's facts, grounded.
        text: The claim's text.
        index: The run's evidence.
    """
    if _STILL_OPEN.search(text) is None or _NO_LONGER.search(text) is not None:
        return
    now = current_time(index)
    if now is None:
        return
    for fact in facts:
        if fact.kind not in (FactKind.DATE, FactKind.TIME) or fact.verdict != Verdict.SUPPORTED or not fact.evidence:
            continue
        ev = fact.evidence[0]
        if fact.code == "derived" and WINDOW_END in fact.reason and _window_passed(fact, now[0]):
            # "still returnable until Jun 22": delivered May 23 and the policy's 30 days, and now is Jun 26
            set_verdict(fact, Verdict.CONTRADICTED, "time_window",
                        f"{fact.reason.removeprefix('date equals ')} is before now ({now[0]:%Y-%m-%d}): it has passed",
                        [ev])
            continue
        field = ev.path.rsplit(".", 1)[-1].lower()
        moment = _moment(ev.text) if ev.source == "tool" and _DEADLINE_FIELD.search(field) else None
        if moment is None or not (moment[1] and now[1]) or moment[0] >= now[0]:
            continue
        set_verdict(fact, Verdict.CONTRADICTED, "time_window",
                    f"{ev.path} {_shown(ev.text)} is before now ({now[0]:%Y-%m-%d %H:%M}): it has passed", [ev])
