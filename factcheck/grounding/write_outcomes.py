"""What a run's writes say of a status claim: an error, a named write that failed, sorted records, an action done."""

from __future__ import annotations

import re
from typing import Any

from factcheck.grounding.counting import AGREES
from factcheck.grounding.evidence import EvidenceIndex, StatusEvidence, ToolRecord
from factcheck.grounding.status_calls import own_statuses, say
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import split_camel, term_key
from factcheck.phrases import MARKER_REACH, window_before
from factcheck.report import Fact, FactKind, Verdict

_NEGATED_STATE = re.compile(r"(?i)(?:\b(?:non|not|un)[-\s]?|\bbe\s+)$")
"""A negator or "be" right before a state word in an error ("non-pending order", "cannot be cancelled"): it names
no state the record is in."""
_CLAUSE_BREAK = re.compile(r"[,;:，；：。]|\s(?:so|but|and)\s")
"""What ends the clause an action is said in."""
_PART_BREAK = re.compile(r"[,;，；。\n]")
"""What ends the clause a state of one of several records is said in."""
_ENTRY = re.compile(r"^(.*\[\d+\])\.[^\[\]]*$")
"""A status field's path inside a list entry (`packages[1].status`): the entry is its record."""
_NAME_LEN = 4
"""The shortest text of a record that names it in a claim."""
_STATE_OF_SUBJECT = re.compile(r"(?i)(?:\b(?:is|are|was|were|been|be|now)|['’](?:s|re)|status\s*[:：]?|[\u4e00-\u9fff])"
                               r"\s*\**\s*$")
"""What stands right before a state of the claim's subject ("is now confirmed", "Status: Confirmed", 酒店已确认)."""
_PERFECT = re.compile(r"(?i:\b(?:has|have)\s+(?:been\s+|already\s+|now\s+)*\w+|['’]ve\s+\w+)|已经?")
"""An action said done by now ("has been issued", "I've reversed", 已原路退回), not a rule or the user's past."""
_USER_DID = re.compile(r"(?i:\byou(?:['’]ve|\s+have)?\s+(?!been\b)[a-z]+)|(?<![为帮给替向])[您你](?!的)")
"""The user as the doer of a clause ("you paid", 您 11 月 21 日已经用), not its beneficiary (为您, 您的退款)."""
_TOOL_WORD = re.compile(r"[a-z]{5,}")
"""A word of a tool's name that may name what it does to the claim (`redelivery`, `registration`)."""


def record_state_only(index: EvidenceIndex, fact: Fact, call: int) -> bool:
    """Whether the fact says a record's state by a word of no concept of its own ("processed", 已处理, "pending"; not
    "processed the refund") and the failed call is a write whose error names no other state ("Error: non-pending order
    cannot be cancelled"): the write says its change failed, not which state the record is in. A read's error ("Order
    not found") or one naming the state ("order status changed to processed") still speaks.

    Args:
        index: The run's evidence.
        fact: A status fact.
        call: The failed call.

    Returns:
        True when the error is no evidence of the record's state.
    """
    lex = index.lex
    if lex.read_only_tools.match(index.calls[call].name or ""):
        return False
    term = lex.terms.get(term_key(fact.text))
    if term is None:  # the state word with the concept it is said of: "the order is processed"
        hits = lex.record_state_words.finditer(fact.text)
        term = lex.terms.get(hits[0].key) if len(hits) == 1 and fact.concept in ("order", None) else None
    if term is None or term.concept is not None or not (said := lex.record_states_in(fact.text)):
        return False
    leaf = index.first_leaf(call)
    text = leaf.text if leaf is not None else ""
    return not {lex.record_state_of[hit.key] for hit in lex.record_state_words.finditer(text)
                if _NEGATED_STATE.search(text, 0, hit.start) is None} - said


def named_write_failed(index: EvidenceIndex, writes: list[ToolRecord], fact: Fact, claim: str, at: int) -> bool:
    """Contradict an action no tool of its concept ran when the action's clause names a write by its tool name's own
    word ("booked a redelivery" of `request_redelivery`; not a concept's word, which names its tools already, nor a
    word of `generic_tool_words`) and the last such write raised or reported only failure (`result: REJECTED`).

    Args:
        index: The run's evidence.
        writes: The run's action calls.
        fact: A positive action fact.
        claim: The claim's text.
        at: Where the fact starts in it.

    Returns:
        True when the fact was contradicted.
    """
    begin = max((m.end() for m in _CLAUSE_BREAK.finditer(claim, 0, at)), default=0)
    end = m.start() if (m := _CLAUSE_BREAK.search(claim, at + len(fact.text))) else len(claim)
    clause = claim[begin:end].lower()
    found = None
    for call in writes:
        if not _names_tool(clause, call, index):
            continue
        if call.status == "ok":
            said = [s for s in index.statuses(None) if s.call == call.index]
            if not said or any(s.polarity != "negative" for s in said):
                return False  # a write of what the claim names worked (or says nothing of failing)
            found = (call, said[0].leaf)
        else:
            found = (call, index.first_leaf(call.index))
    if found is None:
        return False
    call, leaf = found
    set_verdict(fact, Verdict.CONTRADICTED, "tool_error",
                f"no {fact.concept} tool ran, and {call.name}, the write the claim names, failed",
                [evidence_of(leaf, index)] if leaf else [])
    return True


def _named_in_clause(index: EvidenceIndex, pool: list[StatusEvidence], claim: str, start: int, end: int,
                     ) -> list[StatusEvidence]:
    """The statuses of the records the clause around `claim[start:end]` names by a text they hold (an item's name,
    a tracking code): a list entry's own strings, or a whole output's top-level strings and its call's arguments."""
    begin = max((m.end() for m in _PART_BREAK.finditer(claim, 0, start)), default=0)
    stop = next((m.start() for m in _PART_BREAK.finditer(claim, end)), len(claim))
    clause = claim[begin:stop].lower()
    named = []
    for status in pool:
        entry = _ENTRY.match(status.leaf.path)
        if entry:
            record = index.value_at(status.call, entry.group(1))
            values = list(record.values()) if isinstance(record, dict) else []
        else:
            output = index.value_at(status.call, "")
            values = [v for _, v in index.arg_values(status.call)]
            values += list(output.values()) if isinstance(output, dict) else []
        if _names(index, values, clause):
            named.append(status)
    return named


def _names(index: EvidenceIndex, values: list[Any], clause: str) -> bool:
    """Whether a lower-case clause holds one of a record's texts that may name it (four characters or more, no status:
    an item's name, a tracking code, BOOSTER)."""
    return any(isinstance(v, str) and len(v) >= _NAME_LEN and v.lower() in clause and not index.statuses_of(v.lower())
               for v in values)


def sorted_by_state(index: EvidenceIndex, fact: Fact, polarity: str, pool: list[StatusEvidence],
                    claim_facts: list[Fact], claim: str, claim_start: int) -> bool:
    """Back a state with a record in it when the claim also says another state of a record's ("三个包裹里 2 个已签收，
    YT8820095 还在运输中"; "1 个已签收、2 个还在路上", a state of another concept) and the pool's calls are of several
    records (several calls, or several list entries): each state is some record's, not the latest call's.

    Args:
        index: The run's evidence.
        fact: A status fact.
        polarity: Its polarity.
        pool: The statuses of its concept the run's outputs state.
        claim_facts: Every fact of its claim.
        claim: The claim's text.
        claim_start: Where the claim starts in the answer.

    Returns:
        True when the fact was backed; never when the fact's own clause names records (by a name or code they hold)
        and none of them is in the state ("已签收的是 UGREEN 支架" of the stand still in transit).
    """
    lex = index.lex
    if fact.concept not in lex.record_state_concepts:
        return False
    said = lex.record_states_in(fact.text.lower())
    if not any(
            f is not fact and f.kind == FactKind.STATUS and f.concept in lex.record_state_concepts
            and (f.polarity not in (None, polarity) or f.concept != fact.concept
                 or lex.record_states_in(f.text.lower()) - said)
            for f in claim_facts):
        return False
    if len({s.call for s in pool}) < 2 and len({s.leaf.path for s in pool}) < 2:
        return False
    agree = [s for s in pool if s.polarity in AGREES[polarity]]
    if not agree:
        return False
    named = _named_in_clause(index, pool, claim, fact.start - claim_start, fact.end - claim_start)
    if named and not any(s.polarity in AGREES[polarity] for s in named):
        return False
    set_verdict(fact, Verdict.SUPPORTED, "match", f"tool says {say(agree[-1])}; the claim sorts several records "
                "by state", [evidence_of(agree[-1].leaf, index)])
    return True


def said_done(index: EvidenceIndex, fact: Fact, writes: list[ToolRecord]) -> None:
    """Contradict an action the agent says it did in general ("I've redeemed…", 已为您解冻: `DONE_CONCEPT`) when
    every action call of the run failed, or when its verb names the tool of writes that all failed ("I've unlocked
    it" of `unlock_account`, 403) and of none that went through; say nothing of it otherwise (which action it was,
    the concept checks tell).

    Args:
        index: The run's evidence.
        fact: The action said done.
        writes: The run's action calls, in order.
    """
    failed = only_writes_failed(writes)
    which = "every action call of the run failed ({name} {said} last)"
    if failed is None:
        named = [c for c in writes if _names_tool(fact.text.lower(), c, index)]
        if not named or any(c.status == "ok" and not c.reports_failure for c in named):
            fact.reason = "an action said done; an action call went through, or none ran"
            return
        failed, which = named[-1], "{name}, the write the answer's verb names, {said}"
    leaf = index.first_leaf(failed.index)
    said = "reported failure" if failed.reports_failure else "failed"
    set_verdict(fact, Verdict.CONTRADICTED, "tool_error",
                which.format(name=failed.name, said=said) + ", yet the answer says it was done",
                [evidence_of(leaf, index)] if leaf else [])


def pending_after_write(index: EvidenceIndex, writes: list[ToolRecord], fact: Fact, agree: list[StatusEvidence],
                        before: str) -> bool:
    """Contradict a bare confirmation of the claim's subject ("You're now confirmed", 酒店已确认; the lexicon's
    `confirmed_words`) said after the run's one action call (a send aside) went through with its own `status`
    pending (waitlisted, pending_hotel_confirmation, pending_approval): the change is not confirmed, whatever a read
    before it said.

    Args:
        index: The run's evidence.
        writes: The run's action calls, in order.
        fact: A status said done that names no concept.
        agree: The statuses of the run that agree with it.
        before: The claim's text before the fact.

    Returns:
        True when the fact was contradicted; not for a state said to stay ("still confirmed"), one a read after the
        call bears out, or a call whose output has no status field or one not pending.
    """
    if term_key(fact.text) not in index.lex.confirmed_words or not _STATE_OF_SUBJECT.search(before):
        # "Done.", 提交成功: a request that went through is done, if pending; only its outcome is not. "duplicate
        # confirmed", "Hotel — confirmed", "（已确认，座位 28K）": a finding, or a line of another record
        return False
    pending = _pending_change(index, writes)
    if pending is None or any(s.call > pending[0].index for s in agree) \
            or index.lex.standing_markers.search(window_before(before, 3, 6) + " " + fact.text):
        return False
    last, own = pending
    set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch", f"tool {last.name} says {say(own[0])} of its change, "
                "answer says done", [evidence_of(own[0].leaf, index)])
    return True


def _pending_change(index: EvidenceIndex, writes: list[ToolRecord]) -> tuple[ToolRecord, list[StatusEvidence]] | None:
    """The run's one change and its own statuses, when it went through with every one of them pending; None beside
    other changes or several calls of one tool (two bookings, four requests: which one a claim speaks of is not read
    here). A send is no change (a confirmation e-mail queued)."""
    acting = [c for c in writes if "send" not in c.concepts]
    last = acting[0] if len(acting) == 1 else None
    if last is None or last.status != "ok" or last.reports_failure or not isinstance(last.output, dict):
        return None
    own = own_statuses(index, last.index, "")
    return (last, own) if own and all(s.polarity == "pending" for s in own) else None


def outcome_still_pending(index: EvidenceIndex, writes: list[ToolRecord], fact: Fact, claim_facts: list[Fact],
                          claim: str, at: int) -> bool:
    """Contradict an outcome said done ("A refund of $5.29 has been issued", 房费已原路退回; a concept of the lexicon's
    `completion_concepts`) that no call of its kind made, when the run's one action call (a send aside) went through
    with its own `status` pending (a missing-item claim `pending_review`, a cancellation CANCEL_PENDING): what the
    run did waits on a decision, and the outcome said done is what it waits for.

    Args:
        index: The run's evidence.
        writes: The run's action calls, in order.
        fact: An action of a concept said done, no call of which ran.
        claim_facts: The claim's facts.
        claim: The claim's text.
        at: Where the fact stands in it.

    Returns:
        True when the fact was contradicted; not for an action said without a perfect ("is paid when you return
        the car", "what was charged on your statement": a rule, or the user's past), nor the user's own (您 …
        已经用会员权益读了), nor a claim that names a record the change's output does not hold (transfer
        TR876033845, read as returned, beside a new transfer still processing).
    """
    if fact.kind != FactKind.ACTION or fact.concept not in index.lex.completion_concepts \
            or not _PERFECT.search(claim, max(0, at - MARKER_REACH), at + len(fact.text)) \
            or _USER_DID.search(claim[max((m.end() for m in _PART_BREAK.finditer(claim, 0, at)), default=0) : at]):
        return False
    pending = _pending_change(index, writes)
    if pending is None or any(f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED
                              and all(ev.index != pending[0].index for ev in f.evidence) for f in claim_facts):
        return False
    last, own = pending
    set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch", f"no {fact.concept} tool ran, and tool {last.name} "
                f"says {say(own[0])} of the run's one change, answer says done", [evidence_of(own[0].leaf, index)])
    return True


def _names_tool(said: str, call: ToolRecord, index: EvidenceIndex) -> bool:
    """Whether an action's words (lower case) name a call's tool by a word of its name that no concept and no
    generic tool word holds ("unlocked" of `unlock_account`)."""
    words = _TOOL_WORD.findall(split_camel(call.name or "").lower().replace("_", " "))
    return any(re.search(rf"\b{w}", said) for w in words
               if w not in index.lex.generic_tool_words and not index.lex.concepts_in(w))


def only_writes_failed(writes: list[ToolRecord]) -> ToolRecord | None:
    """The last action call of a run whose every action call failed, by an error or an output that says so (none run
    again with success): what the answer says was done was attempted by that call, whatever its name; None when any
    action went through."""
    if not writes or any(c.status == "ok" and not c.reports_failure for c in writes):
        return None
    return writes[-1]


def entry_of_write_disagrees(index: EvidenceIndex, writes: list[ToolRecord], fact: Fact, claim: str, at: int) -> bool:
    """Contradict a bare done state said of the one entry of a write's list that the clause names by a text it holds
    ("Child booster seat: confirmed" of `results[1]`, code BOOSTER, `status: waitlisted`) when that entry's own status
    is pending or failed.

    Args:
        index: The run's evidence.
        writes: The run's action calls.
        fact: A status said done that names no concept.
        claim: The claim's text.
        at: Where the fact stands in it.

    Returns:
        True when the fact was contradicted.
    """
    begin = max((m.end() for m in _PART_BREAK.finditer(claim, 0, at)), default=0)
    clause = claim[begin : at + len(fact.text)].lower()
    named = []
    for call in writes:
        if call.status != "ok" or not isinstance(call.output, dict):
            continue
        for field, value in call.output.items():
            for i, entry in enumerate(value if isinstance(value, list) else ()):
                if isinstance(entry, dict) and _names(index, list(entry.values()), clause):
                    named.append((call.index, f"{field}[{i}]"))
    if len(named) != 1:
        return False
    own = own_statuses(index, *named[0])
    if not own or any(s.polarity not in ("pending", "negative") for s in own):
        return False
    set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch", f"the entry the answer names says {say(own[0])}, "
                "answer says done", [evidence_of(own[0].leaf, index)])
    return True
