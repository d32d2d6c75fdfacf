"""Payment methods an answer names as where money went or came from (card, store credit, 原路)."""

from __future__ import annotations

from collections.abc import Sequence

from factcheck.extractors.mentions import Mention
from factcheck.lexicon import Lexicon
from factcheck.phrases import Hit, window_before
from factcheck.report import FactKind

_CUE_WORDS = 3
"""How many words before a Latin method word a cue may stand (`back to your card`)."""
_CUE_CHARS = 4
"""How many characters before a CJK method word a cue may stand (`退回到您的微信支付`)."""


class MethodExtractor:
    """Find payment-method words that follow a cue (`to`, `as`, `到`) or precede one (`原路退回`)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex

    def extract(self, text: str, skip: Sequence[tuple[int, int]] = ()) -> list[Mention]:
        """Payment methods in an answer sentence, in order.

        Args:
            text: An answer sentence.
            skip: Spans (links, identifiers, quoted titles) whose words are not methods.

        Returns:
            Mentions of kind `method` whose value is the method's category (`card`, `original`).
        """
        lex = self.lex
        out = []
        for hit in lex.payment_methods.finditer(text):
            if hit.overlaps(skip) or not self._cued(text, hit):
                continue
            out.append(Mention(FactKind.METHOD, hit.start, hit.end, lex.payment_method_of[hit.key]))
        return out

    def _cued(self, text: str, hit: Hit) -> bool:
        """Whether the method word is said as a destination or a means, not just named."""
        if self.lex.payment_method_cues_after.match_at(text, hit.end):
            return True
        window = window_before(text[max(0, hit.start - 40) : hit.start], _CUE_WORDS, _CUE_CHARS)
        return bool(window) and self.lex.payment_method_cues.search(window)
