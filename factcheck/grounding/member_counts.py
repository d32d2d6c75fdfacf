"""Counts of a record's members ("共有 3 位乘客" of a reservation listing four), and members' own values."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.verdicts import Backing, evidence_of
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import term_key
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Leaf, Located

_NOUN_AFTER = re.compile(r"\s*([a-z]+|[\u4e00-\u9fff]{1,4})", re.IGNORECASE)
"""The word right after a count's measure word (位 乘客): the noun a Chinese count counts."""
_CUE_REACH = 12
"""How far before a count (characters) a whole-count cue stands (订单上共有 3 位乘客, a total of 4 guests)."""
_CLAUSE_START = re.compile(r"[,，;；:：。.!?！？()（）\n][^,，;；:：。.!?！？()（）\n]*$")
"""The last clause boundary before a count: added-member cues are looked for after it."""
_ENDS_NOUN = re.compile(r"\s*(?:$|[,，;；:：。.!?！？()（）\n—–-]|的|(?:on|in|under|listed|booked|registered|and)\b)")
"""What may follow a whole count's noun: the end of the clause, not a condition (4 位成员还没激活账号 counts some)."""
_RECORD_INDEX = re.compile(r"\[\d+\]")
"""A list index in a path: what precedes the last one is the record a value belongs to."""
_PARTY_FIELD = re.compile(r"\b(?:pax|party|headcount|occupancy)\b|人数")
"""Field words that count a party whatever its members are called."""
_UNIT_REACH = 12
"""How far after a count's number its unit word may start (3 位, "4 new guests")."""


def _members_key(unit_end: int, claim: str, unit: str, members: dict[str, list[str]]) -> tuple[str, int] | None:
    """The list field a count names, by its unit (`passengers`) or by the noun after its measure word (位乘客), and
    where that word ends in the claim."""
    noun = _NOUN_AFTER.match(claim, unit_end)
    heads = [(term_key(unit), unit_end, True)] if unit else []
    heads += [(term_key(noun.group(1)), noun.start(1), False)] if noun else []
    for key, words in members.items():
        for head, start, is_unit in heads:
            for word in words:
                if head == word:
                    return key, start + len(word)
                if not is_unit and not head.isascii() and head.startswith(word):
                    return key, start + len(word)
    return None


def _of_a_part(facts: list[Fact], lists: list[Leaf], index: EvidenceIndex) -> bool:
    """Whether the claim names an identifier of a part of a call's output that holds a list of its own but none of
    the member lists (a parcel's tracking number, its `item_ids`, beside an order's items): the count may be of that
    part's members. A flight of a reservation holds no list, and its passengers are the reservation's."""
    for fact in facts:
        if fact.kind != FactKind.IDENTIFIER or fact.verdict != Verdict.SUPPORTED:
            continue
        for ev in fact.evidence:
            marks = list(_RECORD_INDEX.finditer(ev.path)) if ev.source == "tool" else []
            own = [leaf for leaf in lists if leaf.index == ev.index]
            if not marks or not own:
                continue
            part = ev.path[: marks[-1].end()]
            if not any(leaf.path.startswith(part) for leaf in own) and any(
                    leaf.index == ev.index and leaf.path.startswith(part + ".") for _, leaf in index.list_counts):
                return True
    return False


def _counted_in_a_field(claimed: Decimal, key: str, index: EvidenceIndex) -> bool:
    """Whether a field that counts the members holds the count (`passenger_count: 3`, `guests_total`, 人数)."""
    stem = key[:-1] if key.endswith("s") else key
    words = (stem, *index.lex.member_words.get(key, ()))
    for loc in index.equal_numbers([(claimed, 0)]):
        name = field_name(loc.leaf.path)
        if not loc.leaf.count and (_PARTY_FIELD.search(name) or any(w in name for w in words)):
            return True
    return False


def _quantity_sum(records: list[Any], quantity_fields: frozenset[str]) -> int | None:
    """The sum of the records' quantities (lexicon `fields` quantity: quantity, qty), when every record gives one."""
    total = 0
    for record in records:
        value = next((v for k, v in record.items() if field_name(str(k)) in quantity_fields), None) \
            if isinstance(record, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        total += int(value)
    return total


def member_count(
    fact: Fact, claimed: Decimal, claim: str, claim_start: int, facts: list[Fact], index: EvidenceIndex
) -> Backing | None:
    """Recompute a count of a record's members ("3 位乘客", "6 guests") from the lists the tools return of them.

    The count's noun names a list field (`member_words`: passengers, guests, drivers…). The counts the records give
    are each list's length, the lengths of one call's lists added up (two rooms' guests), every call's added up, and
    a list's quantities added up; a count in pieces (lexicon `piece_units`: 件, pcs) counts a list by its quantities
    only ("4 件商品" of lines of 1, 2, 1 and 1 is five). When the claim's count is none of them, and it is more than
    all of them or the claim says it is the whole (`whole_count_cues`: 共有, in total, with nothing but the clause's
    end after its noun), the records contradict it; a smaller count may be of some members (2 of the passengers need
    visas) and is left alone. So is a count of members to be added (`added_count_cues`: 最多可以再加 2 名驾驶员), one a
    field counting the members holds (`passenger_count`), and one of a part another identifier of the claim names (a
    parcel's items).

    Args:
        fact: A number with a count noun.
        claimed: Its value.
        claim: The claim's text.
        claim_start: The claim's offset in the answer.
        facts: The claim's facts (its identifiers name the record).
        index: The run's evidence.

    Returns:
        A `recomputed` backing when the records give another count; None when they agree or say nothing.
    """
    lex = index.lex
    if claimed != claimed.to_integral_value() or claimed < 1 or not lex.member_words:
        return None
    at, end = fact.start - claim_start, fact.end - claim_start
    unit_at = claim.lower().find(fact.unit.lower(), end, end + _UNIT_REACH) if fact.unit else end
    named = _members_key(unit_at + len(fact.unit or ""), claim, fact.unit or "", lex.member_words) \
        if unit_at >= 0 else None
    if named is None:
        return None
    key, noun_end = named
    clause = claim[: at]
    boundary = _CLAUSE_START.search(clause)
    clause = term_key(clause[boundary.start() + 1 :] if boundary else clause)
    if lex.hedged(clause, 0, len(clause)) or lex.cue_in(lex.added_count_cues, clause):
        return None  # "最多可以再加 2 名驾驶员", "you can add 2 more drivers": members that may be added
    pieces = (fact.unit or "").lower() in lex.piece_units
    totals: dict[int, Leaf] = {}
    lists: list[Leaf] = []
    per_call: dict[int, tuple[int, Leaf]] = {}
    for length, leaf in index.list_counts:
        if leaf.source != "tool" or leaf.path.startswith("args") or index.calls[leaf.index].status == "error":
            continue
        name = field_name(leaf.path.replace("$", ""))
        if name != key and name.rsplit(" ", 1)[-1] != key:
            continue
        records = index.value_at(leaf.index, leaf.path)
        quantity = _quantity_sum(records, lex.quantity_fields) if isinstance(records, list) else None
        if quantity is not None and pieces:
            length = quantity  # "4 件商品" of lines of 1, 2, 1 and 1: pieces count by their quantities
        totals.setdefault(length, leaf)
        lists.append(leaf)
        summed, first = per_call.get(leaf.index, (0, leaf))
        per_call[leaf.index] = (summed + length, first)
        if quantity is not None:
            totals.setdefault(quantity, leaf)
    for summed, first in per_call.values():
        totals.setdefault(summed, first)
    if per_call:  # the members of every call's records (the passengers of two reservations)
        totals.setdefault(sum(summed for summed, _ in per_call.values()), next(iter(per_call.values()))[1])
    if not totals or int(claimed) in totals:
        return None
    if _of_a_part(facts, lists, index) or _counted_in_a_field(claimed, key, index):
        return None
    before = term_key(claim[max(0, at - _CUE_REACH) : at])
    whole = lex.cue_in(lex.whole_count_cues, before) and _ENDS_NOUN.match(claim, noun_end) is not None
    if int(claimed) < max(totals) and not whole:
        return None
    most = max(totals)
    leaf = totals[most]
    said = " or ".join(str(n) for n in sorted(totals))
    how = f"the records list {said} {key} ({leaf.path})"
    return "recomputed", f"{how}, not {fact.text}", [evidence_of(leaf, index, how)]


_RATE_AFTER = re.compile(r"(?i)\s*(?:[a-z]+\s+|[\u4e00-\u9fff])?(?:at|@|×)\s*(?:[A-Z]{1,3}\s?)?[$€£¥]?\d")
"""A rate right after a count ("2 nights at €410", "2 晚 × ¥560"): the count is that rate's part of the whole."""


def part_count(fact: Fact, claim: str, start: int, lex: Lexicon) -> bool:
    """Whether a count (not an amount of money) is said of a part of the record's whole: a part word right before it
    ("the first two nights", 其余 2 晚; `part_count_cues`) or a rate right after it ("2 nights at €410").

    Args:
        fact: A number of the claim.
        claim: The claim's text.
        start: Where the claim starts in the answer.
        lex: The lexicon.

    Returns:
        True when the count is a part's, which no field of the whole speaks for.
    """
    if not fact.unit or fact.unit in lex.currency_codes:
        return False
    before = claim[max(0, fact.start - start - _CUE_REACH) : fact.start - start].lower().rstrip()
    return any(before.endswith(cue) for cue in lex.part_count_cues) or \
        _RATE_AFTER.match(claim, fact.end - start) is not None


def members_only(same_field: list[Located], targets: list[tuple[Decimal, int]]) -> bool:
    """Whether each value of a claim's field is one list member's own (`requests[0].days`; no call's argument) and
    none is the claimed number: such values say nothing of what the answer works out over the list.

    Args:
        same_field: The located values of the claim's field.
        targets: The claimed number's readings (value, exponent of its last written digit).

    Returns:
        True when there is at least one value and each is such a member's.
    """
    return bool(same_field) and all(
        "[" in loc.leaf.path and not loc.leaf.path.startswith("args")
        and not any(equal_at(Decimal(loc.mention.value), t, e) for t, e in targets)
        for loc in same_field
    )
