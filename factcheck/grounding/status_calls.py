"""Which calls' statuses speak of the record a claim names: its key's call, a write on it by its arguments, not
another record's failure; its own failure, not another record's success; the keyed record's own status."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from factcheck.grounding.counting import AGREES
from factcheck.grounding.evidence import EvidenceIndex, StatusEvidence, ToolRecord, record_key
from factcheck.grounding.flat import scalars_of
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name, term_key
from factcheck.report import Fact, FactKind, Verdict

_COLON = re.compile(r"(?<![Ss]tatus)(?<!\*\*[Ss]tatus)(?<!状态)(?<!\*\*状态)[:：]")
"""A colon between a status and a key: what follows lists or explains, it is no subject of the status (a status
label's own colon, "状态：已到账", "Status:", is none)."""
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
    # a write on the record that holds the named value ("MU5401 的退票" and `submit_refund(order_no=…)` of the order
    # whose `flight` is MU5401) speaks of it too
    holders = named | _holders(index, named)
    kept = [s for s in pool if not keyed[s.call] or keyed[s.call] & named or _acts_on(index, s.call, holders)]
    if any(not keyed[s.call] and index.calls[s.call].status == "error" for s in kept):
        # "#W7700341 — address updated" beside the change of #W7700519 that raised, where the same tool ran with
        # success on #W7700341: the failure of the other record's call says nothing of the named one
        done = {c.name for c in index.calls if c.status == "ok" and _acts_on(index, c.index, named)}
        kept = [s for s in kept if keyed[s.call] or index.calls[s.call].status != "error"
                or index.calls[s.call].name not in done or not _of_another_record(index, s.call, named)]
    asked = {s.call for s in kept if _args_name(index, s.call, named)}
    if asked:
        # "PKG-1 | 顺丰 SF1438825407712 | 已签收" beside the later track_package of another waybill, in transit: the
        # calls that asked for another record say nothing of the one the claim names
        tools = {index.calls[c].name for c in asked}  # the same tool asked of another record (track_package ×3)
        kept = [s for s in kept if s.call in asked or keyed[s.call] & named
                or not (_of_another_record(index, s.call, named) or index.calls[s.call].name in tools)]
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


def _holders(index: EvidenceIndex, named: set[str]) -> set[str]:
    """The keys of the records (whole call outputs) that hold a named value in a field of their own, the named
    records aside (a refund keyed RF-55120 is named, not the holder of another record's key)."""
    out: set[str] = set()
    for call in range(len(index.calls)):
        output = index.flats[call].value
        if isinstance(output, dict) and (keys := index.record_keys(call)) and not keys & named and any(
                isinstance(v, str) and record_key(v) in named for v in output.values()):
            out |= keys
    return out


def _acts_on(index: EvidenceIndex, call: int, named: set[str]) -> bool:
    """Whether a write's arguments name a record the claim names: `request_plan_change(msisdn=07700900412)`, whose
    output is a request of its own key, speaks of that line."""
    return not index.lex.read_only_tools.match(index.calls[call].name or "") and bool(_named_args(index, call, named))


def _args_name(index: EvidenceIndex, call: int, named: set[str]) -> bool:
    """Whether a call's arguments give a key the claim names, as the value of a field that keys records or as a long
    code of its own (`waybill: SF1438825407712`)."""
    return any(index.is_record_key(field) or len(value) >= _KEY_DIGITS and any(c.isdigit() for c in value)
               for field, value in _named_args(index, call, named))


def _named_args(index: EvidenceIndex, call: int, named: set[str]) -> list[tuple[str, str]]:
    """The arguments of a call whose value is a key the claim names, as (field, value)."""
    return [(field, value) for field, value in index.arg_values(call) if record_key(value) in named]


def _of_another_record(index: EvidenceIndex, call: int, named: set[str]) -> bool:
    """Whether a call's arguments give the key of a record (`bill_id`) and none of the keys named."""
    keys = index.arg_keys(call)
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


def keyed_record_disagrees(
    index: EvidenceIndex, fact: Fact, polarity: str, pool: list[StatusEvidence], claim_facts: list[Fact], claim: str,
    at: int,
) -> StatusEvidence | None:
    """The status field of the one record the claim names by its key, as the latest call that gives that key states
    it, when it disagrees with a status said done (`named_record_disagrees` asks): "your prior authorization
    (PA-2025-114872) was approved" where `pa_case` {id: PA-2025-114872, status: submitted} (not where a later
    approval gives the report's `state: approved`, nor where the latest call is the supplier's text).

    The key is said with the status, no colon between them ("4 succeeded and 1 failed: run r-9890" lists), and
    is the record's own (its first key field; not the `cert_no` a reissue ticket refers to).

    Args:
        index: The run's evidence.
        fact: The status.
        polarity: The claimed status's polarity.
        pool: The statuses of the run.
        claim_facts: The claim's facts.
        claim: The claim's text.
        at: Where the status stands in the claim's text.

    Returns:
        The record's own status that disagrees, or None.
    """
    offset = fact.start - at  # where the claim starts in the answer
    keys = {record_key(f.value or f.text) for f in claim_facts
            if f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED and f.evidence
            and f.evidence[0].source == "tool" and index.is_record_key(f.evidence[0].path)
            and not _COLON.search(claim, min(at, f.start - offset), max(at, f.start - offset))}
    if len(keys) != 1:
        return None
    key = keys.pop()
    latest = next((call for call in reversed(range(len(index.calls))) if key in _said_in(index, call)), None)
    if latest is None:
        return None
    fields = index.lex.status_fields
    own = [s for s in pool if s.call == latest and not s.leaf.count
           and fields.search(field_name(s.leaf.path.rpartition(".")[2]))
           and _holds_key(index, index.value_at(latest, s.leaf.path.rpartition(".")[0]), key)]
    if not own or any(s.polarity in AGREES[polarity] for s in own):
        return None
    return next((s for s in own if s.polarity in ("pending", "negative")), None)


def named_record_disagrees(
    index: EvidenceIndex, fact: Fact, polarity: str, pool: list[StatusEvidence], claim_facts: list[Fact], claim: str,
    at: int,
) -> StatusEvidence | None:
    """The status field of the one record the claim names, when it says the thing is still pending or failed against
    a status said done: the record named by its key (`keyed_record_disagrees`), else the one list item that alone
    holds the amounts of money the claim gives ("11 月 20 日 16:42，50,000 元 … 已于昨天下午到账" of the transfer
    {amount: 50000, status: PENDING_REVIEW}, beside the 2,000 that did arrive).

    Args:
        index: The run's evidence.
        fact: The status, said done.
        polarity: The claimed status's polarity.
        pool: The statuses of the run (a keyed record's are looked for among them).
        claim_facts: The claim's facts.
        claim: The claim's text.
        at: Where the status stands in the claim's text.

    Returns:
        The record's own status that disagrees, or None.
    """
    states = [f for f in claim_facts if f.kind in (FactKind.STATUS, FactKind.ACTION) and f is not fact]
    if polarity != "positive" or any(f.polarity not in (None, polarity) for f in states):
        return None  # "4 succeeded and 1 failed", "build 通过 … failed": the claim speaks of several parts
    term = index.lex.terms.get(term_key(fact.text))
    if term is not None and term.polarity != polarity:
        return None  # "并没有失败": a denied failure says no success
    # the keys and amounts said between the states before and after it ("已到账 $46.80，还在途 $130.12": each its own
    # refund's; "账单号 B2026… 目前未缴 … 已开通自动扣费": the bill is no record of the autopay)
    begin = max((f.end for f in states if f.end <= fact.start), default=0)
    end = min((f.start for f in states if f.start >= fact.end), default=len(claim) + fact.start)
    near = [f for f in claim_facts if f is fact or begin <= f.start and f.end <= end]
    if any(f.kind == FactKind.IDENTIFIER for f in claim_facts):  # a key names its record, whatever amount is said
        if fact.concept is not None and not any(f.kind == FactKind.IDENTIFIER for f in near):
            return None  # a state of its own concept said apart from the key (the bill's autopay, not the bill)
        return keyed_record_disagrees(index, fact, polarity, pool, claim_facts, claim, at)
    items = {item for f in near for item in _amount_items(index, f)}
    if len(items) != 1:
        return None
    call, path = items.pop()
    own = own_statuses(index, call, path)
    if not own or any(s.polarity in AGREES[polarity] for s in own):
        return None
    return next((s for s in own if s.polarity in ("pending", "negative")), None)


def own_statuses(index: EvidenceIndex, call: int, path: str) -> list[StatusEvidence]:
    """The statuses a record states by its own status fields (`status`, `refund_status`): the record at `path` of a
    call's output (`results[1]`, or "" for the whole output)."""
    record = index.value_at(call, path)
    fields = index.lex.status_fields
    return [StatusEvidence(s.concept, s.polarity, leaf, call)
            for name, value in (record.items() if isinstance(record, dict) else ())
            if isinstance(value, str) and fields.search(field_name(str(name)))
            and (leaf := index.leaf_at(call, f"{path}.{name}" if path else str(name))) is not None
            for s in index.statuses_of(value.lower())]


def _amount_items(index: EvidenceIndex, fact: Fact) -> set[tuple[int, str]]:
    """(call, path) of each list item with a status field that alone of its list holds an amount of money the claim
    gives as a tool does (the refund result of line 8, beside the order line of the same price); none for any other
    fact, for a sum's amount, or for an amount several items of one list hold (a fee of 0 on every transfer)."""
    if fact.kind != FactKind.NUMBER or fact.unit not in index.lex.currency_codes or fact.verdict != Verdict.SUPPORTED \
            or not fact.evidence or fact.evidence[0].source != "tool":
        return set()
    try:
        value = float(fact.value or "")
        if float(fact.evidence[0].text) != value:
            return set()  # a sum's first part ("合计退款 $176.92" backed by 130.12 + 46.80) names no record
    except ValueError:
        return set()
    fields = index.lex.status_fields
    found = set()
    for _, leaf in index.list_counts:  # every list of the outputs, read once per run
        if leaf.path.startswith("args") or index.calls[leaf.index].status != "ok":
            continue
        path = "" if leaf.path == "$" else leaf.path
        items = index.value_at(leaf.index, path)
        holding = [i for i, entry in enumerate(items if isinstance(items, list) else ()) if isinstance(entry, dict)
                   and any(isinstance(v, int | float) and not isinstance(v, bool) and v == value
                           for v in scalars_of(entry))]
        if len(holding) == 1 and any(fields.search(field_name(str(k))) for k in items[holding[0]]):
            found.add((leaf.index, f"{path}[{holding[0]}]"))
    return found


def _said_in(index: EvidenceIndex, call: int) -> str:
    """A call's arguments and output as one lower-case text, to find a key in."""
    return f"{index.calls[call].args} {index.value_at(call, '')}".lower()


def _holds_key(index: EvidenceIndex, record: Any, key: str) -> bool:
    """Whether a record (a mapping) holds `key` in its first key field: its own key."""
    if not isinstance(record, dict):
        return False
    own = next((v for k, v in record.items() if index.is_record_key(str(k))), None)
    return isinstance(own, str | int) and not isinstance(own, bool) and record_key(str(own)) == key


_LATIN_WORDS = re.compile(r"[a-z]{3,}")


def counted_search(index: EvidenceIndex, after: str) -> list[StatusEvidence]:
    """The count of the thing a search claim names right after its words ("found no *errors*"): a field or list of
    that name in an output (`errors: 0`, `errors: []`), as the search's status.

    Args:
        index: The run's evidence.
        after: The claim's text after its search word.

    Returns:
        The search statuses those counts give (positive for more than none).
    """
    words = _LATIN_WORDS.findall(after.lower(), 0, 40)[:2]
    names = {w for word in words for w in (word, word + "s", word.removesuffix("s"))}
    if not names:
        return []
    out = []
    for flat in index.flats:
        if flat.root:
            continue
        for shape, (values, nodes, keys) in flat.numbers.items():
            if len(values) == 1 and field_name(shape) in names:
                leaf = index.leaf(flat.call, flat.path(nodes[0], keys[0]), shape, str(values[0]), numeric=True)
                out.append(StatusEvidence("search", "positive" if values[0] else "negative", leaf, flat.call))
    for count, leaf in index.list_counts:
        if leaf.source == "tool" and not leaf.path.startswith("args") and field_name(leaf.path) in names:
            out.append(StatusEvidence("search", "positive" if count else "negative", leaf, leaf.index))
    return out


def say(s: StatusEvidence) -> str:
    """A status as a reason shows it: concept, polarity, and where the tool says it."""
    return f"{s.concept or 'status'} {s.polarity} ({s.leaf.path or 'text'}: {s.leaf.text[:40]!r})"


def read_disagrees(index: EvidenceIndex, fact: Fact, polarity: str, pool: list[StatusEvidence],
                   read: ToolRecord | None) -> bool:
    """Contradict a bare status said of one read by that call's own status fields: "www.google.com is unavailable"
    after `check_website_availability` returned `status: available`.

    Args:
        index: The run's evidence.
        fact: The status fact.
        polarity: What the claim says of it.
        pool: The statuses that speak of its concept.
        read: The read the claim speaks of, if one.

    Returns:
        Whether the fact was contradicted.
    """
    if read is None or read.status == "error":
        return False
    fields = index.lex.status_fields
    own = [
        s for s in pool
        if s.call == read.index and s.polarity in ("positive", "negative") and not s.leaf.count
        and fields.search(field_name(s.leaf.path.rsplit(".", 1)[-1]))
    ]  # the call's status fields ("status": "available"), not what its lists or prose suggest
    if not own or any(s.polarity in AGREES[polarity] for s in own):
        return False
    set_verdict(fact, Verdict.CONTRADICTED, "polarity_mismatch", f"tool says {say(own[0])}, answer says {polarity}",
                [evidence_of(own[0].leaf, index)])
    return True


_PROSE = frozenset({"", "$", "text"})
"""The paths of a call's whole output read as text (an e-mail, an error message): no field of a record."""


def latest_stating(index: EvidenceIndex, pool: list[StatusEvidence]) -> int:
    """The call whose statuses say a record's status now: the latest, unless it says it only in other words than a
    status field (a ticket's `queue: 退款异常`) and an earlier call's status field does (the refund's own
    `status: FAILED`); a call that failed speaks by its error, a call whose output is a text (an e-mail read) by its
    text.

    Args:
        index: The run's evidence.
        pool: The statuses of one concept the run states.

    Returns:
        The call's index.
    """
    latest = max(s.call for s in pool)
    if index.calls[latest].status == "error" or any(by_status_field(index, s) or s.leaf.path in _PROSE
                                                    for s in pool if s.call == latest):
        return latest  # an error, a status field, or a text of its own ("Good news, refund status: success")
    return max((s.call for s in pool if by_status_field(index, s)), default=latest)


def by_status_field(index: EvidenceIndex, status: StatusEvidence) -> bool:
    """Whether a tool's field named for a status states it (`status`, `review_status`), not other words of a record
    (a ticket's `queue: 退款异常`, a deploy's `active_version`)."""
    return status.leaf.source == "tool" \
        and index.lex.status_fields.lookup(field_name(status.leaf.path).rsplit(" ", 1)[-1]) is not None


def failed_lookup(index: EvidenceIndex, fact: Fact) -> bool:
    """Back a claim that a lookup did not go through ("the budgets lookup timed out", "这次没查到（接口超时）", "my
    first lookup timed out") by a call of the run that failed, retried or not, whatever another read found.

    Args:
        index: The run's evidence.
        fact: The claim's negative search status.

    Returns:
        Whether a call failed (the fact is then supported by its error).
    """
    broke = [c for c in index.calls if c.status == "error" or c.reports_failure]
    if not broke:
        return False
    leaf = index.first_leaf(broke[-1].index)
    set_verdict(fact, Verdict.SUPPORTED, "match", f"tool {broke[-1].name} failed",
                [evidence_of(leaf, index)] if leaf else [])
    return True
