"""Which calls' statuses speak of the record a claim names: its key's call, not another record's failure; its own
failure, not another record's success."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from factcheck.grounding.evidence import EvidenceIndex, StatusEvidence, ToolRecord, record_key
from factcheck.report import Fact, FactKind

_KEY_DIGITS = 4
"""Fewest digits of a number that names a record the way a key does (a card's last four, 6120)."""
_CUE_REACH = 15
"""How many characters before such a number a suffix cue ("ending in", 尾号) may stand."""


def of_named_calls(
    index: EvidenceIndex, claim_facts: list[Fact], pool: list[StatusEvidence], claim: str = "", start: int = 0
) -> list[StatusEvidence]:
    """The statuses of the calls whose output is the record the claim names by its key, and of outputs that
    are no keyed record: "order #W3586556 (still pending)" is not contradicted by the cancellation of
    #W1242543 in the same run, nor by any other order when the run never read #W3586556.

    Args:
        index: The run's evidence.
        claim_facts: The claim's facts (its identifiers, and the ends of identifiers it gives).
        pool: The statuses that speak of the fact's concept.
        claim: The claim's text.
        start: Where the claim's text starts in the answer.

    Returns:
        The statuses of the pool that speak of the named record.
    """
    pool = _of_successful_twin(index, claim_facts, pool, claim, start)
    named = {record_key(f.value or f.text) for f in claim_facts if f.kind == FactKind.IDENTIFIER}
    if not named:
        return pool
    keyed = {s.call: index.record_keys(s.call) for s in pool}
    kept = [s for s in pool if not keyed[s.call] or keyed[s.call] & named or _acts_on(index, s.call, named)]
    if any(keyed[s.call] & named for s in kept):
        # "水费：缴费成功，订单号 PAY…1837" of the payment whose output is that order, beside the failed payment of
        # another bill (`bill_id` G-2511-1901 in its arguments): that failure is no status of the named record
        kept = [s for s in kept if keyed[s.call] or not _of_another_record(index, s.call, named)]
    return kept


def _of_successful_twin(
    index: EvidenceIndex, claim_facts: list[Fact], pool: list[StatusEvidence], claim: str, start: int
) -> list[StatusEvidence]:
    """The pool less the failures of calls on another record (their arguments' key the claim does not say) whose
    tool also ran with success on the record the claim names by an identifier or the end of one (lexicon
    `suffix_cues`) that call's output gives ("I've ordered a replacement credit card (ending 6120 …)" of the
    order that returned `new_last4` 6120, beside the failed order for card DC-3356). `claim` is the claim's text,
    `start` where it starts in the answer."""
    calls = index.calls
    failed = {s.call for s in pool if calls[s.call].status == "error"}
    if not failed:
        return pool
    cues = index.lex.suffix_cues
    named = {leaf.index for f in claim_facts
             if f.kind == FactKind.IDENTIFIER or f.kind == FactKind.NUMBER and len(f.value or "") >= _KEY_DIGITS
             and cues.finditer(claim[max(0, f.start - start - _CUE_REACH) : max(0, f.start - start)])
             if (leaf := index.find_token((f.value or f.text).lower())) is not None
             and leaf.source == "tool" and not leaf.path.startswith("args")}  # where the tools give it first
    said = {record_key(f.value or f.text) for f in claim_facts if f.kind in (FactKind.IDENTIFIER, FactKind.NUMBER)}
    twins = {c for c in failed if _of_another_record(index, c, said)
             and any(calls[n].name == calls[c].name and calls[n].status == "ok" and n != c for n in named)}
    return [s for s in pool if s.call not in twins]


def _acts_on(index: EvidenceIndex, call: int, named: set[str]) -> bool:
    """Whether a write's arguments name a record the claim names: `request_plan_change(msisdn=07700900412)`, whose
    output is a request of its own key, speaks of that line."""
    if index.lex.read_only_tools.match(index.calls[call].name or ""):
        return False
    args = index.calls[call].args
    return isinstance(args, dict) and any(
        isinstance(v, str | int) and not isinstance(v, bool) and record_key(str(v)) in named for v in args.values())


def _of_another_record(index: EvidenceIndex, call: int, named: set[str]) -> bool:
    """Whether a call's arguments give the key of a record (`bill_id`) and none of the keys named."""
    args = index.calls[call].args
    if not isinstance(args, dict):
        return False
    keys = {record_key(str(value)) for field, value in args.items()
            if isinstance(value, str | int) and not isinstance(value, bool)
            and index.is_record_key(str(field))}
    return bool(keys) and not keys & named


def failed_for_named(
    index: EvidenceIndex, named: Callable[[], list[dict[str, Any]]], done: int
) -> tuple[ToolRecord, str] | None:
    """A failed call of the tool whose call `done` backs a claimed success, run on a record the claim names: one
    of its arguments is that record's own field and value, and the backing call ran with another ("The Ocean View
    Suite has been moved as well" of room `line` 2, whose `modify_room` failed, beside line 1's that went through).

    Args:
        index: The run's evidence.
        named: Gives the records (list entries) the claim names; asked only when a call of the tool failed.
        done: The call whose output backs the success.

    Returns:
        (the failed call, the argument that names the record), or None.
    """
    tool, ran = index.calls[done].name, index.calls[done].args
    failed = [c for c in index.calls if c.status == "error" and c.name == tool and c.index != done
              and isinstance(c.args, dict)]
    records = named() if failed and isinstance(ran, dict) else []
    for call in failed if records else []:
        for key, value in call.args.items():
            if isinstance(value, bool) or not isinstance(value, str | int) or ran.get(key) == value:
                continue
            if any(record.get(key) == value for record in records):
                return call, f"{key}: {value}"
    return None
