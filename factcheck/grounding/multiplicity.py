"""How many units a per-unit amount is taken for: travellers, nights, rental days, or the party the claim names."""

from __future__ import annotations

import re
from datetime import date

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import Lexicon, field_name

_TIME_UNITS = {"daily": "days", "day": "days", "nightly": "nights", "night": "nights", "hourly": "hours",
               "hour": "hours", "weekly": "weeks", "week": "weeks", "monthly": "months", "month": "months"}
"""Words of a per-unit-of-time field name (`per_day`, `nightly_rate`) -> the plural its count field is named with."""
_PLAIN = frozenset({"amount", "value"})
"""Names of an amount's field inside a money object, whose own name says what it is."""
_START = re.compile(r"^(?:check ?in|arrival|pickup|pick up)(?: date| at| on)?$")
_END = re.compile(r"^(?:check ?out|departure|return|drop ?off)(?: date| at| on)?$")
"""Field names of a stay's or a rental's first and last day (`check_in`, `check_out`, `pickup_at`, `return_at`)."""
_PARTY = re.compile(
    r"(?i)\bfor\s+(?:(?:the\s+)?(both|two|three|four|five|six)\s+of\s+(?:you|us)\b|all\s+(\d|two|three|four|five|six)"
    r"(?:\s+of\s+(?:you|us))?\b|(\d)\s+(?:people|persons|passengers|travell?ers|adults|guests|tickets|seats)\b"
    r"|(\d)\s*[:：])"
    r"|\bboth\s+of\s+(?:you|us)\b|(\d|[两二三四五六])\s*(?:位|人|张票?)(?:合计|总计|共计|总价|一共)")
"""The party a claim's total is for ("Total for both of you", "for all 3 of you", "for 2 adults", "3 人合计")."""
_MORE_PEOPLE = re.compile(r"(?i)\s*(?:and|&|\+|,|和|及|、)\s*(?:\d|one|two|three|four|[一两二三四五六])")
"""More people of another kind right after the party ("2 adults and 2 children", "2 位成人和 1 位儿童")."""


def run_multiplicity(index: EvidenceIndex, call: int) -> tuple[int, str]:
    """How many travellers, guests or nights the run's records list (a top-level list of the output), and the
    list's name: the call's own first, else the run's when every call that lists them agrees (a fare
    searched, the passengers of the reservation).

    Args:
        index: The run's evidence.
        call: The call whose amount is multiplied.

    Returns:
        (count, list name), or (0, "") when no list or several disagreeing lists give it.
    """
    fields = index.lex.multiplicity_fields
    found: dict[int, tuple[int, str]] = {}
    for count, leaf in index.list_counts:  # a top-level list: `passengers`, not an option's `rooms`
        if leaf.source == "tool" and leaf.path in fields:
            found.setdefault(leaf.index, (count, leaf.path))
    if call in found:
        return found[call]
    counts = {c for c, _ in found.values()}
    return next(iter(found.values())) if len(counts) == 1 else (0, "")


def count_fields(index: EvidenceIndex, leaf: Leaf) -> list[tuple[int, str]]:
    """(value, field) of each whole number above 1 at the top of a call's output that a multiplicity field
    names (`nights: 3`).

    Args:
        index: The run's evidence.
        leaf: A leaf of the call.

    Returns:
        The counts, in the output's order.
    """
    output = index.value_at(leaf.index, "")
    if not isinstance(output, dict):
        return []
    return [(v, str(k)) for k, v in output.items() if isinstance(v, int) and not isinstance(v, bool) and v > 1
            and set(field_name(str(k)).split()) & index.lex.multiplicity_fields]


def time_units(index: EvidenceIndex, leaf: Leaf) -> tuple[int, str] | None:
    """How many of its unit of time a per-unit-of-time amount is taken for (`rate.per_day` with the search's
    `rental_days: 4`; `nightly_rate` with `nights: 3`): one whole number above 1 that the call's arguments,
    the top of its output or the amount's own record name by that unit's plural.

    Args:
        index: The run's evidence.
        leaf: The amount's leaf (a tool's).

    Returns:
        (count, field), or None when the amount is no per-unit-of-time one or no single count is given.
    """
    words = unit_words(index, leaf)
    if not {"per", "daily", "nightly", "hourly", "weekly", "monthly"} & set(words):
        return None
    units = {_TIME_UNITS[w] for w in words if w in _TIME_UNITS}
    if len(units) != 1:
        return None
    unit = units.pop()
    holders = _holders(index, leaf.index, leaf.path)
    found = _counts_named(holders, {unit})
    if not found and unit in ("nights", "days"):  # no count of them: the stay's or the rental's dates give it
        for holder in reversed(holders):
            span = dated_span(holder, unit) if isinstance(holder, dict) else None
            if span is not None and span[0] > 1:
                return span
    if not found:  # the trip's `days: 4` beside a rate another call quotes: one count in the whole run
        found = _counts_named([h for call in range(len(index.calls)) if call != leaf.index
                               for h in _holders(index, call)], {unit})
    return next(iter(found.items())) if len(found) == 1 else None


def unit_words(index: EvidenceIndex, leaf: Leaf) -> list[str]:
    """The words that say what one of an amount is for: its field's name (`nightly_rate`), and for a plain amount in
    a money object the object's name and its unit field's value (`rate: {"amount": 688, "unit": "per_room_per_night"}`).
    """
    parent, _, own = leaf.path.rpartition(".")
    words = field_name(own).split()
    if own in _PLAIN and parent:
        holder = index.value_at(leaf.index, parent)
        if isinstance(holder, dict):
            words += field_name(parent.rpartition(".")[2]).split()
            unit_fields = {f.lower() for f in index.lex.list("unit_fields")}
            for key, value in holder.items():
                if isinstance(value, str) and str(key).lower() in unit_fields:
                    words += field_name(value).split()
    return words


def noun_units(index: EvidenceIndex, leaf: Leaf) -> tuple[int, str] | None:
    """How many of its unit a per-item amount is taken for (`fee_per_bag` with `bags_requested: 3`,
    `price_per_seat` with `seats: 5`): one whole number above 1 that the call's arguments, the top of its output or
    the amount's own record name by that unit's plural (or, in the call's arguments, `quantity`).

    Args:
        index: The run's evidence.
        leaf: The amount's leaf (a tool's).

    Returns:
        (count, field), or None when the amount is no per-item one (a time unit's is `time_units`'), or no single
        count is given.
    """
    parent, _, own = leaf.path.rpartition(".")
    if own in _PLAIN and parent:  # {"copay_per_unit": {"amount": 35.0, "currency": "USD"}}: the object's name
        own = parent.rpartition(".")[2]
    words = field_name(own).split()
    nouns = {words[i + 1] for i, w in enumerate(words[:-1]) if w == "per" and words[i + 1] not in _TIME_UNITS}
    if len(nouns) != 1:
        return None
    noun = nouns.pop()
    if noun in ("cent", "percent"):
        return None
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + ("es" if noun.endswith(("s", "x", "ch")) else "s")
    holders = _holders(index, leaf.index, leaf.path)
    found = _counts_named(holders, {plural} if noun == "unit" else {noun, plural})  # `units: 3`, not `unit_price`
    if not found:
        found = _counts_named(holders[:1], {"quantity", "qty"})
    return next(iter(found.items())) if len(found) == 1 else None


def _holders(index: EvidenceIndex, call: int, path: str = "") -> list[dict]:
    """The mappings whose counts speak for the units of an amount at `path` of a call: the call's arguments, the top
    of its output and the amount's own record."""
    parent = path.rpartition(".")[0]
    output = index.value_at(call, "")
    holders = [index.calls[call].args, output if isinstance(output, dict) else {}]
    record_path = parent.rpartition(".")[0] if parent and not parent.endswith("]") else parent
    record = index.value_at(call, record_path) if record_path else None
    if isinstance(record, dict):
        holders.append(record)
    return [h for h in holders if isinstance(h, dict)]


def _counts_named(holders: list[dict], names: set[str]) -> dict[int, str]:
    """Whole numbers above 1 in `holders` whose field names hold one of `names` (`rental_days`, `bags_requested`;
    not `fee_per_bag`), by value."""
    found: dict[int, str] = {}
    for holder in holders:
        for key, value in holder.items():
            words = set(field_name(str(key)).split())
            if isinstance(value, int) and not isinstance(value, bool) and value > 1 and names & words \
                    and "per" not in words:  # `fee_per_bag` is no count of bags
                found.setdefault(value, str(key))
    return found


def dated_span(record: dict, unit: str) -> tuple[int, str] | None:
    """The days between a record's start and end dates (`check_in` and `check_out`, `pickup_at` and `return_at`),
    and how, as a person reads it (in `unit`: nights or days); None without one such pair."""
    starts = [(k, v) for k, v in record.items() if isinstance(v, str) and _START.search(field_name(str(k)))]
    ends = [(k, v) for k, v in record.items() if isinstance(v, str) and _END.search(field_name(str(k)))]
    if len(starts) != 1 or len(ends) != 1:
        return None
    try:
        first, last = date.fromisoformat(starts[0][1][:10]), date.fromisoformat(ends[0][1][:10])
    except ValueError:
        return None
    return (last - first).days, f"{unit} from {starts[0][1][:10]} to {ends[0][1][:10]}"


def party_follows(text: str) -> bool:
    """Whether `text` (what follows an amount) opens with the party it is for ("for both of you", "for all 3 of
    us", "for 2 adults"): the amount is that party's total."""
    m = _PARTY.match(text.lstrip())
    return m is not None and not _MORE_PEOPLE.match(text.lstrip(), m.end())


def party_said(text: str, lex: Lexicon) -> int | None:
    """The size of the party a claim says its total is for ("Total for both of you", "for all 3 of you",
    "3 人合计"), or None.

    Args:
        text: The claim's text.
        lex: The lexicon (its `number_words` and `numerals` read "three" and 三).

    Returns:
        The count (2 or more), or None.
    """
    m = _PARTY.search(text)
    if m is None or _MORE_PEOPLE.match(text, m.end()):
        return None  # "for 2 adults and 2 children": a party of several kinds, each at its own price
    said = next((g for g in m.groups() if g), "both").lower()
    count = 2 if said == "both" else small_number(lex, said)
    return count if count is not None and count > 1 else None


def small_number(lex: Lexicon, word: str) -> int | None:
    """A small count in digits, English words or Chinese numerals ("4", "four", 四).

    Args:
        lex: The lexicon (`number_words`, `numerals`).
        word: The word.

    Returns:
        The count, or None when the word is no number.
    """
    if word.isdigit():
        return int(word)
    value = lex.map("number_words").get(word.lower(), lex.map("numerals").get(word))
    return value if isinstance(value, int) else None
