"""What a matcher holds while it grounds one answer's claims, and the helpers all its checks share."""

from __future__ import annotations

from decimal import Decimal

from factcheck.grounding.count_totals import ListedCount
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.naming import ClaimRecords
from factcheck.grounding.roles import ClaimText, Recomputed
from factcheck.grounding.states import RecordStates
from factcheck.grounding.statuses import StatusMatcher
from factcheck.grounding.subsets import SubsetTotal
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.report import Fact

_ARROWS = ("→", "->", "⇒", "=>")
"""Marks of a change: "old → new"."""


class ClaimState:
    """The evidence, the claim in hand and what this answer's earlier claims backed."""

    def __init__(
        self, index: EvidenceIndex, action_tools: dict[str, tuple[str, ...]], derive: bool, name_cutoff: float = 90.0
    ) -> None:
        """Start a matcher for one answer.

        Args:
            index: The evidence of the answer's run.
            action_tools: The names of the tools whose calls act, by the status concept they make true.
            derive: Whether arithmetic on the evidence and the answer's backed numbers may back a number.
            name_cutoff: The least fuzzy score (0-100) at which a tool's name backs a claimed one.
        """
        self.index = index
        self.name_cutoff = name_cutoff
        self._claim_facts: list[Fact] = []
        self._claim_text = ""
        self._asked: tuple[str, bool] = ("", False)
        """The claim text `_asks_new_value` last read, and its answer (each fact of a claim asks)."""
        self._said = ClaimText("", 0, [])
        self._lines: tuple[str, str] = ("", "")
        """The text of the claim before the one in hand, and the header row of the table being read, if any."""
        self._clause_lows: tuple[str, dict[tuple[int, int], str]] = ("", {})
        """The claim text `_clause` last read, and each clause of it read, lower case, by its bounds."""
        self._rate_read: tuple[str, bool] = ("", False)
        """The claim text `_rated` last read, and its answer (read only when arithmetic asks)."""
        self._records = ClaimRecords(index, {})
        """The list items the claim in hand names."""
        self._states = RecordStates(index, self._records)
        self._statuses = StatusMatcher(index, action_tools, self._records)
        self.derive = derive
        self.duration_days = index.lex.duration_days
        self.counts: set[tuple[Decimal, str | None]] = set()
        """Counts (value, unit) this answer stated and a list backed: a later claim may repeat them ("两笔合计")."""
        self.listed_counts: list[ListedCount] = []
        """Counts of this answer already backed, with their units: a whole after them adds them up."""
        self.moments: list[Fact] = []
        """Dates and times of this answer's earlier claims already backed: a later one may be a duration away."""
        self.zone = ""
        """The time zone an earlier claim of this answer named: a later time without one is read in it."""
        self.verified: list[Decimal] = []
        """Numbers of this answer already backed, usable as operands ("3 晚共 4,740 元")."""
        self.amounts: list[Decimal] = []
        """Amounts of money of this answer already backed, in order: a total after a list of them adds them up."""
        self.line_amounts: list[tuple[int, Decimal]] = []
        """Each earlier claim's last backed amount, by where the claim starts: what a line of a breakdown comes to
        ("Room: $189 + $189 + $215 = $593.00" is $593.00), which a total after the lines adds up."""
        self._subset: tuple[Fact | None, SubsetTotal | None] = (None, None)
        """The last fact whose total over a status's items was worked out, and that total."""

    def _recomputed(self, fact: Fact, found: Recomputed, reason: str | None = None) -> Backing:
        """The code, reason and evidence of a number (or name) its records compute otherwise."""
        reason = reason or f"the records give {found.how}, not {fact.text}"
        return "recomputed", reason, [evidence_of(found.where.leaf, self.index, found.how)]

    def _clause(self, fact: Fact) -> str:
        """The clause the fact stands in, lower case (one string per clause of the claim in hand: each number of a
        clause asks, and look-ups keyed by it hash it once)."""
        bounds = self._records.clause(fact)
        lows = self._clause_lows
        if lows[0] is not self._claim_text:
            lows = self._clause_lows = (self._claim_text, {})
        low = lows[1].get(bounds)
        if low is None:
            begin, end = bounds
            low = lows[1][bounds] = self._claim_text[begin - self._records.start : end - self._records.start].lower()
        return low

    @property
    def _rated(self) -> bool:
        """Whether the claim in hand speaks of a rate (lexicon `rate_cues`): any product or quotient may back it."""
        text = self._claim_text
        if self._rate_read[0] is not text:
            self._rate_read = (text, bool(self.index.lex.rate_cues.search(text)))
        return self._rate_read[1]

    def _asks_new_value(self) -> bool:
        """Whether the claim speaks of a value asked for ("change it to", "new", an arrow: "#W1 → 565 Maple Drive")."""
        text = self._claim_text
        if self._asked[0] is not text:
            asks = bool(self.index.lex.new_value_cues.search(text)) or any(arrow in text for arrow in _ARROWS)
            self._asked = (text, asks)
        return self._asked[1]
