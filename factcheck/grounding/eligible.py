"""Whether an option can be had: not marked unavailable or cancelled, and enough of it left for the user's party."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.multiplicity import run_multiplicity, small_number
from factcheck.lexicon import Lexicon, field_name, term_key

AVAILABLE = ("available", "in_stock", "is_available", "bookable")
"""Fields that say whether an option can be had (false: it cannot)."""
_AVAILABILITY = ("availability", "stock_status", "inventory_status", "stock", "availability_status")
"""Fields whose words say whether an option can be had (`availability: "sold_out"`)."""
_PARTY_NUMBER = re.compile(
    r"(?<![\w.])(\d{1,2}|[A-Za-z]+|[一二两三四五六七八九十])\s*(?:[A-Za-z-]+\s+|个?[^\W\d_A-Za-z天月年时分秒次周日晚号点岁元块]{0,3})?$"
)
"""A number, in digits or as a word, before a party noun, maybe with one word between ("4 people", "three of
us", "3 economy seats", 三个人)."""
_SMALL_PARTY = 20
"""A party is fewer people than this: a larger number before "people" is no party ("300 people follow it")."""


def party_size(index: EvidenceIndex, call: int) -> int:
    """How many seats (rooms, tickets) the user needs from the options a call lists.

    The search's own count (`passengers: 4`, `{"adult": 2, "child": 2}`), else the reservation's travellers, else
    the user's words ("We're 4 people", "three of us", 我们 3 个人, 3 张票).

    Args:
        index: The run's evidence.
        call: The call that lists the options.

    Returns:
        The party's size; 1 when nothing says.
    """
    lex = index.lex
    args = index.calls[call].args or {}
    for key, value in args.items():
        if lex.party_nouns.search(term_key(field_name(str(key)))):  # `passengers`, `guests`; not `nights`
            counts = list(value.values()) if isinstance(value, Mapping) else [value]
            if counts and all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
                return max(1, sum(counts))
    count, name = run_multiplicity(index, call)
    if count > 1 and lex.party_nouns.search(name):
        return count
    named = _named_travellers(index)
    if named > 1:
        return named
    for leaf in index.context.leaves:
        for hit in lex.party_nouns.finditer(leaf.text):
            said = _party_number(lex, leaf.text, max(0, hit.start - 12), hit.start)
            if said is not None and 1 < said < _SMALL_PARTY:
                return said
    return 1


def _party_number(lex: Lexicon, text: str, begin: int, end: int) -> int | None:
    """The number right before a party noun at `end` ("We're two people": two, not the word before it)."""
    number = _PARTY_NUMBER.search(text, begin, end)
    while number is not None:
        said = small_number(lex, number.group(1))
        if said is not None:
            return said
        number = _PARTY_NUMBER.search(text, number.start() + 1, end)
    return None


def _named_travellers(index: EvidenceIndex) -> int:
    """The travellers (guests, passengers) of the record whose key the user gave ("订单 XCQDWQ … 我们全部人"),
    when the run read it; 0 when the user named no such record."""
    said = " ".join(leaf.text for leaf in index.context.leaves).lower()
    for count, leaf in index.list_counts:  # a top-level list of a call's output: `passengers`
        if leaf.source == "tool" and index.lex.party_nouns.search(leaf.path) and count > 1 \
                and any(key in said for key in index.record_keys(leaf.index)):
            return count
    return 0


def why_not(lex: Lexicon, record: Any, party: int, cabin: str | None = None) -> str:
    """Why an option cannot be had ("HAT293 is cancelled", "B1 has 2 left for 3"), or "" when it can.

    Args:
        lex: The lexicon (`unbookable_states`, `capacity_fields`).
        record: The option.
        party: How many the user needs (`party_size`).
        cabin: The cabin or class its per-cabin counts are read for (`available_seats: {economy: 13}`).

    Returns:
        The reason, or "".
    """
    if not isinstance(record, Mapping):
        return ""
    if any(record.get(f) is False for f in AVAILABLE):
        return "cannot be booked"
    for key, state in record.items():
        if isinstance(state, str) and (lex.status_fields.lookup(field_name(str(key))) is not None
                                       or key in _AVAILABILITY) and lex.unbookable_states.search(state.lower()):
            return f"is {state}"
    left = _left(lex, record, cabin)
    if left is not None and left < party:
        return f"has {left} left for {party}"
    return ""


def _left(lex: Lexicon, record: Mapping[str, Any], cabin: str | None) -> int | None:
    """What is left of an option (`seats_left: 3`, `available_count: 2`, `available_seats: {economy: 13}` or a
    list of seats, 余票, `capacity` less `booked`, a table's `max_party`), or None when no field counts it."""
    for key, value in record.items():
        if key in AVAILABLE and isinstance(value, int) and not isinstance(value, bool):
            return value  # `available: 0`: a count of what is left, not a yes or no
        if not is_capacity_field(lex, str(key)):
            continue
        if isinstance(value, Mapping):
            value = value.get(cabin) if cabin is not None else None
        if isinstance(value, list):
            return len(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    capacity = next((record[k] for k in _MOST if isinstance(record.get(k), int) and not isinstance(record[k], bool)),
                    None)
    if capacity is None:
        return None
    taken = next((record[k] for k in _TAKEN if isinstance(record.get(k), int)), 0)
    return capacity - taken  # `capacity: 4, booked: 4`: none left; `max_party: 8`: not for 9


_MOST = ("capacity", "max_party", "max_party_size", "max_guests", "max_occupancy", "max", "max_people", "max_pax")
"""Fields of the most an option holds (a slot's `capacity`, a table's `max_party`)."""
_TAKEN = ("booked", "reserved", "taken", "enrolled", "registered", "sold")
"""Fields beside an option's capacity that count the places already had: what is left is the difference."""


def is_capacity_field(lex: Lexicon, key: str) -> bool:
    """Whether a field counts what is left of an option (`seats_left`, `available_count`, 余票: `capacity_fields`).

    Args:
        lex: The lexicon.
        key: The field's name.

    Returns:
        True when the name, or one of its words, is a capacity word.
    """
    name = term_key(field_name(key))
    return name in lex.capacity_fields or not lex.capacity_fields.isdisjoint(name.split())
