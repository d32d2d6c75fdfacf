"""The report's view of evidence, and setting a fact's verdict."""

from __future__ import annotations

import re

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import Term, field_name
from factcheck.report import Evidence, Fact, FactKind, Verdict

_SHOW = 120
"""Longest evidence text shown in a report (longer text is cut with an ellipsis)."""


def evidence_of(leaf: Leaf, index: EvidenceIndex, note: str | None = None) -> Evidence:
    """The report's view of a leaf."""
    text = leaf.text if len(leaf.text) <= _SHOW else leaf.text[: _SHOW - 1] + "…"
    if leaf.source == "context":
        return Evidence(source="context", index=leaf.index, path=leaf.path, text=text, note=note)
    call = index.calls[leaf.index]
    return Evidence(
        source="tool", index=leaf.index, tool_name=call.name, tool_status=call.status,  # type: ignore[arg-type]
        path=leaf.path, text=text, note=note,
    )


Backing = tuple[str, str, list[Evidence]]
"""(code, reason, evidence) of a supported number."""


def set_verdict(fact: Fact, verdict: Verdict, code: str, reason: str, evidence: list[Evidence]) -> None:
    """Set a fact's verdict, its code, the reason a person reads and the evidence."""
    fact.verdict, fact.code, fact.reason, fact.evidence = verdict, code, reason, evidence


_STATUS_KINDS = (FactKind.STATUS, FactKind.ACTION)


_MESSAGE_CONCEPT = "send"
"""The lexicon's concept of sending a message (an e-mail, an SMS, a notification)."""
_MESSAGE_CHANNEL = re.compile(r"(?i)mail|\bsms\b|\btext(?:ed)?\b|\bconfirmation\b|\breceipt\b|\bitinerary\b|短信|邮件")
"""Words of a message to the user ("emailed", "sent the updated order confirmation", 短信): no other act of the run
sends one, so a claim the agent sent it with no call of its concept is one no call of the run could have done ("sent
the transfer" names no message)."""
_STATUS_VALUE = re.compile(r"[^\W\d_]")
"""A status value has a letter: a bare number is a count."""
_DATE_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A value that starts with an ISO date is a moment (`created: 2024-08-14 21:37:05`), not a status."""


def evidence_strength(
    fact: Fact, index: EvidenceIndex, agent: bool = False, claim: str = "", done: bool = False
) -> str:
    """What a flagged fact's own evidence is (`Fact.strength`), read from its code and evidence alone.

    Args:
        fact: A contradicted or unsupported fact.
        index: The run's evidence (to name the concepts of the tool an evidence came from).
        agent: Whether the claim names the agent as the doer ("I've booked", 已为您): an action of this run,
            not a record's history ("a late fee was added").
        claim: The claim's text (a message it names: "sent the updated order confirmation").
        done: Whether a completion marker stands right before the fact ("has been sent", 已发送): a message said
            sent, by whomever, is one this run would have sent.

    Returns:
        `not-done-field` (a status field that says the thing failed or is still pending, against a claim
        that it was done),
        `own-field` (a status field of the acting tool's output), `record-field` (a status field of a record a
        read returned), `own-text`, `own-tool`, `count`, `other-tool`,
        `recomputed`, `other-call` / `other-item` (a wrong record: another call's value, another list item's),
        `swapped` (two records' values said each of the other's),
        `field`, `other-unit` (the tool gives the very number in another unit or currency), `near`,
        `absent`, `no-write` (no call of the action; the agent says it acted, and no call of
        the run can act: every one is a declared read, or none sends the message it says it sent),
        `no-call` (no call of the action) or `-`.
    """
    code = fact.code or ""
    if code == "no_tool_call":
        reads = index.lex.read_only_tools
        if (agent or done) and fact.concept == _MESSAGE_CONCEPT and _MESSAGE_CHANNEL.search(claim or fact.text) \
                and not any(fact.concept in c.concepts for c in index.calls if not reads.match(c.name or "")):
            # "I've also emailed you the itinerary", "A confirmation email has been sent" where no call of the run
            # but a read (find_user_id_by_email) names a message
            return "no-write"
        return "no-write" if agent and all(reads.match(c.name or "") for c in index.calls) else "no-call"
    if code in ("recomputed", "time_window", "incomplete_coverage"):
        return "recomputed"  # worked out over the records: a total, a selection, the time since a moment, the reads
    if code == "wrong_record" and fact.kind not in _STATUS_KINDS:
        # the named call's own value beside another call's (MSFT's price read off the AAPL call), or a list item's
        calls = {ev.index for ev in fact.evidence if ev.source == "tool"}
        return "other-call" if len(calls) > 1 else "other-item"
    if code == "record_state":
        return "record-field"  # the status field of the record the answer names by its key
    if code == "swapped_value":
        return "swapped"  # two records' values said each of the other: both found, exchanged
    if fact.kind in _STATUS_KINDS and code in ("polarity_mismatch", "tool_error"):
        return status_strength(fact, index)
    if code == "other_unit":
        return "other-unit"  # the very number, in another unit or currency
    if code == "value_mismatch":
        return "field"
    if code == "not_found":
        return "near" if fact.evidence else "absent"
    if code == "user_over_record":
        return "near"  # the user's number, a digit off the record's
    return "-"


def status_strength(fact: Fact, index: EvidenceIndex) -> str:
    """How directly a contradicted status's evidence speaks: a status field (of any record: `status:
    PENDING_SHIPMENT` states the shipping), the acting tool's text naming the concept, a count, or another tool."""
    tools = [ev for ev in fact.evidence if ev.source == "tool"]
    if not tools:  # the tool of the concept ran and failed: its own call says so
        return "own-tool" if fact.code == "tool_error" else "other-tool"
    words = tuple(w.lower() for w in index.lex.concept_words.get(fact.concept or "", ()))
    fields = index.lex.status_fields
    lex = index.lex
    for ev in tools:
        name = field_name(ev.path) if ev.path else ""
        if not name or not _STATUS_VALUE.search(ev.text) or _DATE_VALUE.match(ev.text.strip()):
            continue  # a count ("results: 1") or a moment ("created: 2024-08-14") states no status
        if fields.search(name) or (any(w in name for w in words) and lex.term_hits(ev.text.lower())):
            path = ev.path.lower()
            hits = [t for _, t in lex.term_hits(ev.text.lower())]
            # `pending_payment` against 报名成功: its concept word says no state; against an order said made, the value
            # speaks of another concept (the payment) and is no not-done field
            said = {t.polarity for t in hits} - ({None} if not _of_another(fact, hits) else set())
            if fact.polarity == "positive" and said and said <= {"negative", "pending"}:
                # `status: failed` or `PROCESSING` against "has been processed": the field says it is not done
                return "not-done-field"
            if fact.polarity == "pending" and fact.kind == FactKind.ACTION and said and said <= {"negative"}:
                return "not-done-field"  # `result: FAILED` against 拦截申请已提交: the submission did not go through
            # refund_status: failed, of refund_order, or the status of a `refund` object; else a record's status
            named = fact.concept in index.calls[ev.index].concepts or any(w in path for w in words)
            return "own-field" if named else "record-field"
    if fact.polarity == "positive" and _write_says_not_done(tools, index):
        return "not-done-field"
    own = [
        ev for ev in tools
        if fact.concept in index.calls[ev.index].concepts
        or (not index.calls[ev.index].concepts and any(w in ev.text.lower() for w in words))
    ]
    if not own:
        # the run's one write failed and its error is the evidence: it is the call that would have acted
        # (create_pickup_order's ERR_CAPACITY_FULL against 已为您预约上门取件)
        return "own-tool" if fact.code == "tool_error" and _only_write_failed(fact, tools, index) else "other-tool"
    if all(ev.text.strip().isdigit() for ev in own):
        return "count"  # a list's length or a count field, read as found / not found
    if any(w in ev.text.lower() for ev in own for w in words):
        return "own-text"  # "refund result: 失败": the acting tool's text names what failed
    return "own-tool"


_MESSAGE_FIELD = re.compile(r"(?i)message|\bmsg\b|desc|detail")
"""Words of a field's name that make its value a write's own account of what it did (`message`, `status_desc`)."""


def _of_write_message(index: EvidenceIndex, call: int, path: str) -> bool:
    """Whether a value at `path` of a call's output is in a message field of a write (not of a declared read)."""
    return _MESSAGE_FIELD.search(field_name(path)) is not None \
        and not index.lex.read_only_tools.match(index.calls[call].name or "")


def write_message(leaf: Leaf, index: EvidenceIndex) -> bool:
    """Whether a tool's value is a write's own top-level message (`message: 联系人已创建成功` of `create_contact`), not
    a read's text nor a note of a record it lists (`items[0].note`)."""
    return leaf.source == "tool" and leaf.path.isidentifier() and _of_write_message(index, leaf.index, leaf.path)


def _write_says_not_done(tools: list[Evidence], index: EvidenceIndex) -> bool:
    """Whether a write's own message is the evidence and says only that it failed or is pending ("Supplier
    confirmation pending", 改约请求已提交，等待站点确认) against a claim that it was done."""
    for ev in tools:
        if not _of_write_message(index, ev.index, ev.path or ""):
            continue
        said = {t.polarity for _, t in index.lex.term_hits(ev.text.lower())} - {None}
        if said and said <= {"negative", "pending"}:
            return True
    return False


def _of_another(fact: Fact, hits: list[Term]) -> bool:
    """Whether a status value names another concept than the claimed fact's (`awaiting_payment` of "订单已生成"), and
    not the fact's own as well (等待收款行入账 through 人行大额支付系统 still speaks of the 入账)."""
    concepts = {t.concept for t in hits} - {None}
    return fact.concept is not None and bool(concepts) and fact.concept not in concepts


def _only_write_failed(fact: Fact, tools: list[Evidence], index: EvidenceIndex) -> bool:
    """Whether the evidence is the run's failed writes, all of them (calls no declared read), and no write that
    succeeded is named for the claim's concept or is a call of the same tool: the failed call is the one that
    would have acted (not one of three invoices, two of which were issued)."""
    reads = index.lex.read_only_tools
    writes = [c for c in index.calls if not reads.match(c.name or "")]
    failed = {c.index for c in writes if c.status == "error" or c.reports_failure}
    names = {c.name for c in writes if c.index in failed}
    return bool(failed) and {ev.index for ev in tools} == failed and not any(
        c.index not in failed and (fact.concept in c.concepts or c.name in names) for c in writes)


def swapped_pairs(facts: list[Fact]) -> list[Fact]:
    """The wrong-record facts of an answer that hold each other's values: A says what B's record holds and B what
    A's does (two travellers' dates of birth, two orders' totals traded). A swap is evidence of its own: each value
    exists, in the other one's record.

    Args:
        facts: The answer's flagged facts.

    Returns:
        The facts of every such pair, in the answer's order.
    """
    wrong = [f for f in facts if f.code == "wrong_record" and len(f.evidence) >= 2]
    place = [((f.evidence[0].index, f.evidence[0].path), (f.evidence[1].index, f.evidence[1].path)) for f in wrong]
    swapped = {i for i, (own, other) in enumerate(place) for j, pair in enumerate(place)
               if i != j and wrong[i].kind == wrong[j].kind and pair == (other, own)}
    return [wrong[i] for i in sorted(swapped)]

