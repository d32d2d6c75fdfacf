"""A record's key said beside another record's name: "the Bookshelf (item_id 2405281423)" of the Pet Bed's id."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

_BESIDE = 48
"""How far from a key a name is read as the one the key is said of (the characters of its clause, brackets left out)."""
_BREAK = re.compile(
    r"(?i)\n|[,;|]|→|->|=>|\.\s|\b(?:to|for|from|into|with|and|or|but|vs|versus|instead|than|replac\w*|becomes?)\b"
    r"|[，；。、→]|和|及|与|换|改|替"
)
"""What parts two things in a clause ("exchange item 2757705742 for the T-Shirt", "A (1), B (2)", 把 A 换成 B): a name
across it is said of something else than the key."""
_JOINER = re.compile(r"(?i)\s*(?:,|&|and|[和与及、])\s*")
"""What joins a name to the one before it in a list of names ("Ann and Bo", 郑伟和郑晓雨)."""
_BRACKETS = re.compile(r"\([^()]*\)|（[^（）]*）")
_SHORTEST = 4
"""Shortest record name read in an answer's words (not "Kit", not a size)."""
_SHORTEST_CJK = 2
"""Shortest Chinese record name read in an answer (张伟), anywhere in its text: no spaces part Chinese words."""
_CJK = re.compile(r"[\u4e00-\u9fff]+$")
"""A name written in Chinese characters only."""


Place = tuple[int, str]
"""Where a name is: its call and path (its leaf is made only for a flag's evidence)."""


@dataclass
class KeyNames:
    """Every record of the run's tool outputs that has a name: its keys, and the names of all of them."""

    of_key: dict[str, list[tuple[str, Place]]] = field(default_factory=dict)
    """A key (lower case, no `#`) -> the name of each record it keys, and where that name is."""
    names: dict[str, Place] = field(default_factory=dict)
    """Every record name (lower case) -> where it is first."""
    pattern: re.Pattern[str] | None = None
    """Any record name, as a word of the answer."""


def key_names(index: EvidenceIndex) -> KeyNames:
    """Read the named records of a run: a dict with a name field, its key fields' values, and the dicts it keys by
    their own ids (`variants: {"6700049080": {"item_id": "6700049080", ...}}` are the product's).

    Args:
        index: The run's evidence.

    Returns:
        The keys and names; empty when no tool output has a named record.
    """
    out = KeyNames()
    fields = index.lex.record_names
    for call in index.calls:
        if call.untrusted or call.status == "error":
            continue
        for path, name, keys in _named_records(index.flats[call.index].value, "", None, fields, index):
            place = (call.index, path)
            out.names.setdefault(name.lower(), place)
            for key in keys:
                out.of_key.setdefault(key, []).append((name, place))
    words = sorted((n for n in out.names if len(n) >= (_SHORTEST_CJK if _CJK.match(n) else _SHORTEST)),
                   key=len, reverse=True)
    if words:
        out.pattern = re.compile("|".join(re.escape(w) if _CJK.match(w) else rf"(?<!\w){re.escape(w)}(?!\w)"
                                          for w in words), re.IGNORECASE)
    return out


def _named_records(value: Any, path: str, inherited: tuple[str, str] | None, fields: frozenset[str],
                   index: EvidenceIndex) -> Iterator[tuple[str, str, list[str]]]:
    """(path of the name, name, keys) of each dict with a name or a name it inherits from the dict that keys it."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _named_records(item, f"{path}[{i}]", None, fields, index)
        return
    if not isinstance(value, dict):
        return
    own = next(((f"{path}.{k}" if path else str(k), v) for k, v in value.items()
                if isinstance(v, str) and v.strip() and _is_name_field(str(k), fields)), None)
    named = own or inherited
    keys = [str(v).lower().lstrip("#") for k, v in value.items()
            if isinstance(v, str | int) and not isinstance(v, bool)
            and (index.is_record_key(str(k)) or field_name(str(k)) in index.lex.seat_fields)]
    if named is not None and keys:
        yield named[0], named[1], keys
    for k, v in value.items():
        if isinstance(v, dict | list):
            child = f"{path}.{k}" if path else str(k)
            # a dict of records keyed by their own ids (a product's variants) inherits the name of the one it is in
            by_id = isinstance(v, dict) and named is not None and all(
                isinstance(x, dict) and any(str(y) == str(kk) for y in x.values()) for kk, x in v.items())
            if by_id:
                for kk, x in v.items():
                    yield from _named_records(x, f"{child}.{kk}", named, fields, index)
            else:
                yield from _named_records(v, child, None, fields, index)


@functools.lru_cache(maxsize=4096)
def _is_name_field(key: str, fields: frozenset[str]) -> bool:
    """Whether a field holds its record's name (`name`, `product_name`), read once per field name and lexicon."""
    return field_name(key) in fields


def key_beside_other_name(facts: list[Fact], text: str, start: int, index: EvidenceIndex,
                          read_names: Callable[[], KeyNames]) -> None:
    """Contradict a record's key said beside the name of another record and not its own: "Fleece Jacket (item
    1775591963)" where item 1775591963 is the order's Running Shoes. The name must be another named record's in the
    run, in the key's own clause (nothing like "for", "→" or 换 between them), with no other key there.

    Args:
        facts: The claim's facts (identifiers already grounded).
        text: The claim's text.
        start: Where the claim starts in the answer.
        index: The run's evidence.
        read_names: Gives `key_names(index)` (read only once a claim has a backed identifier).
    """
    if not any(f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED for f in facts):
        return
    names = read_names()
    if names.pattern is None:
        return
    spans = [(f.start - start, f.end - start) for f in facts if f.kind == FactKind.IDENTIFIER]
    for fact in facts:
        if fact.kind != FactKind.IDENTIFIER or fact.verdict != Verdict.SUPPORTED:
            continue
        records = names.of_key.get((fact.value or fact.text).lower().lstrip("#"))
        if not records:
            continue
        own = {name.lower() for name, _ in records}
        begin, end = fact.start - start, fact.end - start
        said = _names_beside(text, begin, end, names.pattern, spans)
        if not said or any(n.lower() in own for n in said):
            continue
        other = said[0]
        name, place = records[0]
        leaves = (index.leaf_at(*p) for p in (place, names.names.get(other.lower())) if p is not None)
        set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                    f"{fact.text} is the key of {name!r}, not of {other!r}, the record the claim names beside it",
                    [evidence_of(leaf, index) for leaf in leaves if leaf is not None])


def _names_beside(text: str, begin: int, end: int, pattern: re.Pattern[str], keys: list[tuple[int, int]]) -> list[str]:
    """The record names said next to the key at `text[begin:end]`, as written, nearest first, within its clause."""
    found = []
    for m in pattern.finditer(text, max(0, begin - 4 * _BESIDE), min(len(text), end + 4 * _BESIDE)):
        lo, hi = (m.end(), begin) if m.end() <= begin else (end, m.start()) if m.start() >= end else (0, -1)
        if hi < lo:
            continue
        gap = _BRACKETS.sub("", text[lo:hi])
        if len(gap) > _BESIDE or _BREAK.search(gap) or any(lo <= k0 and k1 <= hi for k0, k1 in keys):
            continue  # too far, parted by a clause word, or another key between them
        if m.end() <= begin and any(_JOINER.fullmatch(text, n.end(), m.start())
                                    for n in pattern.finditer(text, max(0, m.start() - _BESIDE), m.start())):
            continue  # "郑伟和郑晓雨的 32A、32B", "Ann, Bo: B-1, B-2": names listed together, keys in their order
        found.append((hi - lo, m.group(0)))
    return [n for _, n in sorted(found)]
