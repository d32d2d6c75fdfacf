"""Check every assistant text turn of a conversation against the tool results stored before it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factcheck.audit.messages import Conversation, Message
from factcheck.checker import FactChecker
from factcheck.report import Claim, FactKind, Report, worst


@dataclass
class TurnResult:
    """The verdict on one assistant text turn."""

    conversation: str | int
    """The conversation's id, or its line number."""
    turn: int
    """The message's index in the conversation."""
    report: Report
    """The checker's report on the turn's text."""
    message: Message
    """The message that was checked."""
    chained: bool
    """True when some tool result was stored before the turn in its conversation."""
    user: str | None = None
    """The last user message before the turn (None when there is none)."""
    calls: list[dict[str, Any]] = field(default_factory=list)
    """The tool calls of the turn itself (since that user message): `name`, `args` (as the assistant gave them,
    for display: the checker is not given them), `output`, `status`."""

    @property
    def ok(self) -> bool:
        """True when nothing in the turn is flagged."""
        return self.report.ok


@dataclass
class _Evidence:
    """What a turn may rely on: tool results of the conversation so far, and its context."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    """Every tool result so far, as the checker's tool-call mappings."""
    turn_start: int = 0
    """Index in `calls` of the first result of the current turn (since the last user message)."""
    context: list[str] = field(default_factory=list)
    """The system prompt and the user messages so far."""
    user: str | None = None
    """The last user message."""
    args: dict[str, Any] = field(default_factory=dict)
    """Call id -> the arguments the assistant gave it."""
    shown: list[dict[str, Any]] = field(default_factory=list)
    """`calls` with those arguments, for the report (the checker is not given them)."""


def audit_conversation(conv: Conversation, checker: FactChecker,
                       progress: Callable[[int, int], None] | None = None) -> list[TurnResult]:
    """Check each assistant message with text against what was stored before it.

    Facts (numbers, links, identifiers, statuses) may be backed by any earlier tool result of the
    conversation; a completed action needs a successful call of its own turn (the tool results after
    the last user message). Context is the system prompt and the user messages so far.

    Args:
        conv: The conversation.
        checker: The checker to use (loaded once, reused).
        progress: Called with `(turns checked, turns)` after each turn.

    Returns:
        One result per assistant text turn, in order.
    """
    seen = _Evidence()
    results = []
    total = sum(m.role == "assistant" and bool(m.text.strip()) for m in conv.messages) if progress else 0
    if progress:
        progress(0, total)
    for msg in conv.messages:
        if msg.role == "system":
            if msg.text.strip():
                seen.context.append(msg.text)
        elif msg.role == "user":
            if msg.text.strip():
                seen.context.append(msg.text)
            seen.turn_start, seen.user = len(seen.calls), msg.text
        elif msg.role == "tool":
            seen.calls.append({"name": msg.name, "args": {}, "output": msg.output, "status": msg.status})
            seen.shown.append({**seen.calls[-1], "args": seen.args.get(msg.tool_call_id or "", {})})
        else:
            seen.args.update((c["id"], c.get("args") or {}) for c in msg.tool_calls)
            if not msg.text.strip():
                continue
            report = check_turn(checker, msg.text, seen.calls[: seen.turn_start], seen.calls[seen.turn_start :],
                                seen.context)
            results.append(TurnResult(conv.id, msg.index, report, msg, chained=bool(seen.calls), user=seen.user,
                                      calls=seen.shown[seen.turn_start :]))
            if progress:
                progress(len(results), total)
    return results


def check_turn(
    checker: FactChecker,
    text: str,
    earlier: list[dict[str, Any]],
    own: list[dict[str, Any]],
    context: list[str],
) -> Report:
    """Check a turn: facts against every result so far, claimed actions against the turn's own calls.

    Args:
        checker: The checker.
        text: The assistant's text.
        earlier: Tool results of earlier turns.
        own: Tool results of this turn.
        context: System prompt and user messages so far.

    Returns:
        The report; an action an earlier turn's call backed is replaced by its verdict on `own` alone.
    """
    report = checker.check(text, tool_calls=earlier + own, context=context)
    actions = [f for c in report.claims for f in c.facts if f.kind == FactKind.ACTION]
    if not earlier or not actions:
        return report
    alone = checker.check(text, tool_calls=own, context=context)
    mine = {(f.start, f.end): f for c in alone.claims for f in c.facts if f.kind == FactKind.ACTION}
    for claim in report.claims:
        changed = False
        for k, fact in enumerate(claim.facts):
            other = mine.get((fact.start, fact.end))
            if fact.kind != FactKind.ACTION or other is None or other.verdict == fact.verdict:
                continue
            for ev in other.evidence:
                ev.index += len(earlier)  # positions in `own` -> positions in the whole list
            if other.flagged:
                other.reason = f"{other.reason} in this turn"
            claim.facts[k] = other
            changed = True
        if changed:
            _settle(claim)
    return report


def _settle(claim: Claim) -> None:
    """A claim's verdict, reason, confidence and evidence again, after some of its facts changed."""
    counted = [f for f in claim.facts if not f.uncertain]
    claim.verdict = worst([f.verdict for f in counted])
    top = next((f for f in counted if f.verdict == claim.verdict), None)
    if top is not None:
        claim.reason = top.reason
    confidences = [f.confidence for f in claim.facts if f.confidence is not None]
    claim.confidence = max(confidences) if confidences else None
    claim.evidence = [ev for f in claim.facts for ev in f.evidence[:1]]
