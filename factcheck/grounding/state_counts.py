"""A count of the records in a state ("已送达的有 2 笔", "2 are pending"), recounted over the list holding them."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple
from weakref import WeakKeyDictionary

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import Lexicon, field_name
from factcheck.report import Fact, FactKind

_CLAUSE_MARK = re.compile(r"[,，、;；。:：()（）|\n]")
"""What ends a clause: the count and its state are read within one."""
_NEAR = 10
"""How many characters may stand between a count and the state word it counts by ("已送达 2 笔", "3 are pending")."""
_NOT_COUNTED = frozenset("号年月日点时分秒区排层栋")
"""Characters right after a number that make it no count ("2号房", a room's number; "3 区", a zone's)."""
_PART_OF = re.compile(r"(?i)(?:\bof(?:\s+(?:the|your|all))?|/|[×xX*])\s*$")
"""What right before a number makes it a whole or a quantity, not the count of the state ("1 of 3 delivered", "×2")."""
_CHINESE_COUNT = re.compile(r"[一二两三四五六七八九十]+[位个张件笔项名人单次条台份]")
"""A count in Chinese numerals with its measure word, which the number extractor may leave out (一位)."""
_SPANS = frozenset({"days", "day", "weeks", "months", "years", "hours", "nights", "night",
                    "天", "周", "个月", "年", "小时", "晚"})
"""Units of a span of time: a claim holding one counts within a window (not read)."""
_MOST = 50
"""The largest count read: a bigger number is no count of listed records."""
_STATE_THEN_WAY = re.compile(r"([a-z]+)\s+(?:in|into|across|as|via|with|by)\s+$")
"""A state word then a preposition right before a count: the state is the whole's, the count how it went ("shipped in
4 packages")."""
_AFTER_COUNT = re.compile(r"\s+of\s+(?:the\s+|your\s+|all\s+)?\w+\s+(?:[a-z]+\s+)?"
                          r"(?:(?:are|is|were|was|have|has|had)\s+)?(?:(?:been|now|already|all|still)\s+)*")
"""What may stand between a count and its state after the whole it is part of ("3 of the 4 have been delivered")."""
_NEGATED = re.compile(r"(?:\bnot(?:\b|_)|n't|\bnever\b|\bno\b|未|没|不|非)\s*\w{0,6}\s*$")
"""A negation right before a state word: the count is of the other entries."""
_ONE_AFTER = re.compile(r"\s+(?:was|is|has)\b")
"""A verb of one thing right after a number other than 1: the number is a name's ("room 3 was cancelled")."""
_WHOLE_OF = re.compile(r"[里中]")
"""Between a count and a state after it: the count is the whole the state's entries are of (6 项材料里已收到)."""
_LABEL = 16
"""The most characters of a label of a state a count follows after a colon ("SUCCESS：5 笔")."""
_NOT_ONE_LABEL = re.compile(r"(?i)\d|或|和|及|与|/|\bor\b|\band\b")
"""In a label before a colon: states joined ("已赔付或已批准：2 笔"), or a number of its own; no one state counted."""
_OF_WHOLE = re.compile(r"(?i)\s*(?:of|out of)\b")
"""After a label's count, before the whole it is of ("Confirmed: 3 of 5"); another number after it is the whole's
otherwise ("Confirmed: 5人中的3人")."""
_FIRST_YEAR = 1900
"""The least number of years read as a year of the calendar, not a span."""
_SHORTEST_ZH = 2
"""The fewest characters of a Chinese status value said as it is (已赔付)."""
_SHORTEST_EN = 4
"""The fewest characters of another status value said as it is ("paid"; not "ok" or "no")."""
_FILLER = re.compile(r"(?:\b(?:i|we|you|you've|you're|see|found|there|here|now|are|is|were|was|have|has|had|got|the|"
                     r"your|a|an|in|total|all|of|them|these|those|listed|below|above|on|file|account|altogether|"
                     r"currently|right)\b|您|你|名下|一共|总共|共有|共|有|查到|查了|了|个|笔|张|件|条|单|名|位|次|项|\*+)")
"""Words that may stand beside a count of a whole without a condition ("I see 2 payouts here", 您名下共有 3 张)."""
_WORD = re.compile(r"[a-z]+|[\u4e00-\u9fff]")
"""A word of a count's clause: a Latin word or one Chinese character."""


def state_count(
    index: EvidenceIndex, fact: Fact, facts: list[Fact], claim: str, start: int
) -> tuple[int, str, Leaf] | None:
    """How many entries of the one listed record set whose status fields mix states are in the state a count
    stands beside (lexicon `record_states`: pending, shipped, 已送达; or a status value the records hold, 已赔付).

    The state word stands in the count's clause, within a few characters of it and no other number between them,
    or after it and the whole it is part of ("3 of the 4 have been delivered"); not negated ("two that haven't
    shipped"), not after a record's key (the state of that record: "#W606: delivered — 2 items"), and not in a table
    row. The records are a list of a successful call, or the outputs of two or more successful calls of one tool that
    each give one record with a status; their status fields give that state to some entries and another to others (a
    list all of whose entries are in it, or none, is no condition the claim counts by), and there are at least as
    many entries as the count. A state that another may imply (a delivered order has shipped; a processed one may
    have) counts its own entries at least and those that may be in it at most.

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
    claimed = _whole_count(fact, claim, lex)
    if claimed is None:
        return None
    at, end = fact.start - start, fact.end - start
    begin = max((m.end() for m in _CLAUSE_MARK.finditer(claim, 0, at)), default=0)
    stop = next((m.start() for m in _CLAUSE_MARK.finditer(claim, end)), len(claim))
    if begin and claim[begin - 1] in ":：" and not claim[begin:at].strip():
        # "- ACTIVATED：6 个", "Delivered: 3": a label of the state, then its count
        label = max((m.end() for m in _CLAUSE_MARK.finditer(claim, 0, begin - 1)), default=0)
        said = claim[label : begin - 1]
        if 0 < len(said.strip(" -*•·")) <= _LABEL and not _NOT_ONE_LABEL.search(said) and not any(
                f.kind == FactKind.NUMBER and end <= f.start - start < stop and not _OF_WHOLE.match(claim, end)
                for f in facts):
            begin = label
    if claim[end : end + 1] in _NOT_COUNTED or _PART_OF.search(claim, max(0, at - _NEAR), at) or any(
            (f.kind in (FactKind.DATE, FactKind.TIME) or f.unit in _SPANS and not _a_year(f)) and f.start - start < stop
            for f in facts):
        return None  # "2号房", "×2", "1 of 3": no count of the state; "in the last 7 days, …": a window counts too
    if claimed != 1 and _ONE_AFTER.match(claim, end):
        return None  # "room 3 was cancelled": a name's number
    run = _run_records(index)
    if not run.sets:
        return None
    hits = _hits(claim.lower(), fact, facts, start, (begin, stop), run.literals, lex)
    if hits is None or len({state for state, _ in hits}) != 1:
        return None
    state = hits[0][0]
    found = []
    for where, leaves, said, entries in run.sets:
        own = {i for i, _, (direct, _) in said if state in direct}
        may = {i for i, _, (direct, written) in said if state in written}
        if may and len(may) < len(leaves) and claimed <= len(leaves) and leaves[min(may)] is not None:
            most = f"{len(own)} to {len(may)}" if len(own) < len(may) else str(len(may))
            found.append((own, may, f"{most} of the {len(leaves)} entries of {where} are {state}", leaves[min(may)],
                          entries))
    if len(found) != 1:
        return None
    own, may, how, leaf, entries = found[0]
    last = max((a for _, a in hits if a < at), default=None)
    if last is not None:
        keys = {v.lower().lstrip("#") for e in entries for v in e.values() if isinstance(v, str)}
        if any(f.kind == FactKind.IDENTIFIER and f.start - start < last and (f.value or "").lower().lstrip("#") in keys
               for f in facts):
            return None  # "#W6061497: delivered — 2 items": one of the records, its state, and its items
    return min(max(int(claimed), len(own)), len(may)), how, leaf


def _whole_count(fact: Fact, claim: str, lex: Lexicon) -> Decimal | None:
    """The number as a whole count of listed records (no amount of money or measure, no more than `_MOST`, not in a
    table row), or None."""
    if not fact.value or fact.unit in lex.currency_codes or fact.unit in lex.unit_scales:
        return None
    claimed = Decimal(fact.value)
    if claimed != claimed.to_integral_value() or not 0 < claimed <= _MOST or claim.lstrip().startswith("|"):
        return None
    return claimed


def _hits(
    low: str, fact: Fact, facts: list[Fact], start: int, clause: tuple[int, int], literals: _Literals, lex: Lexicon
) -> list[tuple[str, int]] | None:
    """The states a count stands beside, with where each starts: within a few characters of it and no other number
    between, nor one its words belong to (English says a count's state after it, "2 are paid and 10 are scheduled";
    Chinese before it, "6 项材料已收到 3 项"), or right after the whole it is part of; None when one is negated, joined
    to another by a slash, or stands after the whole ("6 项材料里已收到": the 6 is the whole) or before a preposition
    right before the count ("shipped in four packages")."""
    begin, stop = clause
    at, end = fact.start - start, fact.end - start
    numbers = [f for f in facts if f is not fact and f.kind == FactKind.NUMBER]
    left = max([begin] + [f.end - start for f in numbers if f.end - start <= at])
    right = min([stop] + [f.start - start for f in numbers if f.start - start >= end])
    earlier = [f.end - start for f in numbers if begin <= f.start - start < at]
    later = [f.start - start for f in numbers if end <= f.start - start < stop]
    later += [m.start() for m in _CHINESE_COUNT.finditer(low, end, stop)]  # "两位…只换成功了一位": 一位 is no fact
    hits = [(state, a, b) for state, a, b in _stated(low, left, right, literals, lex)
            if b >= at - _NEAR and a <= end + _NEAR
            and not (b <= at and _english(low, a, b) and earlier)
            and not (a >= end and not _english(low, a, b) and any(n >= b for n in later))]
    whole = _AFTER_COUNT.match(low, end, stop)
    if whole:  # "3 of the 4 have been delivered"
        hits += [(state, a, b) for state, a, b in _stated(low, whole.end(), stop, literals, lex) if a == whole.end()]
    for _, a, b in hits:
        if _NEGATED.search(low, max(begin, a - _NEAR), a):
            return None  # "two orders that haven't shipped": the others
        if low[a - 1 : a] == "/" or low[b : b + 1] == "/" or a > end and _WHOLE_OF.search(low, end, a):
            return None  # "expired/frozen": either; "6 项材料里已收到": the 6 holds what is in the state
    way = _STATE_THEN_WAY.search(low, begin, at)
    if way and _states_in(way[1], literals, lex):
        return None  # "shipped in four packages": the order's state, and how it went
    return [(state, a) for state, a, _ in hits]


def _english(low: str, start: int, end: int) -> bool:
    """Whether the state word at `low[start:end]` is written in Latin letters."""
    return low[start:end].isascii()


def _a_year(fact: Fact) -> bool:
    """Whether a number of years is a year of the calendar ("2025 年"), no span of time."""
    return fact.unit in ("年", "year", "years") and Decimal(fact.value or "0") >= _FIRST_YEAR


def _stated(low: str, begin: int, end: int, literals: _Literals, lex: Lexicon) -> list[tuple[str, int, int]]:
    """The record states `low[begin:end]` names, with where each starts and ends: the lexicon's, and status values
    the records hold said as they are (已赔付; "active", not "inactive")."""
    text = low[begin:end]
    found_words = list(lex.record_state_words.finditer(text))
    hits = [(lex.record_state_of[h.key], begin + h.start, begin + h.end) for h in found_words]
    outcomes = [h for h in lex.outcome_state_words.finditer(text)
                if not any(w.start < h.end and h.start < w.end for w in found_words)]
    hits += [(lex.outcome_state_of[h.key], begin + h.start, begin + h.end) for h in outcomes]
    found_words += outcomes
    for value, word in literals:
        if word is None:
            found = text.find(value)
        else:
            m = word.search(text)
            found = m.start() if m else -1
        if found >= 0 and not any(h.start < found + len(value) and found < h.end for h in found_words):
            hits.append((value, begin + found, begin + found + len(value)))
    return hits


def _states_in(text: str, literals: _Literals, lex: Lexicon) -> set[str]:
    """The record states `text` names."""
    return {state for state, _, _ in _stated(text, 0, len(text), literals, lex)}


_Said = list[tuple[int, str, tuple[set[str], set[str]]]]
_RecordSet = tuple[str, list[Leaf | None], _Said, list[dict]]
_Literals = list[tuple[str, "re.Pattern[str] | None"]]


class _RunRecords(NamedTuple):
    """What a run's outputs give the state counts, read once per run."""

    sets: list[_RecordSet]
    """The sets of records with a status field: where they are, each entry's status leaf, each entry's states (its
    own, and those it may be in: `_value_states`), and the entries."""
    literals: _Literals
    """The status values they hold that no lexicon word says, long enough to be said as they are, each with the
    pattern that finds it as a word of its own (None for a CJK value, found anywhere)."""


_READ: WeakKeyDictionary[EvidenceIndex, _RunRecords] = WeakKeyDictionary()
"""The record sets and status values of each run's evidence."""


def _run_records(index: EvidenceIndex) -> _RunRecords:
    """The run's record sets and their status values, read at the first count that asks."""
    found = _READ.get(index)
    if found is None:
        sets = _read_record_sets(index)
        values = sorted({v for _, _, said, _ in sets for _, _, (_, written) in said for v in written}
                        - set(index.lex.record_state_of))
        literals: _Literals = [
            (v, None) if _cjk(v) else (v, re.compile(rf"(?<![a-z]){re.escape(v)}(?![a-z])"))
            for v in values if len(v) >= (_SHORTEST_ZH if _cjk(v) else _SHORTEST_EN)
        ]
        found = _READ[index] = _RunRecords(sets, literals)
    return found


def _cjk(value: str) -> bool:
    """Whether a status value holds Chinese characters (found anywhere, not as a word of its own)."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in value)


def _read_record_sets(index: EvidenceIndex) -> list[_RecordSet]:
    """The sets of `_RunRecords`, read from the run's successful outputs."""
    lex = index.lex
    sets: list[_RecordSet] = []

    def states_of(entry: dict) -> list[tuple[str, tuple[set[str], set[str]]]]:
        return [(str(key), _value_states(entry[key], lex)) for key in entry
                if isinstance(entry[key], str) and lex.status_fields.lookup(field_name(str(key)))]

    singles: dict[str, list[tuple[int, dict, tuple[str, tuple[set[str], set[str]]]]]] = {}
    for call in index.calls:
        if call.status != "ok":
            continue
        value = index.flats[call.index].value
        for path, entries in _record_lists(value):
            said = [(i, key, s) for i, e in enumerate(entries) for key, s in states_of(e)[:1]]
            if said:
                keys = dict((i, key) for i, key, _ in said)
                leaves = [index.leaf_at(call.index, f"{path}[{i}].{keys[i]}") if i in keys else None
                          for i in range(len(entries))]
                sets.append((path or "the output", leaves, said, entries))
        if isinstance(value, dict) and (own := states_of(value)):
            singles.setdefault(call.name, []).append((call.index, value, own[0]))
        sets += _keyed_sets(index, call.index, value)
    for name, outputs in singles.items():
        if len(outputs) >= 2:  # track_parcel once per parcel: each call's record is one entry
            said = [(i, key, states) for i, (_, _, (key, states)) in enumerate(outputs)]
            leaves = [index.leaf_at(call, key) for call, _, (key, _) in outputs]
            sets.append((f"the {len(outputs)} {name} calls", leaves, said, [v for _, v, _ in outputs]))
    return sets


def _keyed_sets(index: EvidenceIndex, call: int, value: object, path: str = "", depth: int = 0) -> list[_RecordSet]:
    """Record sets given as lists under keys that name their state (`{"failed": [2 entries], "on_hold": [1]}`):
    each entry in its key's state; two lists or more in one mapping, one of them under a state of the lexicon: the
    same shape as a list whose status fields mix states."""
    if not isinstance(value, dict) or depth > 3:
        return []
    lex = index.lex
    keyed = [(str(key), entries, _key_states(str(key), lex)) for key, entries in value.items()
             if isinstance(entries, list)]
    found: list[_RecordSet] = []
    if len(keyed) >= 2 and any(direct for _, _, (direct, _) in keyed):
        said, leaves, entries = [], [], []
        for key, members, states in keyed:
            for i, member in enumerate(members):
                at = f"{path}.{key}[{i}]" if path else f"{key}[{i}]"
                first = next(iter(member), None) if isinstance(member, dict) else None
                said.append((len(entries), key, states))
                leaves.append(index.leaf_at(call, f"{at}.{first}" if first is not None else at))
                entries.append(member if isinstance(member, dict) else {key: member})
        where = "/".join(key for key, _, _ in keyed)
        if entries:
            found.append((f"{path + '.' if path else ''}{where}", leaves, said, entries))
    for key, item in value.items():
        found += _keyed_sets(index, call, item, f"{path}.{key}" if path else str(key), depth + 1)
    return found


def _key_states(key: str, lex: Lexicon) -> tuple[set[str], set[str]]:
    """The lexicon's states a key names (`failed`, `on_hold` none), and with those they imply: a key's own words are no
    status value, unlike a status field's value (`_value_states`)."""
    name = field_name(key).lower()
    direct = lex.record_states_in(name) | lex.outcome_states_in(name)
    return direct, direct | {more for state in direct for more in lex.record_state_implies.get(state, ())}


def _value_states(value: str, lex: Lexicon) -> tuple[set[str], set[str]]:
    """The states a status value gives its record: the lexicon's and the value as it is written; and those with the
    states they imply (a delivered parcel has shipped, a processed order may have)."""
    low = value.lower().replace("_", " ").strip()
    states = lex.record_states_in(low) | lex.outcome_states_in(low) | {low}
    return states, states | {implied for state in states for implied in lex.record_state_implies.get(state, ())}


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


def some_state_count(index: EvidenceIndex, fact: Fact, facts: list[Fact], claim: str, start: int) -> str:
    """How a whole count no tool gives may count the records of one state that no state word of the claim names ("3
    active bookings", "实际有效的是 3 单", "已经搞定的 2 个"): the entries of a listed record set whose status fields
    mix states, in one status value or in all the others, number that many. A claim that names a state (a status or
    an action, or a record state the lexicon or the records know) is left to `state_count`.

    Args:
        index: The run's evidence.
        fact: A whole number of the claim that no tool output gives.
        facts: The claim's facts (a status or an action among them names a state).
        claim: The claim's text.
        start: Where the claim's text starts in the answer.

    Returns:
        How, as a person reads it (to follow "no tool output gives 3"), or "" when no such set has that many.
    """
    lex = index.lex
    claimed = _whole_count(fact, claim, lex)
    if claimed is None or fact.unit in _SPANS:
        return ""
    end = fact.end - start
    if claim[end : end + 1] in _NOT_COUNTED or (claimed != 1 and _ONE_AFTER.match(claim, end)):
        return ""
    at = fact.start - start
    begin = max((m.end() for m in _CLAUSE_MARK.finditer(claim, 0, at)), default=0)
    stop = next((m.start() for m in _CLAUSE_MARK.finditer(claim, end)), len(claim))
    said = _FILLER.sub(" ", f"{claim[begin:at]} {claim[end:stop]}".lower())
    if len(_WORD.findall(said)) < 2:
        return ""  # "I see 2 payouts here": no condition beside the count and its noun; it counts them all
    run = _run_records(index)
    if any(f.kind in (FactKind.STATUS, FactKind.ACTION) for f in facts) or _states_in(claim.lower(), run.literals, lex):
        return ""  # a state the claim names is counted by `state_count`, or not at all
    for where, leaves, _, _ in run.sets:
        values = [leaf.text.lower() for leaf in leaves if leaf is not None]
        if len(values) != len(leaves) or len(set(values)) < 2:
            continue
        for value in sorted(set(values)):
            held = values.count(value)
            if claimed in (held, len(values) - held):
                some = "in" if claimed == held else "not in"
                return (f"; {int(claimed)} of the {len(values)} entries of {where} are {some} the state {value!r}, "
                        "a state not read from the claim")
    return ""
