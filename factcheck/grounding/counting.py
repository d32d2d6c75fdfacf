"""Counts an answer states: list lengths, the items of a list that share a value the claim names, and the items
that meet a threshold the claim states ("3 名加班超过 10 小时")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind

AGREES = {
    "positive": {"positive"},
    "negative": {"negative", "pending"},
    "pending": {"pending"},
}
"""Which evidence polarities agree with a claimed one ("not shipped" is true of "pending")."""
FILTERED_LIST_ITEMS = 50
"""Longest list whose items are counted by a shared value (the rows an answer summarises)."""


def filtered_count(
    index: EvidenceIndex, claimed: Decimal, claim: str, facts: list[Fact]
) -> tuple[Leaf, str, str] | None:
    """A list whose items sharing one field value number `claimed`, where the claim names that value.

    "有两笔还没发货" counts the orders whose `status` is 待发货 (shipping pending, which "not
    shipped" agrees with); "两张可用的优惠券" counts the coupons whose `status` is 可用 (the
    claim holds the value itself).

    Args:
        index: The run's evidence.
        claimed: The count the claim states.
        claim: The claim's text.
        facts: The claim's facts (its statuses are compared with the values' statuses).

    Returns:
        (leaf of the list, field, value) of the first such list, or None.
    """
    if claimed != claimed.to_integral_value() or claimed < 1:
        return None
    said = {(f.concept, f.polarity) for f in facts if f.kind in (FactKind.STATUS, FactKind.ACTION) and f.polarity}
    lowered = term_key(claim)
    for length, leaf in index.list_counts:
        if leaf.path.startswith("args") or not claimed < length <= FILTERED_LIST_ITEMS:
            continue
        records = index.value_at(leaf.index, "" if leaf.path == "$" else leaf.path)
        if not isinstance(records, list):
            continue
        shared = Counter(
            (key, value) for r in records if isinstance(r, dict)
            for key, value in r.items() if isinstance(value, str) and value.strip()
        )
        for (key, value), count in shared.items():
            if count == claimed and names_value(index, value, lowered, said):
                return leaf, key, value
    return None


def names_value(
    index: EvidenceIndex, value: str, claim: str, said: set[tuple[str | None, str]], strict: bool = False
) -> bool:
    """Whether the claim names a field value: holds it, or states a status it agrees with (`strict`: of the
    same polarity; "not shipped" is then no count of pending orders).

    A status of no concept on either side ("went through", `open`) agrees by its polarity alone.
    """
    key = term_key(value)
    if len(key) > 1 and re.search(r"(?<![a-z0-9])" + re.escape(key) + r"(?![a-z0-9])", claim):
        return True  # the value itself, as a word of its own ("可用", not the "a" inside "payouts")
    return any(
        (s.concept == concept or s.concept is None or concept is None)
        and (s.polarity == polarity if strict else s.polarity in AGREES[polarity])
        for s in index.statuses_of(value) for concept, polarity in said
    )


def record_lists(index: EvidenceIndex) -> Iterator[tuple[Leaf, list[dict]]]:
    """Each list of two to `FILTERED_LIST_ITEMS` records in the tools' outputs (not their arguments), with its
    records: the rows a count or a total of the answer may run over."""
    for length, leaf in index.list_counts:
        if leaf.path.startswith("args") or not 1 < length <= FILTERED_LIST_ITEMS:
            continue
        records = index.value_at(leaf.index, "" if leaf.path == "$" else leaf.path)
        if isinstance(records, list) and all(isinstance(r, dict) for r in records):
            yield leaf, records


def available_count(index: EvidenceIndex, leaf: Leaf, claim: str) -> tuple[int, int] | None:
    """How many of a list's items can be taken, and its length, when the claim counts options that can be
    ("目前有 3 班可以订"; lexicon `available_words`) and some of the list's cannot.

    Args:
        index: The run's evidence.
        leaf: The list whose length is the count said.
        claim: The claim's text.

    Returns:
        (items that can be taken, items in the list), or None.
    """
    if not index.lex.available_words.search(claim):
        return None
    records = index.value_at(leaf.index, "" if leaf.path == "$" else leaf.path)
    if not isinstance(records, list) or not 1 < len(records) <= FILTERED_LIST_ITEMS:
        return None
    if not all(isinstance(r, dict) for r in records):
        return None
    can = sum(_available(index, r) for r in records)
    return (can, len(records)) if can != len(records) else None


def _available(index: EvidenceIndex, record: dict) -> bool:
    """Whether a listed option can be taken: no status saying it cannot, nothing at zero that says how many
    are left, and not `available: false`."""
    for key, value in record.items():
        name = key.lower()
        if isinstance(value, bool):
            if not value and "avail" in name:
                return False
        elif isinstance(value, int | float):
            if value == 0 and any(w in name for w in ("seat", "stock", "left", "avail", "remaining", "qty")):
                return False
        elif isinstance(value, dict):
            if value and all(isinstance(v, int | float) and v == 0 for v in value.values()) and any(
                w in name for w in ("seat", "stock", "avail")
            ):
                return False
        elif isinstance(value, str) and any(
            s.polarity == "negative" for s in index.statuses_of(value)
        ) and any(w in name for w in ("status", "state", "avail")):
            return False
    return True


_CLAUSE_BREAK = re.compile(r"[,，;；。:：]|\band\b")
"""What ends the clause a threshold and its count share."""
_COMPARE = {
    "gt": lambda v, t: v > t, "ge": lambda v, t: v >= t, "lt": lambda v, t: v < t, "le": lambda v, t: v <= t,
}
_SIGN = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤"}


def threshold_count(
    index: EvidenceIndex, fact: Fact, facts: list[Fact], claim: str, start: int
) -> tuple[int, str, Leaf] | None:
    """How many items of a listed record set meet the threshold the claim counts by ("加班超过 10 小时的员工共
    3 名", "2 flights over $500"), when one list field alone is the threshold's measure.

    The threshold is a number right after a threshold word (lexicon `threshold_words`: more than, 超过; 以上
    after it); its measure is a list field of its unit (`overtime_hours` for 小时, an amount of money for $) or
    one the claim names. Only a count with a count noun is read, never the threshold itself.

    Args:
        index: The run's evidence.
        fact: A count of the claim.
        facts: The claim's facts.
        claim: The claim's text.
        start: The claim's offset in the answer.

    Returns:
        (how many items meet it, how, as a person reads it, the list), or None when the claim counts by no threshold
        or no single list field measures it.
    """
    lex = index.lex
    if not fact.value or not fact.unit or fact.unit in lex.unit_scales or fact.unit in lex.currency_codes:
        return None
    claimed = Decimal(fact.value)
    if claimed != claimed.to_integral_value():
        return None
    found = _threshold(lex, [f for f in facts if f is not fact and f.kind == FactKind.NUMBER and f.value], claim,
                       start)
    if found is None:
        return None
    way, limit = found
    lo, hi = sorted((fact.start, limit.start))
    if _CLAUSE_BREAK.search(claim, lo - start, hi - start):
        return None  # "6 人有加班记录，其中 3 人超过 10 小时": only the count of the threshold's own clause
    candidates = []
    for leaf, records in record_lists(index):
        if len(records) < claimed:
            continue
        for key in records[0]:
            values = [r.get(key) for r in records]
            if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                continue
            if _measures(lex, key, limit, claim):
                met = sum(_COMPARE[way](Decimal(str(v)), Decimal(limit.value or "0")) for v in values)
                candidates.append((met, f"{met} of {len(records)} items of {leaf.path or 'the list'} have "
                                        f"{key} {_SIGN[way]} {limit.value}", leaf))
    return candidates[0] if len(candidates) == 1 else None


def _threshold(lex: Lexicon, numbers: list[Fact], claim: str, start: int) -> tuple[str, Fact] | None:
    """The claim's threshold: (comparison, its number), from a threshold word right before a number or (以上,
    以下) right after it and its unit."""
    latin, other = _threshold_ends(lex)
    for number in numbers:
        before = claim[max(0, number.start - start - 14) : number.start - start].rstrip().lower()
        after = claim[number.end - start : number.end - start + 6].lstrip()
        if not (before.endswith(latin) or before.endswith(other) or after.startswith(other)):
            continue  # no threshold word at either side: not one of them is looked at
        for way, words in lex.threshold_words.items():
            for word in words:
                w = word.lower()
                if word.isascii() and _ends_with_word(before, w) or \
                        not word.isascii() and (before.endswith(w) or after.startswith(w)):
                    return way, number
    return None


_ENDS: list[Any] = [None, ((), ())]
"""The threshold words last read (a lexicon's `threshold_words`, held) and their `_threshold_ends`."""


def _threshold_ends(lex: Lexicon) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A lexicon's threshold words lower-cased, ASCII ones and the others (a quick look before `_threshold`
    reads them one by one), made once per lexicon."""
    words = lex.threshold_words
    if _ENDS[0] is not words:
        every = [w for ws in words.values() for w in ws]
        _ENDS[:] = [words, (tuple(w.lower() for w in every if w.isascii()),
                            tuple(w.lower() for w in every if not w.isascii()))]
    return _ENDS[1]


def _ends_with_word(text: str, word: str) -> bool:
    """Whether `text` ends with `word`, no letter a-z right before it (`over`, not `hover`).

    As `re.search(rf"(?<![a-z]){re.escape(word)}$", text)` reads a text without trailing white space, without
    a regex made for each word.
    """
    at = len(text) - len(word)
    return text.endswith(word) and not (at > 0 and "a" <= text[at - 1] <= "z")


def _measures(lex: Lexicon, key: str, limit: Fact, claim: str) -> bool:
    """Whether a list field is the threshold's measure: it names the threshold's unit (`overtime_hours` of 10
    小时), holds money for an amount, or is a field the claim names."""
    name = field_name(key)
    unit = (limit.unit or "").lower()
    if unit in lex.currency_codes:
        return bool(set(lex.fields_in(name)) & lex.money_labels)
    if unit in lex.unit_scales:
        dimension = lex.unit_scales[unit][0]
        return any(lex.unit_scales.get(w, ("",))[0] == dimension for w in name.split())
    return any(w in claim.lower() for w in name.split() if len(w) > 3)

