"""What a claim does: assert a fact, report an action, offer or ask, state a policy, or restate the request."""

from __future__ import annotations

import re

from factcheck.lexicon import Lexicon
from factcheck.report import Fact, FactKind, SpeechAct

EXACT_KINDS = frozenset(
    {FactKind.IDENTIFIER, FactKind.URL, FactKind.EMAIL, FactKind.NUMBER, FactKind.DATE, FactKind.TIME}
)
"""The facts a claim that asserts nothing keeps: exact values, which are false wherever they stand."""

_LEAD = re.compile(r"[\s>•*#_\-–—]*(?:\d{1,2}[.)、]\s*)?(?:\*\*|__)?[\s*_]*")
"""Markdown before a claim's first word: list markers, a heading, a number, bold."""
_QUESTION_END = re.compile(r"[?？][\s*_)）」\"”]*$")


class SpeechActClassifier:
    """Classify claims by the lexicon's speech-act words (`offer_openers`, `policy_markers`, ...)."""

    def __init__(self, lex: Lexicon) -> None:
        acts = lex.speech_acts
        self.assertion_openers = acts["assertion_openers"]
        self.offer_openers = acts["offer_openers"]
        self.offer_markers = acts["offer_markers"]
        self.policy_markers = acts["policy_markers"]
        self.request_openers = acts["request_openers"]

    def classify(self, text: str, facts: list[Fact]) -> SpeechAct:
        """The speech act of one claim.

        Args:
            text: The claim's text.
            facts: Its extracted facts (an action fact of positive polarity makes an assertion an action).

        Returns:
            The act. Words at the claim's opening decide first (an assertion opener such as
            "please note" keeps it an assertion), then a question mark at its end, then markers anywhere.
        """
        at = _LEAD.match(text).end()
        if not self.assertion_openers.match_at(text, at):
            if self.request_openers.match_at(text, at):
                return SpeechAct.REQUEST
            if _QUESTION_END.search(text) or self.offer_openers.match_at(text, at):
                return SpeechAct.OFFER
            if self.offer_markers.search(text):
                return SpeechAct.OFFER
            if self.policy_markers.search(text):
                return SpeechAct.POLICY
        if any(f.kind == FactKind.ACTION and f.polarity == "positive" for f in facts):
            return SpeechAct.ACTION
        return SpeechAct.ASSERTION
