"""Report models: verdicts, facts, evidence, claims and the per-answer report."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from factcheck.excerpts import cut


class Verdict(str, Enum):
    """What the tool outputs say about a claim or a fact."""

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    UNSUPPORTED = "unsupported"
    UNVERIFIABLE = "unverifiable"

    @property
    def flagged(self) -> bool:
        """True for the verdicts that make an answer fail the check."""
        return self in (Verdict.CONTRADICTED, Verdict.UNSUPPORTED)


_SEVERITY = {
    Verdict.UNVERIFIABLE: 0,
    Verdict.SUPPORTED: 1,
    Verdict.UNSUPPORTED: 2,
    Verdict.CONTRADICTED: 3,
}


def worst(verdicts: list[Verdict]) -> Verdict:
    """Return the most severe verdict (contradicted > unsupported > supported > unverifiable)."""
    return max(verdicts, key=_SEVERITY.__getitem__, default=Verdict.UNVERIFIABLE)


class FactKind(str, Enum):
    """The kinds of checkable fact pulled out of a claim."""

    STATUS = "status"
    ACTION = "action"
    NUMBER = "number"
    DATE = "date"
    TIME = "time"
    IDENTIFIER = "identifier"
    URL = "url"
    EMAIL = "email"
    NAME = "name"
    METHOD = "method"
    """A payment method named as where money went or came from (card, store credit, 原路)."""
    CATEGORY = "category"
    """A named value of a category (a membership tier, a plan); its value is `category:value` (`tier:gold`)."""
    WEEKDAY = "weekday"
    """A day of the week next to a date (Monday, Dec. 7; 9月26日 周六); its value is 0 for Monday."""
    COVERAGE = "coverage"
    """A claim about every member of a collection ("none of your orders", 都没有); its value is the
    collection's field. Added by grounding only when some members were never read."""


OPAQUE_KINDS = (FactKind.IDENTIFIER, FactKind.URL, FactKind.EMAIL)
"""Facts compared as opaque tokens, never as words: what an action produces and an answer may quote."""


class SpeechAct(str, Enum):
    """The speech act of a claim, read before it is grounded."""

    ASSERTION = "assertion"
    """A statement of fact about the run's records."""
    ACTION = "action"
    """A completed action of this turn ("I have cancelled order #W1")."""
    OFFER = "offer"
    """An offer, question, plan, instruction or a list's lead-in ("Would you like me to cancel it?")."""
    POLICY = "policy"
    """A general rule ("you can only exchange delivered orders", 根据规定…)."""
    REQUEST = "request"
    """The user's request restated ("You'd like to return the mug")."""

    @property
    def asserts(self) -> bool:
        """True for the acts whose statuses and actions are grounded (assertions and actions)."""
        return self in (SpeechAct.ASSERTION, SpeechAct.ACTION)


Polarity = Literal["positive", "negative", "pending"]
EvidenceSource = Literal["tool", "context"]


class Evidence(BaseModel):
    """One place in the run's record that a fact was compared with."""

    source: EvidenceSource = "tool"
    """`tool` for a tool output, `context` for user/system text the answer may rely on."""
    index: int
    """Position of the tool call (or context string) in the order given to the checker."""
    tool_name: str | None = None
    """Name of the tool that produced this output, when known."""
    tool_status: Literal["ok", "error"] = "ok"
    """Whether the tool call completed (`ok`) or raised (`error`)."""
    path: str = ""
    """Path inside the output (`refund.status`, `items[1].price`); empty for plain text."""
    text: str = ""
    """The matched evidence text, shortened for display."""
    note: str | None = None
    """How the evidence backs the fact when it is not a direct match (e.g. a sum)."""

    def describe(self) -> str:
        """One line naming where this evidence came from (`get_order.status: 'shipped'`), its text cut between
        words."""
        where = self.tool_name or f"#{self.index}"
        if self.source == "context":
            where = f"context[{self.index}]"
        path = ("" if self.path.startswith("[") else ".") + self.path if self.path else ""
        error = " (error)" if self.source == "tool" and self.tool_status == "error" else ""
        how = f" ({self.note})" if self.note else ""
        return f"{where}{path}{error}: {cut(self.text)!r}{how}"


class Fact(BaseModel):
    """A checkable fact found inside a claim, with its own verdict."""

    kind: FactKind
    """What sort of fact this is."""
    text: str
    """The fact's surface text in the answer."""
    start: int
    """Offset of `text` in the original answer."""
    end: int
    """End offset (exclusive) of `text` in the original answer."""
    value: str | None = None
    """Normalised value: a decimal string, ISO date, lower-cased identifier, URL or name."""
    unit: str | None = None
    """Unit for numbers (`CNY`, `USD`, `%`, `件`, `days`, ...)."""
    precision: int | None = None
    """Decimal places written in the answer, for numbers."""
    concept: str | None = None
    """What the fact is about: `refund`, `shipping`, `publish`, ... or a number's field."""
    polarity: Polarity | None = None
    """For status and action facts: done, not done, or in progress."""
    verdict: Verdict = Verdict.UNVERIFIABLE
    """The verdict for this fact alone."""
    code: str | None = None
    """Machine-readable reason: `match`, `context`, `derived`, `polarity_mismatch`,
    `value_mismatch`, `other_unit` (the tool gives the number in another unit or currency),
    `wrong_record` (a number of another list item than the one the
    claim names), `not_found`, `no_tool_call`, `tool_error`."""
    reason: str = ""
    """One line a person can read."""
    evidence: list[Evidence] = Field(default_factory=list)
    """Evidence compared with this fact (backing or contradicting)."""
    confidence: float | None = None
    """For a contradicted or unsupported fact: the estimated probability that the flag is right,
    from the calibration table (`CheckerConfig.calibration_path`); None for other verdicts."""
    strength: str | None = None
    """For a contradicted or unsupported fact: what its own evidence is (`not-done-field`: a status field says
    it failed or is pending; `own-field`: a status field of the acting tool states otherwise; `record-field`:
    a status field of a record a read returned does; `own-text`: its text naming the concept does;
    `own-tool`: its other text does; `count`: a count it gives; `other-tool`; `field`: a tool states this
    field's value; `recomputed`: the value recomputed over the records differs; `other-call` /
    `other-item`: the value is another call's or another list item's than the one the claim names; `swapped`: it
    and another flag of the answer hold each other's records' values (its confidence is at least 0.9); `near`: a
    tool holds a value one edit off; `absent`: nothing holds it; `no-write`: the agent says it did it and
    only reads ran, or it says it sent a message no call sends; `no-call`: no tool ran for it). A feature of its
    confidence."""
    uncertain: bool = False
    """True when the flag's confidence is below `CheckerConfig.min_confidence`: the fact keeps its
    verdict in the report, but it does not flag its claim, fail the report or trigger a retry."""

    @property
    def flagged(self) -> bool:
        """True when the fact is contradicted or unsupported with enough confidence to count."""
        return self.verdict.flagged and not self.uncertain

    @property
    def unbacked_action(self) -> bool:
        """True when the fact claims an action that no successful tool call performed."""
        return self.code in ("no_tool_call", "tool_error") and self.flagged


class SecondOpinion(BaseModel):
    """What the verifier (`CheckerConfig.verifier`) said of a claim the deterministic checks were unsure of."""

    verdict: Verdict
    """`supported` lets the claim pass (its flags stay as uncertain); `contradicted`/`unsupported` flag it."""
    reason: str = ""
    """The verifier's reason, when it gives one."""
    confidence: float | None = None
    """The verifier's confidence, when it gives one."""
    source: str = ""
    """Which verifier answered (a model's name, a function's name)."""
    cached: bool = False
    """True when the answer came from the cache (same claim, same evidence, earlier in the process)."""


class VerifierUse(BaseModel):
    """What the verifier cost on one answer."""

    asked: int = 0
    """Claims the verifier was asked about (answers from the cache included)."""
    calls: int = 0
    """Calls made (not served from the cache)."""
    cached: int = 0
    """Answers served from the cache."""
    failed: int = 0
    """Calls that raised or gave an unreadable answer: the deterministic verdict stands."""
    timed_out: int = 0
    """Calls with no answer within `verify_timeout`: the deterministic verdict stands."""
    over_budget: int = 0
    """Claims in the band left unasked (more than `verify_max_claims`)."""
    tokens: int | None = None
    """Tokens the model reported using (None when it reported none)."""


class Claim(BaseModel):
    """A sentence or clause of the answer and what the tools say about it."""

    text: str
    """The claim exactly as written: `answer[start:end] == text`."""
    start: int
    """Offset of the claim in the original answer."""
    end: int
    """End offset (exclusive)."""
    verdict: Verdict = Verdict.UNVERIFIABLE
    """The worst verdict among the claim's facts that count (not `uncertain`); `unverifiable` when
    it has none."""
    act: SpeechAct = SpeechAct.ASSERTION
    """What the claim does: only assertions and actions have their statuses and actions grounded."""
    confidence: float | None = None
    """The highest confidence among the claim's contradicted and unsupported facts (uncertain ones
    included); None when it has none."""
    facts: list[Fact] = Field(default_factory=list)
    """The checkable facts extracted from the claim."""
    evidence: list[Evidence] = Field(default_factory=list)
    """The best evidence located for the claim as a whole."""
    reason: str = ""
    """One line a person can read."""
    second_opinion: SecondOpinion | None = None
    """The verifier's answer when its verdict decided this claim (see `CheckerConfig.verifier`)."""

    @property
    def flagged(self) -> bool:
        """True when the claim is contradicted or unsupported."""
        return self.verdict.flagged

    @property
    def uncertain(self) -> bool:
        """True when the claim holds a flag below the confidence threshold and no flag above it."""
        return not self.flagged and any(f.uncertain for f in self.facts)


class Report(BaseModel):
    """The result of checking one answer against one run's tool outputs."""

    answer: str
    """The original answer, unchanged."""
    lang: str
    """Language the answer was read as: `zh`, `en` or `mixed`."""
    claims: list[Claim] = Field(default_factory=list)
    """The claims in answer order."""
    notes: list[str] = Field(default_factory=list)
    """Things the checker did to its input (truncation, decoding, depth limits)."""
    tool_call_count: int = 0
    """How many tool calls were given as evidence."""
    elapsed_ms: float = 0.0
    """Wall time of the check."""
    verifier: VerifierUse | None = None
    """What the verifier cost on this answer; None when no verifier is set."""

    @property
    def ok(self) -> bool:
        """True when no claim is contradicted or unsupported."""
        return not any(c.flagged for c in self.claims)

    @property
    def flagged(self) -> list[Claim]:
        """The contradicted and unsupported claims, in answer order."""
        return [c for c in self.claims if c.flagged]

    @property
    def uncertain(self) -> list[Claim]:
        """Claims whose only flags fell below the confidence threshold: shown, but not acted on."""
        return [c for c in self.claims if c.uncertain]

    def __str__(self) -> str:
        head = "OK" if self.ok else f"FLAGGED {len(self.flagged)}/{len(self.claims)} claims"
        if self.uncertain:
            head += f", {len(self.uncertain)} uncertain"
        calls = f"{self.tool_call_count} tool call{'' if self.tool_call_count == 1 else 's'}"
        lines = [f"fact check: {head} (lang={self.lang}, {calls})"]
        for claim in self.claims:
            mark = "uncertain" if claim.uncertain else claim.verdict.value
            act = "" if claim.act == SpeechAct.ASSERTION else f" ({claim.act.value})"
            lines.append(f"- [{mark}]{act} {claim.text!r}")
            if claim.second_opinion is not None:
                opinion = claim.second_opinion
                lines.append(f"    verifier {opinion.source}: {opinion.verdict.value}; {opinion.reason}")
            for fact in claim.facts:
                verdict = fact.verdict.value
                if fact.confidence is not None:
                    verdict += f", confidence {fact.confidence:.2f}" + (" (uncertain)" if fact.uncertain else "")
                lines.append(f"    {fact.kind.value} {fact.text!r}: {verdict}; {fact.reason}")
                shown = list(dict.fromkeys(ev.describe() for ev in fact.evidence))  # each evidence once
                lines.extend(f"      <- {line}" for line in shown[:2])
        lines.extend(f"note: {n}" for n in self.notes)
        if self.verifier is not None and self.verifier.asked:
            use = self.verifier
            lines.append(f"verifier: {use.calls} calls, {use.cached} cached, {use.failed} failed, "
                         f"{use.timed_out} timed out" + (f", {use.tokens} tokens" if use.tokens is not None else ""))
        return "\n".join(lines)
