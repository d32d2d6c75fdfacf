"""A line that names one record of a list and gives a value only another record of it holds ("李娜：座位 32C")."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from factcheck.grounding.calls import said_whole
from factcheck.grounding.counting import record_lists
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import Leaf, scalars_of
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name
from factcheck.report import Claim, Fact, FactKind, Verdict

_TOKEN = re.compile(r"(?<![A-Za-z0-9_.,])[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*(?![A-Za-z0-9_]|[.,]\d)")
"""A code or a number as the answer writes it ("32C", "55", "781-2406617713", the "11B" of "06车11B"), not a part of a
longer one."""
_LATIN = re.compile(r"[A-Za-z]")
_SENTENCE_END = re.compile(r"[;；。!?！？\n]|\.\s")
"""What ends a sentence or a clause of its own between a label and a value."""
_SHORTEST_NAME = 2
"""The fewest characters of a record's name looked for in a claim."""
_SHORTEST_FIRST_NAME = 3
"""The fewest letters of a first name a claim may name a record by alone."""
_SHORTEST_CODE = 2
"""The fewest characters of a value compared."""
_KIND_FIELDS = frozenset({"type", "kind", "category", "item", "product", "title", "description"})
"""Fields whose value names a record by what it is (`type: 键鼠套装`): said, it names that record too."""
_LONGEST_WORDED = 24
"""The most characters of a value in words compared (a name, a team; not a title or a note)."""
_SHORTEST_LABELLED_CODE = 6
"""The fewest characters of a value compared in records told apart by a label field (a carrier), not a name."""
_SHORTEST_REPLACED = 3
"""The fewest characters of a record's own code another code of its shape may be said in place of (not a "01")."""

Named = tuple[str, dict[str, tuple[str | None, str]]]
"""A record by its name: (name, field -> (value, path of the value in its call's output)); None where the record's
field is null and another record's holds a code."""


def swapped_values(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Flag a value a claim gives beside one record's name that only another record of the same list holds.

    A list of records each named by its own text in a name field (lexicon `record_name_fields`: a passenger's
    `name`) gives each a value of a field written with a digit (`seat: "32B"`). A claim that names exactly one of
    the records and says another record's value of that field, where that value is held by that record alone and
    the named record's own value is not said, reports the other record's fact as the named one's ("李娜：已值机，
    座位 32C" where 李娜's seat is 32B and 张子轩's 32C): that value is contradicted by the named record's own. A
    value after a word of a new value (改为 32C) is one asked for, not read. Records with no name field may be told
    apart by a label field (lexicon `record_label_fields`: a parcel's `carrier`), comparing values of six characters
    or more ("顺丰速运，单号 ZT73309152278" of the 中通 parcel's number). A named record whose field is null is given
    another's value when the claim says one other record's value of that field, after the name only ("吴倩：座位
    23C" where 吴倩 has no seat). A list with no name of its own takes the names of another list's records it shares
    a key with, one each (`seats: [{"pax": "P2", "seat": "45F"}]` of `passengers: [{"pax": "P2", "name": …}]`).

    Args:
        claims: The answer's claims, grounded.
        source: The answer's text the claims are offsets into.
        index: The run's evidence.
    """
    sets = _record_sets(index)
    if not sets:
        return
    firsts = [_first_names(records) for _, records, _ in sets]
    for claim in claims:
        if not claim.act.asserts:
            continue
        text = source[claim.start : claim.end]
        low = text.lower()
        for (call, records, labelled), first_names in zip(sets, firsts, strict=True):
            named = _named(records, text, low)
            if not named:
                named = [i for i, first in enumerate(first_names) if first and _names(text, first)]
            if len(named) == 1:
                _flag_swaps(claim, text, records, named[0], call, index, labelled)


def _named(records: list[Named], text: str, low: str) -> list[int]:
    """The records a claim names by their whole names; none when a name it says is also part of another record's
    name it does not say ("Standard" of "Standard (paperless)": either); a name said only as part of a longer one
    the claim says is not named of its own."""
    said = [i for i, (name, _) in enumerate(records) if name.lower() in low and _names(text, name)]
    names = [name.lower() for name, _ in records]
    named = [i for i in said if not any(j != i and names[i] in names[j] for j in said)]
    if any(names[i] in names[j] for i in named for j in range(len(records)) if j != i and j not in said):
        return []
    return named


def _record_sets(index: EvidenceIndex) -> list[tuple[int, list[Named], bool]]:
    """The run's lists of records with a name field, each record by its name and its coded values, and whether a
    label field names them (a carrier), not a name field."""
    names, labels = index.lex.record_names, index.lex.record_labels
    sets = []
    named: list[tuple[list[dict], str]] = []
    unnamed: list[tuple[Leaf, list[dict]]] = []
    for leaf, records in record_lists(index):
        key = _name_field(records, names)
        shortest = _SHORTEST_CODE
        if key is not None:
            named.append((records, key))
        elif (key := _name_field(records, labels)) is not None:
            shortest = _SHORTEST_LABELLED_CODE  # a carrier labels a parcel's tracking number, not its "5GB" plan
        else:
            unnamed.append((leaf, records))
        coded = {f for r in records for f, v in r.items() if f != key and _coded(v, shortest)}
        if key is not None and coded:
            sets.append((leaf.index, _named_values(leaf, records, [str(r[key]) for r in records], shortest, coded),
                         shortest == _SHORTEST_LABELLED_CODE))
    for leaf, records in unnamed:
        joined = _joined_names(records, named, index)
        if joined is not None:
            join, names_of = joined
            coded = {f for r in records for f, v in r.items() if f != join and _coded(v)}
            if coded:
                sets.append((leaf.index, _named_values(leaf, records, names_of, _SHORTEST_CODE, coded), False))
    return sets


def _named_values(leaf: Leaf, records: list[dict], names: list[str], shortest: int,
                  coded: set[str]) -> list[Named]:
    """Each record by the name given to it and its coded values (None where another record's field holds one)."""
    base = leaf.path if leaf.path != "$" else ""
    return [(name, {str(f): (v, f"{base}[{i}].{f}") for f, v in r.items()
                    if f in coded and (_coded(v, shortest) or v is None)})
            for i, (r, name) in enumerate(zip(records, names, strict=True))]


def _joined_names(records: list[dict], named: list[tuple[list[dict], str]],
                  index: EvidenceIndex) -> tuple[str, list[str]] | None:
    """The names of a list's records that have none of their own, from another list's records they share a key
    with (`seats: [{"pax": "P2", "seat": "45F"}]` of `passengers: [{"pax": "P2", "name": "WONG/MEILING MS"}]`):
    the key field, each record's own value, every one naming one record of the named list, none twice."""
    for others, name_key in named:
        for join in records[0]:
            if join == name_key or not all(join in r and join in o for r in records for o in others):
                continue
            theirs = [_join_value(o[join], join, index) for o in others]
            mine = [_join_value(r[join], join, index) for r in records]
            if None in theirs or None in mine or len(set(theirs)) < len(theirs) or len(set(mine)) < len(mine):
                continue
            of = {v: str(o[name_key]) for v, o in zip(theirs, others, strict=True)}
            if all(v in of for v in mine):
                return join, [of[v] for v in mine]
    return None


def _join_value(value: Any, field: str, index: EvidenceIndex) -> str | None:
    """A value two records may be joined by: a code with a digit, or a whole number in a field of keys."""
    if isinstance(value, bool):
        return None
    if _coded(value, 1) or isinstance(value, int) and index.is_record_key(field):
        return str(value).lower()
    return None


def _name_field(records: list[dict], names: frozenset[str]) -> str | None:
    """The field that names each record: a name field every record fills with its own text, no code ("T1")."""
    for field in records[0]:
        if field_name(str(field)) in names:
            values = [r.get(field) for r in records]
            if all(isinstance(v, str) and len(v) >= _SHORTEST_NAME and not any(ch.isdigit() for ch in v)
                   for v in values) and len(set(values)) == len(values):
                return str(field)
    return None


def _first_names(records: list[Named]) -> list[str | None]:
    """Each record's first name ("Rohan" of "Rohan Nair"), when the records are people: names of two words or
    more in Latin letters that share their last word (a family), or written as an airline writes them
    ("ZHOU/MIN MS"); and no other record's name starts with the same word. A product's first word
    ("Action" of "Action Camera") names nothing on its own."""
    words = [name.split() for name, _ in records]
    if not all(len(w) > 1 and _LATIN.search(w[0]) for w in words):
        return [None] * len(records)
    family = len({w[-1].lower() for w in words}) == 1
    firsts = [w[0] if family or "/" in w[0] else None for w in words]
    return [f if f and len(f) >= _SHORTEST_FIRST_NAME and sum(g == f for g in firsts) == 1 else None for f in firsts]


def _names(text: str, name: str) -> bool:
    """Whether a claim names a record by its whole name (as a word of its own when written in Latin letters)."""
    return _word_at(text, name) >= 0


def _flag_swaps(claim: Claim, text: str, records: list[Named], at: int, call: int, index: EvidenceIndex,
                labelled: bool = False) -> None:
    """Contradict each value of the claim that one other record alone holds in a field whose named value is unsaid;
    of records told apart by a label, only a value after the label in the same sentence ("顺丰速运，单号 ZT…", not
    "MU5401 最早；中国国航的票价 980 元")."""
    found = list(_TOKEN.finditer(text))
    tokens = {m.group().lower(): m for m in found}
    name, mine = records[at]
    said = text.lower().find(name.lower()) if labelled else -1
    shown = {k: m for k, m in tokens.items()
             if not labelled or m.start() > said and not _SENTENCE_END.search(text, said, m.start())}
    for field, (value, here) in mine.items():
        if value is not None and value.lower() in tokens:
            continue
        held = [(j, r[1][field][0].lower()) for j, r in enumerate(records)
                if j != at and field in r[1] and r[1][field][0] is not None]
        if value is None and (sum(o in tokens for _, o in held) != 1 or not _said_after(text, name, held)):
            continue  # a record with none: one other record's value, said after its name ("Yumi — 23B"), or none
        other_said = False
        for j, other in held:
            m = shown.get(other)
            if m is None or other == (value or "").lower() or sum(o == other for _, o in held) != 1:
                continue
            other_said = True  # another record's value: a swap, or one asked for; not one no record holds
            if index.lex.new_value_cues.search(text, 0, m.start()):
                continue  # "把 Bookshelf 换成 2405281423": the value asked for, not one the record holds
            fact = _fact_at(claim, m, other)
            own = f"{name}'s is {value}" if value is not None else f"{name} has none ({here}: null)"
            leaf = index.leaf_at(call, here if value is not None else records[j][1][field][1])
            set_verdict(fact, Verdict.CONTRADICTED, "swapped_value",
                        f"{m.group()} is {records[j][0]}'s {field_name(field) or 'value'} ({records[j][1][field][1]}); "
                        f"{own}", [evidence_of(leaf, index)])
        if not other_said and value is not None and not labelled:
            _own_replaced(claim, text, found, name, field, value, here, call, index)


def _shape(value: str) -> str:
    """A code's shape: digits and letters folded ("33F" and "32F": "99A")."""
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", value))


def _own_replaced(claim: Claim, text: str, said: list[re.Match[str]], name: str, field: str, value: str, here: str,
                  call: int, index: EvidenceIndex) -> None:
    """Contradict a code of the named record's field's shape said after its name, in place of its own, that no tool
    output holds ("吴乐乐 | 32F" where 吴乐乐's seat is 33F); `said` are the claim's codes and numbers (`_TOKEN`)."""
    if len(value) < _SHORTEST_REPLACED:
        return
    shape = _shape(value)
    at = text.lower().find(name.lower())
    found = [m for m in said if _shape(m.group()) == shape]
    if at < 0 or len(found) != 1 or found[0].start() < at + len(name):
        return  # one code of the shape, after the name: not one of several a sentence compares
    m = found[0]
    token = m.group().lower()
    if index.find_token(token) is not None or index.find_key(token) is not None \
            or index.lex.new_value_cues.search(text, 0, m.start()):
        return
    set_verdict(_fact_at(claim, m, token), Verdict.CONTRADICTED, "swapped_value",
                f"{name}'s {field_name(field) or 'value'} is {value} ({here}); no tool gives {m.group()}",
                [evidence_of(index.leaf_at(call, here), index)])


def _fact_at(claim: Claim, m: re.Match[str], value: str) -> Fact:
    """The claim's fact that holds the token `m` of its text, or a new identifier fact of it, added in order."""
    start, end = claim.start + m.start(), claim.start + m.end()
    fact = next((f for f in claim.facts if f.start <= start and end <= f.end), None)
    if fact is None:
        fact = Fact(kind=FactKind.IDENTIFIER, text=m.group(), start=start, end=end, value=value)
        claim.facts.append(fact)
        claim.facts.sort(key=lambda f: f.start)
    return fact


def _said_after(text: str, name: str, held: list[tuple[int, str]]) -> bool:
    """Whether every place the claim says another record's value stands after the named record's name (or its first
    word): "吴倩：座位 23C", not "23C 旁边，可以给吴倩选"."""
    low = text.lower()
    at = low.find(name.lower())
    if at < 0:
        at = low.find(name.split()[0].lower())
    values = {other for _, other in held}
    return at >= 0 and all(m.start() > at for m in _TOKEN.finditer(text) if m.group().lower() in values)


def _coded(value: Any, shortest: int = _SHORTEST_CODE) -> bool:
    """Whether a value is a code or a number written as text ("32C", "55"): one token of `shortest` characters or
    more with a digit (not a line's "2", which a quantity or a price may also write)."""
    return isinstance(value, str) and len(value) >= shortest and any(ch.isdigit() for ch in value) \
        and _TOKEN.fullmatch(value) is not None


def key_swapped_words(claims: list[Claim], source: str, index: EvidenceIndex) -> None:
    """Flag a word a claim gives after one record's key that only another record of the same list holds in the same
    field ("INC0081452 …，由孙磊跟进" where INC0081452's assignee is 刘洋 and RITM0033710's is 孙磊).

    A list of records each with its own code of six characters or more (`ticket: "INC0081452"`) gives each a value
    written in words, no digit, in a field other than a status, a name or a kind (`assignee: "刘洋"`), every
    record's its own and held nowhere in the named record. A claim
    that names exactly one of the records by its key and says, after the key and in the same sentence, the value
    another record alone holds, not its own, reports the other record's fact as the named one's.

    Args:
        claims: The answer's claims, grounded.
        source: The answer's text the claims are offsets into.
        index: The run's evidence.
    """
    naming = index.lex.record_names | _KIND_FIELDS
    for leaf, records in record_lists(index):
        key = next((k for k in records[0] if all(_coded(r.get(k), _SHORTEST_LABELLED_CODE) for r in records)
                    and len({str(r.get(k)).lower() for r in records}) == len(records)), None)
        if key is None:
            continue
        fields = []  # fields in words, each record's its own (a record without one is left out), not its name or kind
        for f in records[0]:
            values = [r[f] for r in records if f in r]
            if f != key and not index.lex.status_fields.search(field_name(str(f))) and len(values) > 1 \
                    and field_name(str(f)) not in naming \
                    and all(_worded(v) for v in values) and len(set(values)) == len(values):
                fields.append(f)
        if not fields:
            continue
        base = leaf.path if leaf.path != "$" else ""
        for claim in claims:
            if not claim.act.asserts:
                continue
            text = source[claim.start : claim.end]
            low = text.lower()
            named = [i for i, r in enumerate(records) if said_whole(low, str(r[key]).lower())]
            if len(named) != 1:
                continue
            at = named[0]
            begin = low.find(str(records[at][key]).lower())
            for field in fields:
                if field not in records[at] or _word_at(text, records[at][field]) >= 0:
                    continue
                said = [(j, pos) for j, r in enumerate(records) if j != at and field in r
                        and (pos := _word_at(text, r[field], begin)) > begin
                        and not _SENTENCE_END.search(text, begin, pos)]
                if len(said) != 1:
                    continue
                j, pos = said[0]
                value = records[j][field]
                if _held(records[at], value):
                    continue  # "HAT261 departs ORD": the named record holds it too, in another field
                start, end = claim.start + pos, claim.start + pos + len(value)
                fact = next((f for f in claim.facts if f.start <= start and end <= f.end), None)
                if fact is None:
                    fact = Fact(kind=FactKind.NAME, text=value, start=start, end=end, value=value)
                    claim.facts.append(fact)
                    claim.facts.sort(key=lambda f: f.start)
                own = index.leaf_at(leaf.index, f"{base}[{at}].{field}")
                set_verdict(fact, Verdict.CONTRADICTED, "swapped_value",
                            f"{value} is {records[j][key]}'s {field_name(str(field))} ({base}[{j}].{field}); "
                            f"{records[at][key]}'s is {records[at][field]}", [evidence_of(own, index)] if own else [])


def _worded(value: Any) -> bool:
    """Whether a value is a name or words with no digit (`刘洋`, `Dana Ruiz`), short enough to be said whole; not a
    plain lower-case word (`refund`, `paid`), which any claim may say of its own."""
    return isinstance(value, str) and _SHORTEST_NAME <= len(value) <= _LONGEST_WORDED \
        and not any(ch.isdigit() for ch in value) and not value.islower()


def _held(record: dict, value: str) -> bool:
    """Whether a record holds a value in any of its fields, or a text of it holds the value ("键鼠套装" in its name)."""
    low = value.lower()
    return any(isinstance(v, str) and (low in v.lower() or v.lower() in low) for v in scalars_of(record))


def _word_at(text: str, value: str, after: int = 0) -> int:
    """Where a claim says a value, after `after` (a whole word when written in Latin letters), else -1."""
    if not _LATIN.search(value):
        return text.find(value, after)
    m = _word_pattern(value).search(text, after)
    return m.start() if m else -1


@lru_cache(maxsize=4096)
def _word_pattern(value: str) -> re.Pattern[str]:
    """The regex of `_word_at` for a value in Latin letters (names repeat from claim to claim)."""
    return re.compile(rf"(?i)(?<![A-Za-z]){re.escape(value)}(?![A-Za-z])")
