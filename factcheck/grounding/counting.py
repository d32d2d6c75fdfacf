"""Counts an answer states: list lengths, and the items of a list that share a value the claim names."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal

from factcheck.grounding.evidence import EvidenceIndex, Leaf
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
            if count == claimed and _names_value(index, value, lowered, said):
                return leaf, key, value
    return None


def _names_value(index: EvidenceIndex, value: str, claim: str, said: set[tuple[str | None, str]]) -> bool:
    """Whether the claim names a field value: holds it, or states a status it agrees with.

    A status of no concept on either side ("went through", `open`) agrees by its polarity alone.
    """
    key = term_key(value)
    if len(key) > 1 and re.search(r"(?<![a-z0-9])" + re.escape(key) + r"(?![a-z0-9])", claim):
        return True  # the value itself, as a word of its own ("可用", not the "a" inside "payouts")
    return any(
        (s.concept == concept or s.concept is None or concept is None) and s.polarity in AGREES[polarity]
        for s in index.statuses_of(value) for concept, polarity in said
    )


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
