"""Which item of a tool's list a claim names: by a word of its strings, or by its position in a path."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

LIST_ITEM = re.compile(r"(.*)\[(\d+)\]\.")
"""The innermost list item a field sits in: `orders[1].items[0].sku` -> (`orders[1].items`, `0`)."""
# A word that names a record: Latin letters and digits with a letter, three or more; a CJK run of two or more.
_NAME_WORD = re.compile(r"(?=[a-z0-9]*[a-z])[a-z0-9]{3,}|[\u3400-\u9fff]{2,}")
WORD_NAMED_RECORDS = 20
"""Longest list whose items a claim's words may name (the rows an answer lists; reading words is per item)."""


def record_words(record: dict) -> set[str]:
    """The words of a record's strings that can name it (see `names_record`)."""
    return {w for v in record.values() if isinstance(v, str) for w in _NAME_WORD.findall(v.lower())}


def distinct_words(records: Any) -> list[set[str]]:
    """For each item of a list of records, the words no other item has.

    A list longer than `WORD_NAMED_RECORDS` (or anything not a list) gives none: an
    answer names the rows of a short list, not of a long output.
    """
    if not isinstance(records, list) or len(records) > WORD_NAMED_RECORDS:
        return []
    words = [record_words(r) if isinstance(r, dict) else set() for r in records]
    counts = Counter(w for own in words for w in own)
    return [{w for w in own if counts[w] == 1} for own in words]


def names_record(claim: str, other: dict, own: dict, field: str) -> bool:
    """Whether a claim (lower case) names a record by a word of one of its strings.

    The word is a Latin word of three letters or more, or a CJK run of two characters or
    more ("中性笔" of "中性笔 (12支装)"), of a field other than `field`, and not also in
    the record it is told apart from.
    """
    own_words = record_words(own)
    return any(
        word in claim
        for k, v in other.items() if k != field and isinstance(v, str)
        for word in _NAME_WORD.findall(v.lower()) if word not in own_words
    )
