"""A count of the options that fit the user's party ("3 flights with at least 2 seats", "其中 4 个余座够 3 人")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from factcheck.grounding.counting import record_lists
from factcheck.grounding.eligible import party_size, seats_left, why_not
from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.grounding.multiplicity import small_number
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Fact

_NUMBER = r"(\d{1,2}|[a-z]+|[一二两三四五六七八九十])"
_FITS = (
    re.compile(rf"(?i)\bat\s+least\s+{_NUMBER}\s+(?:[a-z]+\s+)?(?:seats|spots|places|tickets|rooms)\b"),
    re.compile(rf"(?i)\b(?:room|space|seats)\s+for\s+(?:(?:all|the)\s+)?{_NUMBER}(?:\s+of\s+(?:you|us))?\b"),
    re.compile(r"(?i)\b(?:room|space|seats)\s+for\s+(?:you|your\s+party|your\s+group|everyone|all\s+of\s+you)()"),
    re.compile(r"(?i)\benough\s+(?:seats|room|space|spots|places)()"),
    re.compile(r"(?i)\b(?:fits?|can\s+(?:take|seat|hold|accommodate))\s+(?:you|your\s+(?:party|group)|everyone"
               rf"|all\s+of\s+you|(?:all|both|the)\s+(?:{_NUMBER}\s+)?of\s+you|{_NUMBER}\s+(?:people|guests|of\s+you))"),
    re.compile(rf"(?:够|容纳|坐得下|坐下|买齐|能坐)\s*(?:你们|您们|全部|所有人)?\s*{_NUMBER}?\s*(?:个人|人|位|张|名)?"),
    re.compile(rf"(?:余座|余票|座位|余位|名额)\s*(?:[≥>]=?|不少于|至少)\s*{_NUMBER}"),
)
"""What says an option fits the party, and the party's size when it is said ("at least 2 economy seats", "room for
both of you", 够 3 人, 余座≥4); an empty group: the party the run gives (`eligible.party_size`)."""
_NOT = re.compile(r"(?i)(?:不|没|未|无|\bnot\b|n't|\bno\b|\bonly\b|只)\s*\w{0,3}\s*$")
"""A negation right before what says an option fits: the count is of those that do not."""
_OPTIONS = re.compile(
    r"(?i)\s*(?:(?!(?:with|for|of|in|on|at|to|and|or|that|which|are|is|have|has|can)\b)[a-z-]+\s+){0,3}?(?:flights?|options?|trains?|slots?|sessions?|departures?|tours?|rooms?|room\s+types?"
    r"|times?|showings?|classes|buses|sailings?|dates?|hotels?|cars?|cabins?|tables?|trips?)\b"
    r"|\s*(?:个|班|趟|种|间|场|家|款|辆|桌|期|团|车次|航班)(?![大小]?(?:箱|包|行李|人|位|件|晚|天|小时|座|张))"
)
"""A count's noun of options (flights, room types; 班, 趟, 种)."""
_WHOLE_BEFORE = re.compile(r"(?i)(?:\bof(?:\s+(?:the|your|all))?|/)\s*$")
"""What right before a count makes it the whole a part of which fits ("3 of the 5 flights")."""
_CLAUSE = re.compile(r"[,，;；。:：!?！？\n]")
"""What ends a clause: the count and what says its options fit are read within one (its colon ends it)."""
_REACH = 60
"""The most characters between a count and what says its options fit."""
_CABINS = {"basic economy": "basic_economy", "premium economy": "premium_economy", "economy": "economy",
           "business": "business", "first": "first", "基础经济舱": "basic_economy", "超级经济舱": "premium_economy",
           "经济舱": "economy", "商务舱": "business", "头等舱": "first"}
"""The words of the cabins whose left seats an option may keep apart (`available_seats: {economy: 6}`), longest
first: a shorter one inside a longer one said is not said."""
_ROOMS = re.compile(r"room|occupancy|max_guests|max_adults")
"""Fields of a room's list: a party fits rooms by their occupancy and count, not by what is left alone."""


def fit_count(index: EvidenceIndex, fact: Fact, claim: str, start: int) -> tuple[int, int, str, Leaf] | None:
    """How many listed options can take the party a count of options says they fit, at most.

    The count names options (flights, slots, 班, 种) and stands in one clause with words that say they fit the party
    ("with at least 2 economy seats", "room for both of you", 够 3 人, 余座≥4, not negated); the party is the number
    said there or, when none is, the run's (`party_size`). The options are a listed record set each of whose entries
    says how much of it is left (`seats_left`, `available_seats` of the cabin named, `capacity` less `booked`); an
    entry fits when it can be had and has as much left as the party (`why_not`). Other words of the clause (nonstop,
    morning) may narrow the options further: only a count above every such set's fitting entries is beyond them.

    Args:
        index: The run's evidence.
        fact: A whole number of the claim.
        claim: The claim's text.
        start: Where the claim's text starts in the answer.

    Returns:
        (the most options of one set that fit, that set's length, how, as a person reads it, the set's list), or None.
    """
    lex = index.lex
    if not fact.value or fact.unit in lex.currency_codes or fact.unit == "%":
        return None
    claimed = Decimal(fact.value)
    if claimed != claimed.to_integral_value() or not 0 < claimed <= 50:
        return None
    at, end = fact.start - start, fact.end - start
    noun = _OPTIONS.match(claim, end)
    if noun is None or _WHOLE_BEFORE.search(claim, max(0, at - 12), at):
        return None
    begin = max((m.end() for m in _CLAUSE.finditer(claim, 0, at)), default=0)
    stop = next((m.start() for m in _CLAUSE.finditer(claim, noun.end())), len(claim))
    party = _party_said(lex, claim, max(begin, at - _REACH), min(stop, noun.end() + _REACH), (at, end))
    if party is None:
        return None
    cabin = _cabin_said(claim[begin:stop].lower()) or _cabin_said(
        " ".join(leaf.text for leaf in index.context.leaves).lower())  # the cabin the user asked for
    best: tuple[int, int, str, Leaf] | None = None
    for leaf, records in record_lists(index):
        if len(records) < claimed or index.calls[leaf.index].status == "error":
            continue
        size = party or party_size(index, leaf.index)
        if size < 2:
            continue
        if not all(seats_left(lex, r, _cabin_of(r, cabin)) is not None for r in records) or any(
                _ROOMS.search(str(k).lower()) for r in records for k in r):
            continue  # a list that does not say how much of each entry is left, or rooms a party fits otherwise
        fits = sum(not why_not(lex, r, size, _cabin_of(r, cabin)) for r in records)
        if best is None or fits > best[0]:
            where = "the output" if leaf.path in ("", "$") else leaf.path
            how = f"{fits} of the {len(records)} entries of {where} can take {size}"
            best = (fits, len(records), how, leaf)
    return best


def _party_said(lex: Lexicon, claim: str, begin: int, stop: int, count: tuple[int, int]) -> int | None:
    """The party's size that words saying an option fits give (0: the run's party), or None when no such words
    stand in `claim[begin:stop]` apart from the count itself, or they are negated."""
    for pattern in _FITS:
        for hit in pattern.finditer(claim, begin, stop):
            if hit.start() < count[1] and count[0] < hit.end():
                continue
            if _NOT.search(claim, max(0, hit.start() - 8), hit.start()):
                return None
            said = next((g for g in hit.groups() if g), None)
            if said is None:
                return 0
            low = said.lower()
            size = 2 if low == "both" else small_number(lex, low)
            if size is None:
                continue
            return size
    return None


def _cabin_said(text: str) -> str | None:
    """The cabin a clause names (economy, 基础经济舱), or None."""
    found = set()
    for word, cabin in _CABINS.items():
        if word in text:
            found.add(cabin)
            text = text.replace(word, " ")
    return next(iter(found)) if len(found) == 1 else None


def _cabin_of(record: Any, cabin: str | None) -> str | None:
    """The cabin to read an entry's left seats for: the one named, or the only one it keeps apart."""
    if cabin is not None or not isinstance(record, Mapping):
        return cabin
    for key, value in record.items():
        if isinstance(value, Mapping) and len(value) == 1 and "seat" in field_name(str(key)):
            return str(next(iter(value)))
    return None
