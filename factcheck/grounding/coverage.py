"""Coverage: "none of your orders…", "all four containers…" said when the run read only some of them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex

EN_ALL = re.compile(
    r"(?i)\b(?:none|all|every|neither)(?:\s+of)?\s+(?:your|the|these|those|my|our)?\s*"
    r"(?:\d+\s+|two\s+|three\s+|four\s+|five\s+|six\s+|seven\s+|eight\s+|nine\s+|ten\s+)?([a-z]{3,})"
)
"""A claim about every member of a collection, in English: the quantifier and the collection's noun ("each order"
and "any order" are left out: they open rules and plans, "each order's status will change")."""
_EN_QUANTIFIERS = ("none", "all", "every", "neither")
"""The words `EN_ALL` opens with: a claim without one of them, lower-cased, is not searched (but see İ, ı)."""
ZH_ALL = re.compile(r"(?<![首成京古帝])都(?!市)|均|全部|所有|每个|任何一个|没有一个")
"""The same in Chinese: the noun before 都/均 (您的 3 个号码都没有开通), anywhere for the others (所有订单)."""
_ZH_AFTER_NOUN = ("都", "均")
"""Chinese quantifiers that follow the collection they speak of (您的 3 个号码都没有开通)."""
_ZH_NOUN_REACH = 12
"""How far before 都/均 their collection's noun may stand."""
_MEMBER = re.compile(r"(?=.*\d)[\w#*\-]{4,}")
"""A member's id: four or more word characters with a digit (#W1029384, MSCU4471203, 139****0871)."""
_ID_FIELDS = ("id", "number", "order_id", "code", "name")


def _members(value: Any) -> list[str] | None:
    """The ids of a collection: a list of id strings, or of records with an id field."""
    if not isinstance(value, list) or len(value) < 2:
        return None
    if all(isinstance(v, str) and _MEMBER.fullmatch(v) for v in value):
        return list(value)
    if all(isinstance(v, dict) for v in value):
        for field in _ID_FIELDS:
            ids = [v.get(field) for v in value]
            if all(isinstance(i, str) and len(i) >= 3 for i in ids) and len(set(ids)) == len(ids):
                return ids  # records keyed by a field: any distinct names (web-frontend, data-pipeline)
    return None


def _collections(index: EvidenceIndex) -> list[tuple[int, str, list[str]]]:
    """(call, field, member ids) of each top-level collection a tool output lists."""
    found = []
    for i in range(len(index.calls)):
        output = index.flats[i].value
        if isinstance(output, dict):
            for field, value in output.items():
                members = _members(value)
                if members is not None:
                    found.append((i, str(field), members))
    return found


def _names(field: str, words: dict[str, list[str]]) -> set[str]:
    """The words that name a collection field: the field, its singular, and the lexicon's words for it."""
    low = field.lower()
    return {low, low.rstrip("s"), *(w.lower() for w in words.get(low, ()))}


def incomplete_coverage(facts: list[Fact], text: str, start: int, index: EvidenceIndex) -> None:
    """Add a flagged coverage fact to a claim about every member of a collection some of which no call read.

    "None of your orders contain a blender" after `get_user_details` listed four orders and only two
    were opened: nothing backs what the claim says of the other two.

    Args:
        facts: The claim's facts (a coverage fact is appended).
        text: The claim's text.
        start: Where it starts in the answer.
        index: The run's evidence.
    """
    lex = index.lex
    low = text.lower()
    # the pattern's quantifier written in any case lower-cases to one of these; besides ASCII letters only İ and ı
    # match one of its letters case-blind (the i of neither)
    quantified = any(word in low for word in _EN_QUANTIFIERS) or not text.isascii() and ("İ" in text or "ı" in text)
    if not quantified and text.isascii():
        return
    said = [(m.start(), m.end(), m[1].lower()) for m in EN_ALL.finditer(text)] if quantified else []
    if not said and text.isascii():
        return
    zh = None if said else ZH_ALL.search(text)
    if not said and zh is None:
        return
    for call, field, members in _collections(index):
        names = _names(field, lex.collection_words)
        if said:
            hit = next(((a, b) for a, b, noun in said if noun in names or noun.rstrip("s") in names), None)
        elif zh[0] in _ZH_AFTER_NOUN:  # 都/均 follow their collection ("4 个预订都没有"; 滨江都会酒店 is a name)
            before = low[max(0, zh.start() - _ZH_NOUN_REACH) : zh.start()]
            hit = (zh.start(), zh.end()) if any(n in before for n in names if not n.isascii()) else None
        else:
            hit = (zh.start(), zh.end()) if any(_said(low, n) for n in names) else None
        if hit is None:
            continue
        read = {m for m in members if any(_mentions(index, j, m) for j in range(len(index.calls)) if j != call)}
        unread = [m for m in members if m not in read]
        if not read or not unread:
            continue  # none of them opened (a claim from the list itself) or all of them
        at = f"{field}[{members.index(unread[0])}]"
        leaf = index.leaf_at(call, at) or next(
            (found for key in _ID_FIELDS if (found := index.leaf_at(call, f"{at}.{key}")) is not None), None)
        fact = Fact(kind=FactKind.COVERAGE, text=text[hit[0] : hit[1]], start=start + hit[0], end=start + hit[1],
                    value=field)
        set_verdict(fact, Verdict.UNSUPPORTED, "incomplete_coverage",
                    f"the claim speaks of all {len(members)} {field}; the run read {len(read)} of them, "
                    f"not {', '.join(unread[:3])}", [evidence_of(leaf, index)] if leaf is not None else [])
        facts.append(fact)
        return


def _said(text: str, name: str) -> bool:
    """Whether a collection's name stands in the text (a Latin one as a whole word)."""
    return name in text if not name.isascii() else re.search(rf"\b{re.escape(name)}\b", text) is not None


def _mentions(index: EvidenceIndex, call: int, member: str) -> bool:
    """Whether a call ran with the member as an argument, or returned its record."""
    record = index.calls[call]
    args = record.args if isinstance(record.args, dict) else {}
    return any(isinstance(v, str) and v.strip() == member for v in args.values()) or member.lower().lstrip(
        "#") in index.record_keys(call)
