"""A count of the records in a state ("已送达的有 2 笔", "2 are pending"), recounted over the list holding them."""

from __future__ import annotations

import re
from decimal import Decimal

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind

_CLAUSE_MARK = re.compile(r"[,，;；。:：()（）\n]")
"""What ends a clause: the count and its state are read within one."""
_NEAR = 10
"""How many characters may stand between a count and the state word it counts by ("已送达 2 笔", "3 are pending")."""
_NOT_COUNTED = frozenset("号年月日点时分秒")
"""Characters right after a number that make it no count ("2号房", a room's number)."""
_PART_OF = re.compile(r"(?i)(?:\bof|/|[×xX*])\s*$")
"""What right before a number makes it a whole or a quantity, not the count of the state ("1 of 3 delivered", "×2")."""
_SPANS = frozenset({"days", "day", "weeks", "months", "years", "hours", "天", "周", "个月", "年", "小时"})
"""Units of a span of time: a claim holding one counts within a window (not read)."""
_MOST = 50
"""The largest count read: a bigger number is no count of listed records."""


def state_count(
    index: EvidenceIndex, fact: Fact, facts: list[Fact], claim: str, start: int
) -> tuple[int, str, Leaf] | None:
    """How many entries of the one listed record set whose status fields mix states are in the state a count
    stands beside (lexicon `record_states`: pending, shipped, 已送达).

    The state word stands in the count's clause, within a few characters of it; the list is the one list of records
    of a successful call whose status field gives that state to some entries and another to others (a list all of
    whose entries are in it, or none, is no condition the claim counts by).

    Args:
        index: The run's evidence.
        fact: A whole number of the claim, no amount of money or measure.
        facts: The claim's facts (a date or a span of time before the count or in its clause is a window it counts
            in: not read).
        claim: The claim's text.
        start: Where the claim's text starts in the answer.

    Returns:
        (how many entries are in the state, how, as a person reads it, the list's first status), or None.
    """
    lex = index.lex
    if not fact.value or fact.unit in lex.currency_codes or fact.unit in lex.unit_scales:
        return None
    claimed = Decimal(fact.value)
    if claimed != claimed.to_integral_value() or not 0 < claimed <= _MOST:
        return None
    at, end = fact.start - start, fact.end - start
    begin = max((m.end() for m in _CLAUSE_MARK.finditer(claim, 0, at)), default=0)
    stop = next((m.start() for m in _CLAUSE_MARK.finditer(claim, end)), len(claim))
    if claim[end : end + 1] in _NOT_COUNTED or _PART_OF.search(claim, max(0, at - _NEAR), at) or any(
            (f.kind in (FactKind.DATE, FactKind.TIME) or f.unit in _SPANS) and f.start - start < stop for f in facts):
        return None  # "2号房", "×2", "1 of 3": no count of the state; "in the last 7 days, …": a window counts too
    states = lex.record_states_in(claim[max(begin, at - _NEAR) : min(stop, end + _NEAR)].lower())
    if len(states) != 1:
        return None
    state = next(iter(states))
    found = []
    for call in index.calls:
        if call.status != "ok":
            continue
        for path, entries in _record_lists(index.flats[call.index].value):
            said = [(i, key, lex.record_states_in(str(e[key]).lower())) for i, e in enumerate(entries)
                    for key in e if isinstance(e[key], str) and lex.status_fields.lookup(field_name(str(key)))]
            if not said:
                continue
            held = sorted({i for i, _, s in said if state in s})
            if held and len(held) < len(entries):
                key = next(k for i, k, s in said if i == held[0] and state in s)
                leaf = index.leaf_at(call.index, f"{path}[{held[0]}].{key}")
                if leaf is not None:
                    found.append((len(held), f"{len(held)} of the {len(entries)} entries of {path} are {state}", leaf))
    return found[0] if len(found) == 1 else None


def _record_lists(value: object, path: str = "", depth: int = 0) -> list[tuple[str, list[dict]]]:
    """The lists of two or more records (mappings) in a tool output, with their paths (`courses`, `data.items`)."""
    if depth > 4:
        return []
    found = []
    if isinstance(value, list):
        if len(value) >= 2 and all(isinstance(v, dict) for v in value):
            found.append((path, value))
    elif isinstance(value, dict):
        for key, item in value.items():
            found += _record_lists(item, f"{path}.{key}" if path else str(key), depth + 1)
    return found
