"""A record's state said of the record the answer names by its key ("#W1 is delivered"), against its status."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from factcheck.grounding.evidence import record_key
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex
    from factcheck.grounding.flat import Leaf
    from factcheck.grounding.naming import ClaimRecords

_STATE_KINDS = (FactKind.STATUS, FactKind.ACTION)
_PREDICATE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|been|remains?|still|currently|now|marked(?: as)?|shows?(?: as)?)"
    r"|\bstatus\b[^\n]{0,3}?(?:is)?)\s*[:：]?\s*(?:\*\*)?\s*[\"'“‘]?\s*$"
)
"""What stands right before a state said of the record: a copula or a status label ("is", "Status:**")."""
_KEY_BRACKET = re.compile(r"[#\w-]*\d[\w-]*\s*[(（]\s*$")
"""A record's key with a bracket opened right after it ("#W6729841 (delivered)"): the state is that record's."""
_STATUS_LABEL = re.compile(r"(?i)\bstatus\b|状态")
"""A status label ("Order status", 状态)."""
_DIGITS = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]")
_BRACKETED = re.compile(r"[(（][^()（）\n]{0,40}[)）]")
"""A qualifier in brackets ("delivered (item modified)"): its words say no other concept's state."""
_KEYS_BETWEEN = re.compile(r"(?i)(?:\s|\*|,|、|，|&|\band\b|和|及)*")
"""What may stand between two keys of a list of records ("#W1, #W2 and #W3")."""
_NOUN_BEFORE_KEY = re.compile(r"\s+[a-z]{3,}\s*[:：]?(?:\s|\*)*$")
"""A noun (and a label's colon) between a state and the first key after it ("Delivered orders: #W1")."""
_PLURAL_COPULA = re.compile(r"(?i)^(?:\s|\*|[,，)）])*(?:(?:both|all|each)\s+)?(?:are|were)\b")
"""What follows a list of keys when one state is said of all of them ("#W1 and #W2, are both delivered")."""
_NOUN_AFTER = re.compile(r"\s+(?!and\b|or\b|but\b|with\b|on\b|in\b|at\b|to\b|by\b|since\b|yet\b)[a-z]{3,}")
"""A lower-case word right after the state: it qualifies a noun ("pending orders", "delivered grill")."""


def ends_block(gap: str) -> bool:
    """Whether the text between two claims ends a block: a blank line, or a heading after it."""
    return "\n\n" in gap or gap.lstrip(" \t").startswith("#")


def _shape(key: str) -> str:
    """A key's shape, letters and digits folded ("w5199551" -> "a9999999"): keys of one kind of record share it."""
    return _LETTERS.sub("a", _DIGITS.sub("9", key))


class RecordStates:
    """The record an answer speaks of, claim after claim, and the states it says that record is in.

    A claim that names one record by its key ("order #W4689314") makes it the record in view; a
    claim that names none ("- **Status:** Pending", the next line of the same list) speaks of the
    record in view until a blank line ends the block.
    """

    def __init__(self, index: EvidenceIndex, records: ClaimRecords) -> None:
        self.index = index
        self._records = records
        """The claim's records, reset by the matcher for each claim: their clauses are this module's too."""
        self._in_view: str | None = None
        self._start = 0
        self._status_cache: dict[str, tuple[Leaf, set[str]] | None] = {}
        """Record key -> `_status_of` it (the run's records do not change from claim to claim)."""
        self._named: set[str] = set()
        """The shapes of the identifiers named since the last blank line (`_shape`)."""
        self._acted: frozenset[str] | None | bool = False
        """The keys of the record the last successful write returned (`_acted_on`); False until asked."""
        self._latest: dict[str, int] | None = None
        """Record key -> the last successful call whose output is that record (made when first asked)."""

    def next_claim(self, facts: list[Fact], text: str, start: int, gap: str) -> None:
        """Read one claim (after grounding its facts).

        Args:
            facts: The claim's facts.
            text: The claim's text.
            start: Where it starts in the answer.
            gap: The answer's text since the previous claim.
        """
        self._start = start
        if ends_block(gap):
            self._in_view, self._named = None, set()
        ids = [f for f in facts if f.kind == FactKind.IDENTIFIER]
        self._named.update(_shape(record_key(f.value or f.text)) for f in ids)
        if not ids and self._in_view is None and not any(f.kind in _STATE_KINDS for f in facts):
            return  # no record named, none in view, no state said
        keys = {record_key(f.value or f.text) for f in ids if f.verdict == Verdict.SUPPORTED} if ids else set()
        keys = {k for k in keys if self._latest_with(k) is not None} if keys else keys
        if not keys and any(f.verdict.flagged for f in ids):
            self._in_view = None  # a record no tool returned ("#W7818237"): its state is not the one in view
            return
        if len(keys) > 1:
            self._in_view = None  # a claim about several records: its words are not one record's
            self._of_several(facts, text, ids, keys)
            return
        if keys:
            self._in_view = next(iter(keys))
        acted = self._in_view is None  # then only a state said under a status label is that record's
        view = self._acted_on() if acted else self._in_view
        if view is None:
            return
        status = self._status(view)
        if status is None:
            return
        concepts = self.index.lex.record_state_concepts
        for fact in facts:
            # the keyed record's own status speaks before any other evidence, but not over a call that failed;
            # a state of another concept than the record's is not compared (`_compare`), so not read either
            if fact.kind in _STATE_KINDS and fact.code != "tool_error" and self._concept(fact) in concepts \
                    and self._predicated(fact, text) and (not acted or self._labelled(fact, text)):
                self._compare(fact, status)

    def _predicated(self, fact: Fact, text: str) -> bool:
        """Whether the claim says the record is in the state now: after a copula or a status label ("is
        delivered", "Status: Pending", 已签收), not of another concept ("Refund … processed"), not ahead
        ("set to be shipped", "when it flips to delivered") and not before a noun ("pending orders")."""
        lex = self.index.lex
        at = max(0, fact.start - self._start)
        hits = lex.record_state_words.finditer(text, at, at + len(fact.text))  # cheaper than the clause: first
        if len(hits) != 1:
            return False
        begin, end = self._records.clause(fact)  # its concept words are those of the state it says
        clause = _BRACKETED.sub(" ", text[begin - self._start : end - self._start].lower())  # "(item modified)"
        if not set(lex.concepts_in(clause)) <= lex.record_state_concepts:
            return False
        word = hits[0]
        if not word.key.isascii():
            return True  # 已签收, 待发货: a state said as such
        before, after = text[max(0, word.start - 24) : word.start], text[word.end : word.end + 12]
        if _KEY_BRACKET.search(before) is not None or self._before_key(fact, text, word.end) is not None:
            return True
        return _PREDICATE.search(before) is not None and _NOUN_AFTER.match(after) is None

    def _before_key(self, fact: Fact, text: str, end: int) -> int | None:
        """Where the first key stands when the state is said right before its record's noun and key ("Delivered
        order #W3561391", "Pending orders: #W1 and #W2"); None otherwise."""
        first = min((f.start - self._start for f in self._records.facts if f.kind == FactKind.IDENTIFIER
                     and f.start - self._start >= end), default=None)
        if first is None or first - end > 24 or _NOUN_BEFORE_KEY.match(text[end:first]) is None:
            return None
        return first

    def _of_several(self, facts: list[Fact], text: str, ids: list[Fact], keys: set[str]) -> None:
        """One state said of every record of a list of keys: before their noun ("Delivered orders: #W1 and
        #W2") or after them ("#W1 and #W2 are both delivered"); compared with each record's status."""
        lex = self.index.lex
        if len(lex.record_state_words.finditer(text)) != 1:
            return  # "#W1 is pending and #W2 delivered": each state its own record's
        places = sorted((f.start - self._start, f.end - self._start) for f in ids)
        if any(_KEYS_BETWEEN.fullmatch(text[a[1] : b[0]]) is None for a, b in zip(places, places[1:], strict=False)):
            return  # keys not in one list: "#W1 → new order #W2"
        for fact in facts:
            if fact.kind not in _STATE_KINDS or fact.code == "tool_error" or self._concept(fact) not in \
                    lex.record_state_concepts or not self._predicated(fact, text):
                continue
            at = fact.start - self._start
            after_keys = at >= places[-1][1] and _PLURAL_COPULA.match(text[places[-1][1] : at]) is not None
            if not after_keys and self._before_key(fact, text, at + len(fact.text)) != places[0][0]:
                continue
            statuses = [self._status(k) for k in sorted(keys)]
            if any(status is None for status in statuses):
                return
            said = lex.record_states_in(fact.text)
            # the first record not in the state said contradicts it; when every one is in it, the first backs it
            wrong = [st for st in statuses if st is not None and (said <= st[1]) == (fact.polarity == "negative")]
            first = wrong[0] if wrong else statuses[0]
            if first is not None:
                self._compare(fact, first)

    def _labelled(self, fact: Fact, text: str) -> bool:
        """Whether a status label stands right before the state ("The order status is now", "- Status:",
        订单状态为): it says one record's state, not which of several records are in it ("已批准：3 笔")."""
        at = max(0, fact.start - self._start)
        return _STATUS_LABEL.search(text, max(0, at - 24), at) is not None

    def _concept(self, fact: Fact) -> str | None:
        """The concept a state is said of: none when the fact is a state word alone ("it has been pending"),
        whatever concept the extractor carried over from the sentence before ("I found the order.")."""
        if self.index.lex.record_state_words.lookup(term_key(fact.text)) is not None:
            return None
        return fact.concept

    def _acted_on(self) -> str | None:
        """The record the run's last successful write returned ("The order status is now …" after the change,
        no key named since the last blank line): the record the answer reports on."""
        if self._acted is False:
            read_only = self.index.lex.read_only_tools
            writes = [c for c in self.index.calls if c.status == "ok" and not read_only.match(c.name or "")]
            keys = self.index.record_keys(writes[-1].index) if writes else frozenset()
            # its keys (`order_id`, `user_id`) all name it, as no later call's output does
            self._acted = keys if keys and all(self._latest_with(k) == writes[-1].index for k in keys) else None
        if not self._acted or any(_shape(k) in self._named for k in self._acted):
            return None  # "- Order: #W9373487 … - Status: pending": another record of its kind is named here
        return min(self._acted)

    def _latest_with(self, key: str) -> int | None:
        """The last call whose output is the record of this key."""
        if self._latest is None:  # each call's keys, in call order: a later call of a key replaces an earlier one
            self._latest = {k: c.index for c in self.index.calls if c.status == "ok"
                            for k in self.index.record_keys(c.index) or self._written_keys(c.index)}
        return self._latest.get(key)

    def _written_keys(self, call: int) -> frozenset[str]:
        """The keys a successful write's arguments give (`cancel_order(order_no=DD2025…)`) when its output states a
        record's state but names no record (`{"result": "success", "order_status": "已取消"}`): its state after the
        write, when it is the state the write's own concept brings about (cancel_order: cancelled). Another status
        (`status: rejected` of cancel_item) is the write's outcome, not the record's."""
        record = self.index.calls[call]
        output = self.index.flats[call].value
        if self.index.lex.read_only_tools.match(record.name or "") or not isinstance(output, dict):
            return frozenset()
        lex = self.index.lex
        if not any(isinstance(v, str) and lex.status_fields.search(field_name(str(f))) and lex.record_states_in(v)
                   and (term := lex.terms.get(term_key(v))) is not None and term.polarity == "positive"
                   and term.concept in record.concepts for f, v in output.items()):
            return frozenset()  # `status: rejected`, `status: approved`: the write's outcome, no state it brought
        return self.index.arg_keys(call)

    def _status(self, key: str) -> tuple[Leaf, set[str]] | None:
        """`_status_of` the record of this key, read once per check."""
        if key not in self._status_cache:
            self._status_cache[key] = self._status_of(key)
        return self._status_cache[key]

    def _status_of(self, key: str) -> tuple[Leaf, set[str]] | None:
        """The leaf of the record's status field and the states it names (and those they imply)."""
        call = self._latest_with(key)
        output = None if call is None else self.index.flats[call].value  # the parsed output
        if not isinstance(output, dict):
            return None
        lex = self.index.lex
        for field, value in output.items():
            if isinstance(value, str) and lex.status_fields.lookup(field_name(str(field))) is not None:
                states = lex.record_states_in(value)
                leaf = self.index.leaf_at(call, str(field))
                if states and leaf is not None:
                    return leaf, states | {s for state in states for s in lex.record_state_implies.get(state, ())}
        return None

    def _compare(self, fact: Fact, status: tuple[Leaf, set[str]]) -> None:
        """Contradict a state the record is not in (or a negated one it is in); back one it is in."""
        lex = self.index.lex
        if self._concept(fact) not in lex.record_state_concepts:
            return  # "the refund is pending": a state of another concept than the record's
        said = lex.record_states_in(fact.text)
        if len(said) != 1:
            return
        state = next(iter(said))
        term = lex.terms.get(term_key(fact.text))
        # "not yet shipped"; "rejected" is a state of its own, whose word is negative, not a negated one
        negated = (fact.polarity == "negative") != (term is not None and term.polarity == "negative")
        leaf, states = status
        holds = state in states
        if holds != negated:
            if fact.verdict not in (Verdict.SUPPORTED, Verdict.CONTRADICTED):  # other evidence may still speak
                set_verdict(fact, Verdict.SUPPORTED, "match", f"the record's {leaf.path} is {leaf.text!r}",
                            [evidence_of(leaf, self.index)])
            return
        said_as = f"not {state}" if negated else state
        set_verdict(fact, Verdict.CONTRADICTED, "record_state",
                    f"the record the answer names has {leaf.path} {leaf.text!r}, not {said_as}",
                    [evidence_of(leaf, self.index)])
