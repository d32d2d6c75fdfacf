"""What a claim does: assert a fact, report an action, offer or ask, state a policy, or restate the request."""

from __future__ import annotations

import re

from factcheck.lexicon import Lexicon
from factcheck.phrases import AGENT_DOER, MARKER_REACH, marked_done
from factcheck.report import Fact, FactKind, SpeechAct

EXACT_KINDS = frozenset(
    {FactKind.IDENTIFIER, FactKind.URL, FactKind.EMAIL, FactKind.NUMBER, FactKind.DATE, FactKind.TIME}
)
"""The facts a claim that asserts nothing keeps: exact values, which are false wherever they stand."""

_LEAD = re.compile(r"[\s>•*#_\-–—]*(?:\d{1,2}[.)、]\s*)?(?:\*\*|__)?[\s*_]*")
"""Markdown before a claim's first word: list markers, a heading, a number, bold."""
_OPTION_LETTER = re.compile(r"[a-h][.)]\s+")
"""An option's letter before its first word ("b) Cancel the entire order")."""
_NOT_AN_OBJECT = re.compile(r"\s*(?:[:：(]|\w+ed\b)")
"""What follows a noun, not an imperative verb ("Refund: $20", "Return requested", "Update (pending)")."""
_REASON = re.compile(r"(?i)(?:,\s*|\s)(?:since|because)\s|[，,]?\s*(?:因为|由于)")
"""A word that opens a reason clause after a comma or a space ("…, since gift-card refunds are only allowed", 因为)."""
_QUESTION_END = re.compile(r"[?？][\s*_)）」\"”]*$")
_PREMISE_BREAK = re.compile(r"[,，;；]|\s(?:so|which|and|therefore)\s|\s[-–—]\s")
"""What ends a premise before a rule or an offer ("#W1 is pending, so it can be cancelled", 已签收，只能退货)."""


class SpeechActClassifier:
    """Classify claims by the lexicon's speech-act words (`offer_openers`, `policy_markers`, ...)."""

    def __init__(self, lex: Lexicon) -> None:
        acts = lex.speech_acts
        self.assertion_openers = acts["assertion_openers"]
        self.offer_openers = acts["offer_openers"]
        self.offer_markers = acts["offer_markers"]
        self.policy_markers = acts["policy_markers"]
        self.request_openers = acts["request_openers"]
        self.imperative_openers = acts["imperative_openers"]
        self.record_states = lex.record_state_words

    def classify(self, text: str, facts: list[Fact], start: int = 0) -> SpeechAct:
        """The speech act of one claim.

        Args:
            text: The claim's text.
            facts: Its extracted facts (an action fact of positive polarity makes an assertion an action).
            start: Where the claim starts in the answer (the facts' offsets are the answer's).

        Returns:
            The act. Words at the claim's opening decide first (an assertion opener such as
            "please note" keeps it an assertion), then a question mark at its end, then markers anywhere.
        """
        at = _LEAD.match(text).end()
        if not self.assertion_openers.match_at(text, at):
            if (opening := self._opening_act(text, at)) is not None:
                return opening
            if self.offer_markers.search(text):
                return SpeechAct.OFFER
            policy = self.policy_markers.finditer(text)
            if policy and not self._done_before(text, facts, start, policy[0].start) \
                    and not self._agent_did(text, facts, start) and not self._said_before_reason(text, facts, start,
                                                                                                policy[0].start):
                return SpeechAct.POLICY
        if any(f.kind == FactKind.ACTION and f.polarity == "positive" for f in facts):
            return SpeechAct.ACTION
        return SpeechAct.ASSERTION

    def premises(self, text: str, facts: list[Fact], start: int = 0) -> list[Fact]:
        """The record states a rule or an offer rests on, said in a clause of their own before its first marker
        ("Your order #W1 is pending, so it can be cancelled", 订单已签收，只能申请退货): the claim asserts them.

        Args:
            text: The claim's text (a rule or an offer by its markers, not a question).
            facts: Its extracted facts.
            start: Where the claim starts in the answer.

        Returns:
            The status facts that state one record state, each ending before a clause break that comes
            before the first marker; none when the claim opens as an offer or a request, or asks.
        """
        if self._opening_act(text, _LEAD.match(text).end()) is not None:
            return []
        markers = self.offer_markers.finditer(text) + self.policy_markers.finditer(text)
        if not markers:
            return []
        marker = min(m.start for m in markers)
        return [f for f in facts if f.kind == FactKind.STATUS and f.end - start <= marker
                and len(self.record_states.finditer(text, f.start - start, f.end - start)) == 1
                and _PREMISE_BREAK.search(text, f.end - start, marker) is not None]

    def _opening_act(self, text: str, at: int) -> SpeechAct | None:
        """The act the claim's opening (at `at`) or a question mark at its end makes it: a request or instruction
        ("you'd like to", "Cancel the entire order"), an offer or a question; None when neither decides."""
        if self.request_openers.match_at(text, at) or self._instruction(text, at):
            return SpeechAct.REQUEST
        if _QUESTION_END.search(text) or self.offer_openers.match_at(text, at):
            return SpeechAct.OFFER
        return None

    @staticmethod
    def _done_before(text: str, facts: list[Fact], start: int, at: int) -> bool:
        """Whether a status or action said done, with a completion marker or the agent as its doer just before it
        or in it, ends before `at`, an offset in the claim `text` that starts at `start` in the answer ("已为您成功取消
        订单 HX2P9L，…一般 5–7 个工作日到账"): the claim reports what was done; the rule after it makes it no policy."""
        return any(f.kind in (FactKind.ACTION, FactKind.STATUS) and f.polarity == "positive" and f.end - start <= at
                   and marked_done(text, f.start - start, len(f.text), doer=True)  # its own marker, not a past one
                   for f in facts)

    @staticmethod
    def _said_before_reason(text: str, facts: list[Fact], start: int, at: int) -> bool:
        """Whether the rule at `at` stands in a reason clause ("since …", "because …", 因为 …) after an action said
        done ("#W3307942: cancelled; the refund will go to your card, since gift-card refunds are only allowed
        for …"): the rule is the reason, the claim reports the state."""
        reason = None
        for m in _REASON.finditer(text, 0, at):
            reason = m
        return reason is not None and any(
            f.kind == FactKind.ACTION and f.polarity == "positive" and f.end - start <= reason.start()
            for f in facts)

    @staticmethod
    def _agent_did(text: str, facts: list[Fact], start: int) -> bool:
        """Whether the claim says the agent did an action, anywhere in it ("… is eligible for a refund, so I've
        refunded $7.48"): the rule beside it is the reason, the claim reports what was done."""
        return any(f.kind == FactKind.ACTION and f.polarity == "positive"
                   and AGENT_DOER.search(text, max(0, f.start - start - MARKER_REACH), f.end - start) is not None
                   for f in facts)

    def _instruction(self, text: str, at: int) -> bool:
        """Whether the claim opens with a bare verb ("Cancel the entire pending order", "Update the shipping
        address to …"): a step or an option put to the user, not something done."""
        if m := _OPTION_LETTER.match(text, at):
            at = m.end()
        if not self.imperative_openers.match_at(text, at):
            return False
        end = self.imperative_openers.finditer(text, at, at + 40)[0].end
        return text[end : end + 1].isspace() and _NOT_AN_OBJECT.match(text, end) is None
