"""Category values an answer states: a membership tier, a plan (Gold member, 会员等级是铂金)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from factcheck.extractors.mentions import Mention
from factcheck.extractors.status import clause_start
from factcheck.lexicon import Lexicon
from factcheck.phrases import Hit, window_before
from factcheck.report import FactKind

# What may stand between a value and its field word after it: white space or a hyphen ("Gold member", "黄金会员").
_BEFORE_FIELD = re.compile(r"[\s\-]*")
# What may be left between a field word and its value once the link words are out ("tier is now: Gold").
_LINK_REST = re.compile(r"[\s:：]*")
_REACH = 24
"""How many characters before a value its field word may stand (`membership tier is now Gold`)."""
_OWNER_WORDS = 3
"""How many words before a value said before its field word an owner word may stand (`you are now a`)."""
_OWNER_CHARS = 4
"""How many characters before such a CJK value an owner word may stand (`您目前是`)."""


class CategoryExtractor:
    """Find category values said of their field: right before a field word, or after one and link words."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex

    def extract(self, text: str, skip: Sequence[tuple[int, int]] = ()) -> list[Mention]:
        """Category values in an answer sentence, in order.

        Args:
            text: An answer sentence.
            skip: Spans (links, identifiers, quoted titles) whose words are not values.

        Returns:
            Mentions of kind `category` whose value is `category:value` (`tier:gold`).
        """
        lex = self.lex
        out = []
        for hit in lex.category_values.finditer(text):
            if hit.overlaps(skip) or self._hedged(text, hit):
                continue
            category, value = lex.category_of_value[hit.key]
            if self._said_of_field(text, hit, category):
                out.append(Mention(FactKind.CATEGORY, hit.start, hit.end, f"{category}:{value}"))
        return out

    def _hedged(self, text: str, hit: Hit) -> bool:
        """Whether a hedge stands before the value in its clause ("就可以升级为铂金会员", "if you reach Gold")."""
        return self.lex.hedged(text, clause_start(text, hit.start), hit.start)

    def _said_of_field(self, text: str, hit: Hit, category: str) -> bool:
        """Whether a value is said of the user's own field ("your tier is Gold"), not of a goal or another."""
        fields = self.lex.category_fields[category]
        after = [f for f in fields.finditer(text, hit.end, min(len(text), hit.end + _REACH)) if f.start >= hit.end]
        if after and _BEFORE_FIELD.fullmatch(text, hit.end, after[0].start):
            # "you are a Gold member", "您目前是黄金会员"; not "to reach Gold tier", "升级铂金会员", "not a Gold member"
            window = window_before(text[max(0, hit.start - 40) : hit.start], _OWNER_WORDS, _OWNER_CHARS)
            return self.lex.category_owners.search(window) and not self.lex.negators.search(window)
        before = [f for f in fields.finditer(text, max(0, hit.start - _REACH), hit.start) if f.end <= hit.start]
        if not before:
            return False
        gap = text[before[-1].end : hit.start]
        for link in reversed(self.lex.category_links.finditer(gap)):
            gap = gap[: link.start] + " " * (link.end - link.start) + gap[link.end :]
        return bool(_LINK_REST.fullmatch(gap))
