"""An option named as the earliest ("The earliest opening is March 12 at 3:40 PM"), re-ranked by its time."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from factcheck.grounding.eligible import AVAILABLE, is_capacity_field, party_size, why_not
from factcheck.grounding.flat import scalars_of, shape_of, value_in
from factcheck.grounding.multiplicity import small_number
from factcheck.grounding.windows import current_time
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Evidence, Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex
    from factcheck.grounding.roles import ClaimText

_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?")
"""A tool's date, with its time when the same value gives one (`2025-07-09T14:00`)."""
_TIME = re.compile(r"^(\d{1,2}):(\d{2})")
"""A tool's time of day at the start of a value (`18:00`, `08:00-10:00`)."""
_COPULA = re.compile(r"(?i)\b(?:is|are|was|were|would be)\b|是|为|[:：]")
"""What ends the phrase a superlative heads ("the earliest opening with Dr. Alvarez is …"): a name before it
narrows the options, a name after it is the pick's."""
_PARTY = re.compile(
    r"(?i)(?:all\s+)?(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|[两二三四五六七八九十])\s*"
    r"(?:people|persons|passengers|guests|travell?ers|of (?:you|us)|口|位|个人|人)")
"""A party the claim gives ("with room for all 5 of you", 一家4口): options with fewer places left are not had."""

_SAYS_FULL = re.compile(r"(?i)\b(?:left|taken|full|sold|booked up|no (?:seats?|space|room)|unavailable|waitlist\w*)\b"
                        r"|剩|无座|满|售罄|已无|没有|不足|候补")
"""Words that speak of an option's places ("only 2 seats left", 已售罄, 只剩 1 个名额): a claim that says them says
why its pick was or was not had, so a pick that cannot be had is no silent slip there."""
_RANKED = re.compile(r"(?i)(?:\bnext|\bsecond|\bthird|第二|第三|次)\s*$")
"""A rank right before a superlative ("the next fastest", 第二快): not the first option."""


def _party(text: str, lex: Lexicon) -> int:
    """The largest party the claim gives (0 when none)."""
    return max((small_number(lex, m.group(1)) or 0 for m in _PARTY.finditer(text)), default=0)


Moment = tuple[str, str]
"""A date (`2025-07-09`) and a time of day (`14:00`, or "" when none is given)."""


def _moment(value: Any, record: Any, time_field: str | None) -> Moment | None:
    """An option's moment: the date (and time) its value gives, or the time a field of its record gives."""
    if not isinstance(value, str):
        return None
    found = _DATE.search(value)
    if not found:
        return None
    time = found.group(2) or ""
    if not time and time_field and isinstance(record, Mapping):
        clock = _TIME.match(str(record.get(time_field, "")))
        time = f"{int(clock.group(1)):02d}:{clock.group(2)}" if clock else ""
    return found.group(1), time


def _entry(path: str) -> str:
    """The path of the list entry a value is in, or is (`sessions[2].date` -> `sessions[2]`)."""
    return path[: path.rfind("]") + 1]


def _holder(path: str) -> str:
    """The path of the record that holds an entry's list (`vendors[0].slots[1]` -> `vendors[0]`; "" for the root)."""
    listed = path[: path.rfind("[")]
    return listed.rsplit(".", 1)[0] if "." in listed else ""


def earliest_pick(claim: ClaimText, index: EvidenceIndex) -> tuple[Fact, str, Evidence] | None:
    """A date said to be the earliest option ("The earliest opening is March 12 at 3:40 PM", 最早) when an option of
    the same kind that can be had comes earlier.

    The claim says an earliest word (lexicon `superlatives_early`) and gives a backed date whose evidence is an
    entry of a list (`slots[0].start`, `sessions[2].date` with its time in `sessions[2].start`). The options are
    the entries of that list's shape in every successful call of the same tool (two providers' slots); those that
    cannot be had (`eligible.why_not`: full, no spots left for the party), in another status than the pick's, or
    already past are left out. A claim that narrows the choice (an evening slot, after 5 PM, a month, "of these", a
    negation: `superlative_qualifiers`, `selection_scopes`) is not read; a name before the copula ("the earliest slot
    with Dr. Alvarez is") ranks that record's own entries only. A claim that gives no listed date is read by its time
    of day among one day's slots (`_earliest_time`).

    Args:
        claim: The claim, its facts grounded.
        index: The run's evidence.

    Returns:
        (the date fact, how the records rank it, the earlier option's evidence), or None.
    """
    lex = index.lex
    lowered = claim.text.lower()
    hits = lex.superlatives_early.finditer(lowered)
    fast = not hits
    if fast:  # "the fastest option is UPS 2nd Day Air, arriving 18 March": the soonest delivery date
        hits = [h for h in lex.superlatives_fast.finditer(lowered) if not _RANKED.search(lowered, 0, h.start)]
    if not hits or lex.superlative_qualifiers.search(lowered) or lex.negators.search(lowered) \
            or lex.selection_scopes.search(lowered):
        return None  # "the earliest evening slot", "of these, the earliest", "not the earliest": a narrower choice
    dates = [f for f in claim.facts if f.kind == FactKind.DATE and f.verdict == Verdict.SUPPORTED]
    at = claim.start + hits[0].start
    party = _party(claim.text, lex)
    if not any("[" in ev.path for f in dates for ev in f.evidence if ev.source == "tool"):
        # "最早的时段是东院区 07:45": a time of day from a list of slots; the fastest is no time of day
        return None if fast else _earliest_time(claim, index, at, party)
    fact = min(dates, key=lambda f: abs(f.start - at))
    head = claim.text[hits[0].end : max(hits[0].end, fact.start - claim.start)]
    if any(m.lower() in lex.map("months") for m in re.findall(r"[A-Za-z]+", head)) or re.search(r"\d+\s*月", head):
        return None  # "the earliest October departure": a month narrows the options
    copula = _COPULA.search(claim.text, hits[0].end)
    narrowed = any(
        f.kind in (FactKind.NAME, FactKind.IDENTIFIER) and f.verdict == Verdict.SUPPORTED
        and f.start - claim.start < (copula.start() if copula else hits[0].start) for f in claim.facts)
    times = [f for f in claim.facts if f.kind == FactKind.TIME and f.verdict == Verdict.SUPPORTED]
    for ev in fact.evidence:
        if ev.source != "tool" or "[" not in ev.path or fast and not _delivery_field(ev.path, lex):
            continue  # the fastest is ranked by the options' delivery dates, not their pickup
        found = _earlier(index, claim, fact, ev, times, narrowed, party)
        if found is not None:
            return found
    return None


def _delivery_field(path: str, lex: Lexicon) -> bool:
    """Whether a value's field gives an option's delivery date (lexicon `date_role_fields` delivery: `eta`,
    `estimated_delivery`; or a field named with one of their words: `est_delivery`)."""
    name = field_name(path.rsplit(".", 1)[-1])
    words = lex.date_role_fields.get("delivery", [])
    return name in words or any(w in name.split() for w in words if " " not in w)


def _earliest_time(
    claim: ClaimText, index: EvidenceIndex, at: int, party: int
) -> tuple[Fact, str, Evidence] | None:
    """A time of day said to be the earliest option when the claim gives no listed date: the first backed time
    after the earliest word whose evidence is a list entry (`slots[0].time`), against the entries of that list of
    the same call that are one day's plain slots (no date of their own, no places per cabin), not yet past, and can
    be had by the claim's `party`."""
    times = [f for f in claim.facts if f.kind == FactKind.TIME and f.verdict == Verdict.SUPPORTED and f.start >= at]
    fact = min(times, key=lambda f: f.start, default=None)
    own = _TIME.match(fact.value or "") if fact is not None else None
    if fact is None or own is None:
        return None
    claimed = f"{int(own.group(1)):02d}:{own.group(2)}"
    lex = index.lex
    now = current_time(index)
    for ev in fact.evidence:
        if ev.source != "tool" or "[" not in ev.path or lex.superlatives_early.search(field_name(ev.path)):
            continue  # not `earliest_delivery: 18:20`, the field's own label
        flat = index.flats[ev.index]
        pick = value_in(flat.value, _entry(ev.path))
        if not _flat_record(pick):
            continue
        day = next((m.group(1) for v in scalars_of([index.calls[ev.index].args, flat.value]) if isinstance(v, str)
                    and (m := _DATE.search(v))), None)  # the day the slots are of (`date: 2024-05-21`)
        gone = f"{now[0]:%H:%M}" if now and day == f"{now[0]:%Y-%m-%d}" else ""  # today's slots before now
        shape, state = shape_of(ev.path), _state(index, pick)
        need = max(party, party_size(index, ev.index), _travellers(index))
        # a pick that cannot be had is ranked only when the claim says its own start ("8:00" of `08:00-09:00`, not of
        # `07:00-08:00`), the claim does not say why it cannot be had, and no option that can be had starts then
        barred = _barred(index, claim, pick, need) if _starts(value_in(flat.value, ev.path), claimed) else ""
        if barred and any(_starts(v, claimed) and not why_not(lex, value_in(flat.value, _entry(p)), need)
                          for p, of_shape, v, _ in flat.scalars() if of_shape == shape):
            barred = ""
        for path, of_shape, value, is_count in flat.scalars():
            clock = _TIME.match(value) if isinstance(value, str) and not is_count and of_shape == shape else None
            hhmm = f"{int(clock.group(1)):02d}:{clock.group(2)}" if clock else ""
            if not hhmm or hhmm >= claimed and not barred or hhmm < gone or barred and path == ev.path:
                continue  # another field, no earlier (when the pick can be had), already past today, or the pick
            record = value_in(flat.value, _entry(path))
            owner = value_in(flat.value, _holder(path)) if _holder(path) else flat.value
            if not _flat_record(record) or not _counts_places(index, record) \
                    and not any(k in record for k in AVAILABLE):
                return None  # places per cabin (`available_seats: {economy: 2}`) or none said (`二等座: 无`): not read
            if need > 1 and not _counts_places(index, owner) and not _counts_places(index, record):
                return None  # a party of 4 and slots that say nothing of the places left: which fit is not read
            if _state(index, record) != state and not barred or why_not(lex, owner, need) \
                    or why_not(lex, record, need):
                continue
            how = f"{_entry(ev.path)} {barred}; {path} ({value}) can be had" if barred \
                else f"{path} ({value}) can be had and comes earlier"
            return fact, how, Evidence(index=ev.index, tool_name=ev.tool_name, path=path, text=str(value), note=how)
    return None


def _flat_record(record: Any) -> bool:
    """Whether a list entry is one slot of one day: a mapping of plain values, none of them a date (slots of several
    days) nor a mapping or list (places per cabin or class)."""
    return isinstance(record, Mapping) and not any(
        isinstance(v, Mapping | list) or isinstance(v, str) and _DATE.search(v) for v in record.values())


def _earlier(
    index: EvidenceIndex, claim: ClaimText, fact: Fact, ev: Evidence, times: list[Fact], narrowed: bool, party: int
) -> tuple[Fact, str, Evidence] | None:
    """The first option that can be had and comes before the one the date's evidence is in: of the same call and
    record when the claim `narrowed` the options to a named one's ("the earliest slot with Dr. Alvarez is"), in the
    status the pick is in (`active` vouchers, not `used` ones), not yet past."""
    element = _entry(ev.path)
    field = ev.path[len(element) :].lstrip(".")
    if field and index.lex.superlatives_early.search(field_name(field)):
        return None  # "Earliest start: Dec 13" of `earliest_start`: the field's own label, no pick
    time_field = next((e.path.rsplit(".", 1)[-1] for t in times for e in t.evidence
                       if e.source == "tool" and e.index == ev.index and e.path.startswith(element + ".")
                       and e.path != ev.path), None)
    output = index.flats[ev.index].value
    pick = value_in(output, element)
    found = _moment(value_in(output, ev.path), pick, time_field)
    if found is None:
        return None
    clock = next((t.value for t in times if t.start > fact.start and t.value and _TIME.match(t.value)), "")
    own = (found[0], clock)  # the claim's own time of that day, not the first entry's of it
    state = _state(index, pick)
    holder = value_in(output, _holder(ev.path)) if _holder(ev.path) else output
    barred = _barred(index, claim, pick, max(party, party_size(index, ev.index), _travellers(index)), holder)
    now = current_time(index)
    today = f"{now[0]:%Y-%m-%d}" if now else ""
    shape, listed = shape_of(ev.path), ev.path[: ev.path.rfind("[") + 1]  # `vendors[].slots[]`, `vendors[0].slots[`
    tool = index.calls[ev.index].name
    travellers = _travellers(index)
    best: tuple[Moment, str, int] | None = None
    for call in index.calls:
        if call.status != "ok" or call.name != tool or narrowed and call.index != ev.index:
            continue
        flat = index.flats[call.index]
        need = max(party, party_size(index, call.index), travellers)
        for path, of_shape, value, is_count in flat.scalars():
            if is_count or of_shape != shape or narrowed and not path.startswith(listed):
                continue  # another field, or (narrowed) another record's entries
            record = value_in(flat.value, _entry(path))
            owner = value_in(flat.value, _holder(path)) if _holder(path) else flat.value
            if need > 1 and not _counts_places(index, owner) and not _counts_places(index, record):
                return None  # a party of 4 and options that say nothing of the places left: which fit is not read
            moment = _moment(value, record, time_field)
            if moment is None or moment[0] < today or _state(index, record) != state and not barred \
                    or why_not(index.lex, owner, need) or why_not(index.lex, record, need):
                continue
            if barred and moment[0] == own[0] and (not own[1] or not moment[1] or moment[1] == own[1]):
                return None  # an option that can be had at the claimed moment: the claim's pick is that one
            earlier = barred or moment[0] < own[0] or (moment[0] == own[0] and moment[1] and own[1]
                                                      and moment[1] < own[1])
            if earlier and (best is None or moment < best[0]):
                best = (moment, path, call.index)
    if best is None:
        return None
    (day, clock), where, call = best
    when = f"{day} {clock}".strip()
    how = f"{element} {barred}; {where} ({when}) is the first that can be had" if barred \
        else f"{where} ({when}) can be had and comes earlier"
    return fact, how, Evidence(index=call, tool_name=tool, path=where, text=when, note=how)


def _barred(index: EvidenceIndex, claim: ClaimText, pick: Any, need: int, holder: Any = None) -> str:
    """Why the picked option cannot be had (`eligible.why_not`: full, sold out, no seats left); "" when it can or the
    claim says so itself ("the 06:30 tour is sold out"). A pick that cannot be had is ranked against every option
    that can, earlier or later, whatever their status."""
    why = why_not(index.lex, holder, need) or why_not(index.lex, pick, need) if holder is not None \
        else why_not(index.lex, pick, need)
    if why and (_SAYS_FULL.search(claim.text)
                or index.lex.says_unbookable(claim.text, [str(v) for v in scalars_of(pick) if isinstance(v, str)])):
        return ""
    return why


def _starts(value: Any, clock: str) -> bool:
    """Whether a value is a time of day, or a window, that starts at `clock` (`08:00-09:00` at 08:00)."""
    found = _TIME.match(value) if isinstance(value, str) else None
    return found is not None and f"{int(found.group(1)):02d}:{found.group(2)}" == clock


def _travellers(index: EvidenceIndex) -> int:
    """The party a record of the run gives (`guests: 2` of the booking being changed), 0 when none does."""
    lex = index.lex
    sizes = [value for call in index.calls if call.status == "ok"
             and isinstance(output := index.flats[call.index].value, Mapping)
             for key, value in output.items() if isinstance(value, int) and not isinstance(value, bool)
             and lex.party_nouns.search(field_name(str(key)))]
    return max(sizes, default=0)


def _counts_places(index: EvidenceIndex, record: Any) -> bool:
    """Whether an option says how many places it has left (`seats_left`, 余票) or holds a status."""
    return isinstance(record, Mapping) and any(
        is_capacity_field(index.lex, str(key)) or index.lex.status_fields.lookup(field_name(str(key))) is not None
        for key in record)


def _state(index: EvidenceIndex, record: Any) -> str:
    """An option's status value (`active`, `used`), lower case; "" when it has none."""
    if isinstance(record, Mapping):
        for key, value in record.items():
            if isinstance(value, str) and index.lex.status_fields.lookup(field_name(str(key))) is not None:
                return value.lower()
    return ""
