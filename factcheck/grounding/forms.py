"""Values a tool writes in another form than the answer: numbers in words, identifiers one edit off."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING

from rapidfuzz import process
from rapidfuzz.distance import OSA

from factcheck.grounding.arithmetic import equal_at
from factcheck.report import FactKind

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Leaf, Located

WORDED_CHARS = 2000
"""Longest tool string read for numbers written in words."""
NEAR_CHARS = 2_000_000
"""Most characters of tool text read for identifiers one edit from a claimed one."""
_ID_TOKEN = re.compile(r"[a-z0-9][a-z0-9_-]*\d[a-z0-9_-]*")
"""An identifier-like token of lower-cased tool text (letters, digits, `_`, `-`; a digit in it)."""
_DIGIT = re.compile(r"\d")


class OtherForms:
    """One run's tool values in other forms, each read once, when a check first needs it."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self._worded: list[Located] | None = None
        self._near: dict[int, list[str]] | None = None

    def word_numbers(self, targets: list[tuple[Decimal, int]]) -> list[Located]:
        """Numbers a tool writes in words, equal to a target: "有三名成年人", "three adults", "五年三个月".

        Read only when nothing else gave the claimed number, from strings of at most
        `WORDED_CHARS` characters (descriptions and replies, not logs).

        Args:
            targets: (value, exponent of the last written digit) pairs.

        Returns:
            The numbers in words equal to a target, in string order.
        """
        if self._worded is None:
            from factcheck.grounding.evidence import Located

            index, self._worded = self.index, []
            for entry, text in enumerate(index.strings.texts):
                if len(text) > WORDED_CHARS or text.isdigit():
                    continue
                leaf = None
                for mention in index.mentions.extract(text, words=True):
                    if mention.kind == FactKind.NUMBER and not _DIGIT.search(text, mention.start, mention.end):
                        leaf = leaf or index.string_leaf(entry)
                        self._worded.append(Located(mention, leaf))
        return [loc for loc in self._worded if any(equal_at(Decimal(loc.mention.value), t, e) for t, e in targets)]

    def near_token(self, value: str) -> tuple[str, Leaf] | None:
        """A tool's identifier one edit from `value` (lower case): a digit changed, or two swapped.

        RMA-730118 of a claimed RMA-730181, 88231 of 88321. Read from outputs of at most
        `NEAR_CHARS` characters; JSON integers of five digits or more count too.

        Args:
            value: The claimed identifier, normalised (lower case).

        Returns:
            The tool's token as written and the value holding it; None when there is none or
            `value` is shorter than 5 or holds no digit.
        """
        if len(value) < 5 or not _DIGIT.search(value):
            return None
        index = self.index
        if self._near is None:
            self._near = {}
            if len(index.strings.lower) <= NEAR_CHARS:
                tokens = set(_ID_TOKEN.findall(index.strings.lower))
                for flat in index.flats:
                    for values, _, _ in flat.numbers.values():
                        tokens.update(str(v) for v in values if isinstance(v, int) and abs(v) >= 10_000)
                for token in tokens:
                    self._near.setdefault(len(token), []).append(token)
                for group in self._near.values():
                    group.sort()  # the first of equally near tokens is the same on every run
        candidates = [t for n in (len(value) - 1, len(value), len(value) + 1) for t in self._near.get(n, ())]
        found = process.extractOne(value, candidates, scorer=OSA.distance, processor=None, score_cutoff=1)
        leaf = None if found is None or found[0] == value else index.find_token(found[0])
        if leaf is None:
            return None
        at = leaf.text.lower().find(found[0])
        return (leaf.text[at : at + len(found[0])] if at >= 0 else found[0]), leaf
