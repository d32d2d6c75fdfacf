"""Numbers with a role over the records: a total recomputed with its multiplicity, a selection re-ranked."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.eligible import why_not
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.flat import value_in
from factcheck.grounding.multiplicity import (
    noun_units,
    party_follows,
    party_said,
    run_multiplicity,
    time_units,
)
from factcheck.lexicon import Lexicon, field_name
from factcheck.phrases import Hit, Phrases
from factcheck.report import Fact, FactKind

PATH_STEP = re.compile(r"[^.\[\]]+|\[\d+\]")
"""One step of a leaf's path: a field name or a list index (`flights`, `[0]`)."""
PRICE_LABELS = frozenset({"price"})
"""Field labels of a per-unit amount (a fare, a unit price): what a total multiplies."""
_AFTER = 12
"""How far after an amount a total word still makes it a total ("$612 in total")."""
_MOVED = re.compile(r"(?i)\b(?:has|have|had)\s+(?:been\s+|now\s+|already\s+)*\w+ed\b|\b(?:was|were)\s+\w+ed\b|已")
"""A clause that says money already moved ("has been charged", "was refunded", 已退款), by a past participle: stricter
than `direction`'s word after "has", since "have made 9 of 24 payments" moves no amount in full."""
_BACK = re.compile(r"(?i)\bback\b")
"""Money said to come back ("you'll get $24.99 back"): a refund's amount."""
_A_UNIT = re.compile(r"(?i)\s*(?:a|an)\s+[a-z]+\b")
"""An amount with "a" and a unit after it: one unit's ("$45 a ticket", "$40 a day")."""
_ONE_OF = re.compile(
    r"(?i)首[晚期月次日天张件]|第\s*[\d一二三四五六七八九十]+\s*[期晚天次月笔张件]|下一?期"
    r"|\b(?:first|second|third|next|last|final)\s+(?!business\b|time\b)[a-z]+")
"""One unit among several ("the first night", "the next payment", 首晚, 第 3 期): the amount is that unit's."""
_CLAUSE_MARKS = re.compile(r"[,，;；。:：]")
PER_SLASH = re.compile(r"\s*/\s*(?![\d$¥€£])\w")
"""A slash and a unit right after an amount: it is one unit's ("$120.00/night", "¥580.00/张")."""
_RATE_REACH = 12
"""How far from an amount (characters) a per-unit word is read as making it one unit's (`priced_per_unit`)."""
_NUMBER = re.compile(r"\d")
"""A digit: the words beside an amount are read up to the next number only."""
PER_WORK = re.compile(r"(?i)[×x@*/]|\b(?:at|each|per|apiece)\b|每|单价")
"""Between a quantity and an amount: the amount is one unit's ("4 × $22.75", "4 @ $22.75", "4 at $22.75 each")."""


class ClaimText(NamedTuple):
    """The claim in hand, as the role checks read it."""

    text: str
    """The claim's text."""
    start: int
    """Where it starts in the answer (its facts' offsets are the answer's)."""
    facts: list[Fact]
    """Its facts."""
    header: str = ""
    """The header row of the markdown table the claim is a row of ("| Item | Qty | Unit price |"), else empty."""


PER_UNIT_FIELD = re.compile(r"\b(?:nightly|daily|hourly|weekly|monthly|per|each|unit)\b")
"""A field name that marks its amount as one unit's (`nightly_rate`, `price_per_seat`, `unit_price`)."""


@dataclass(frozen=True)
class Recomputed:
    """A value the records compute for a number's role, and how."""

    value: Decimal
    """What the role's value is over the records."""
    how: str
    """The computation, as a person reads it ("3 passengers × (364 + 248) = 1836")."""
    where: Located
    """The evidence the computation starts from."""


def per_unit_as_total(
    fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText, of_lines: bool = True
) -> Recomputed | None:
    """The total a claimed total should be, when it equals a per-unit amount of records with a multiplicity.

    "The new total is $1,240" where the reservation has 3 passengers at $1,240 each: the claim's
    number is found (a price), but as a total it is 3 × $1,240. Only a claim whose number is labelled
    a total, or said to be all that a charge or refund moves (`moved_in_full`, `to_move`), in money, without
    per-unit words ("each", "per person", 每人) is read so; only prices of a call whose run lists more than one
    passenger, guest, night or unit, or that a count of their unit beside them names (`bags_requested: 3` for
    `fee_per_bag`), are multiplied.

    Args:
        fact: A money number labelled `total`, or said to move.
        located: The tool numbers equal to it.
        index: The run's evidence.
        claim: The claim.
        of_lines: Whether one line's amount of a list with a total may be the per-unit amount (see `_total_beside`).

    Returns:
        The recomputed total, or None when the number is no per-unit amount given as a total.
    """
    said_whole = claims_a_total(fact, index, claim) or moved_in_full(fact, index, claim)
    if not located or not (said_whole or to_move(fact, index, claim)):
        return None
    beside = _total_beside(fact, located, index, claim, of_lines=said_whole and of_lines)
    if beside is not None:
        return beside
    # a nightly rate: times its record's nights; a fee per bag: times the bags; not one night said as such ("The
    # removed night (€175) is refunded")
    at = fact.start - claim.start
    one = ONE_UNIT_BEFORE.search(claim.text, max(0, at - ONE_UNIT_REACH), at) is not None
    counted = [None if one else time_units(index, loc.leaf) or noun_units(index, loc.leaf) for loc in located]
    if any(loc.leaf.source != "tool" or _named_total(index, loc.leaf.path) or not (
            loc.leaf.labels & PRICE_LABELS or units or PER_UNIT_FIELD.search(field_name(loc.leaf.path)))
           for loc, units in zip(located, counted, strict=True)):
        return None  # a tool's own total, amount or payment equals it (`price.total` too)
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    for loc, units in zip(located, counted, strict=True):
        quantity = line_quantity(index, loc.leaf.index, loc.leaf.path)
        if quantity is not None and quantity > 1:  # "3 bananas, total $0.5": the item's price times its quantity
            total = claimed * quantity
            return Recomputed(total, f"quantity {num_text(quantity)} × {num_text(claimed)} = {num_text(total)}", loc)
        times, what = run_multiplicity(index, loc.leaf.index)
        if units is None and what and loc.leaf.path.startswith(what + "["):
            continue  # a price of each seat or passenger: their sum is the total
        if times < 2 or units is not None:
            found = units or _party(index, claim, claimed, exponent)
            if found is None:
                continue
            times, what = found
            total = claimed * times
            return Recomputed(total, f"{times} {what} × {num_text(claimed)} = {num_text(total)}", loc)
        # the legs of the reservation that lists the travellers add up to one traveller's fare; a price another call
        # gives (a search's options) is one option's
        own = any(leaf.index == loc.leaf.index and leaf.path == what for _, leaf in index.list_counts)
        legs = [v for v, _, _ in comparable(index, loc.leaf.index, loc.leaf.path, lists_only=True)] if own else []
        legs = legs or [claimed]
        per_unit = sum(legs)
        if any(equal_at(unit * times, claimed, exponent) for unit in (per_unit, claimed)):
            return None  # the claimed total is the count times a price: right
        total = per_unit * times
        return Recomputed(total, f"{times} {what} × {plus_text(legs)} = {num_text(total)}", loc)
    return None


ONE_UNIT_REACH = 30
"""Characters before an amount that may say it is one unit's ("1 × Garlic Naan (", 扣首晚房费, "Returning 1 candle")."""
ONE_UNIT_BEFORE = re.compile(
    r"(?i)首晚|首日|一晚|票价|\b1\s*[×x]|\b(?:1|one|a single|first)\s+(?!of\b)[a-z]+|"
    r"\b(?:price|fare|rate)\b(?:\s+(?:is|of|was))?\s*:?\s*[$¥€£]?\s*$|"
    r"\b(?:the|this|that|last|extra|removed|cancelled|final)\s+(?:[a-z]+\s+)?(?:night|day)\b(?!s)[^\d]{0,6}$|"
    r"(?:最后一|那一|这一)(?:晚|天)[^\d]{0,6}$")
"""Words that make the amount after them one unit's ("扣首晚房费", "Returning 1 candle would get you", "for the first
pass", "the price of $749.00", "fare is $189.00", "the removed night (€175)")."""


def _named_total(index: EvidenceIndex, path: str) -> bool:
    """Whether a field's own name says it holds a total (`price.total`, `grand_total`)."""
    return bool(index.lex.total_words.search(field_name(path.rsplit(".", 1)[-1])))


def _party(index: EvidenceIndex, claim: ClaimText, claimed: Decimal, exponent: int) -> tuple[int, str] | None:
    """The party a claim says its total is for ("Total for both of you"), where no list of travellers gives it."""
    party = party_said(claim.text, index.lex)
    if party is None or any(loc.leaf.source == "tool" for loc in index.equal_numbers([(claimed / party, exponent)])):
        return None  # "3 人合计 ¥1,920.00" of a ¥640 fare: the party's total, whatever else holds 1920
    return party, "people the total is for"


def _total_beside(
    fact: Fact, located: list[Located], index: EvidenceIndex, claim: ClaimText, of_lines: bool = True
) -> Recomputed | None:
    """The record's own total, when the claimed total is only a per-unit field of that record ("$189.00 in total"
    where 189 is `nightly_rate` and the same booking's `total_amount` is 635.04), or, `of_lines`, one line's amount
    of a list of several whose record gives a total more than the line ("$60.40 in total" of three refund lines at
    60.40, `total: 181.2`) when the claim gives no other amount (the line's price and fee it adds up), no count of
    one and no id of that line (an amount only said to move may be one line's: "a new $60.00 charge")."""
    claimed, exponent = Decimal(fact.value or "0"), -(fact.precision or 0)
    found = None
    for loc in located:
        parent, _, own = loc.leaf.path.rpartition(".")
        if loc.leaf.source != "tool":
            return None
        lines = not PER_UNIT_FIELD.search(field_name(own))
        if lines and not of_lines:
            return None
        if lines:
            parent = _lines_record(fact, loc, index, claim)
            if parent is None:
                return None  # a value some field holds as it is: not only a per-unit amount
        record = index.value_at(loc.leaf.index, parent) if parent else index.value_at(loc.leaf.index, "")
        if not isinstance(record, dict):
            return None
        for key, value in record.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or key == own:
                continue
            if lines and Decimal(str(value)) <= claimed:
                continue  # the lines' total is more than one line's (`total_baggages: 0` is no such total)
            if _named_total(index, str(key)) and not equal_at(Decimal(str(value)), claimed, exponent):
                total = index.number_at(loc.leaf.index, f"{parent}.{key}" if parent else str(key))
                if total is not None:
                    found = found or Recomputed(Decimal(str(value)), f"{key} is {num_text(Decimal(str(value)))}; "
                                                f"{own} {num_text(claimed)} is one unit's", total)
    return found


def _lines_record(fact: Fact, loc: Located, index: EvidenceIndex, claim: ClaimText) -> str | None:
    """The path of the record that holds the list a line's amount is in (`lines[0].amount` -> the output's root,
    as ""), when the list has several lines and the claim names no other amount, no count of one, nor an id of the
    line; else None."""
    steps = PATH_STEP.findall(loc.leaf.path)
    if len(steps) < 3 or not steps[-2].startswith("["):
        return None
    lines = index.value_at(loc.leaf.index, join_path(steps[:-2]))
    if not isinstance(lines, list) or len(lines) < 2:
        return None
    money = index.lex.currency_codes
    line = lines[int(steps[-2][1:-1])] if steps[-2][1:-1].isdigit() else None
    ids = {str(v).lower() for v in line.values() if isinstance(v, str)} if isinstance(line, dict) else set()
    if any(f is not fact and f.kind == FactKind.NUMBER and (f.unit in money or f.value == "1") for f in claim.facts) \
            or any(f.kind == FactKind.IDENTIFIER and f.text.lower() in ids for f in claim.facts):
        return None  # its own parts added up, "1 件，合计 50 美元", or the line named: the line's total
    return join_path(steps[:-3])


def equals_value(value: Any, number: Decimal) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return Decimal(str(value)) == number


def cue_before(cues: Phrases, fact: Fact, claim: ClaimText) -> Hit | None:
    """The cue word of a claim whose first amount of money after it is `fact` (no other amount between)."""
    at = fact.start - claim.start
    hits = [h for h in claim_hits(cues, claim.text) if h.end <= at]
    if not hits:
        return None
    cue = hits[-1]
    between = [f for f in claim.facts if f is not fact and f.unit == fact.unit and cue.end <= f.start - claim.start]
    return None if any(f.start - claim.start < at for f in between) else cue


def cue_after(cues: Phrases, fact: Fact, claim: ClaimText) -> Hit | None:
    """The cue word right after `fact` that makes it the subject's value ("at $58.75 it's the lowest-priced service",
    "£268.00 is the cheapest"): only a link (it's, is, the) stands between."""
    at = fact.end - claim.start
    link = _LINK_AFTER.match(claim.text, at)
    hit = next((h for h in claim_hits(cues, claim.text) if h.start >= at), None)
    return hit if link is not None and hit is not None and hit.start == link.end() else None


_LINK_AFTER = re.compile(r"(?i)\s*(?:(?:it|that|which|this)(?:['’]s|\s+is)|is|was)\s+(?:the\s+)?")
"""What stands between an amount and the cue word that follows it ("$58.75 it's the lowest", "£268 is the cheapest");
a comma does not ("$154，最便宜的是 HAT078": the cue opens a clause of its own)."""


_HELD: tuple[str, dict[Phrases, list[Hit]]] = ("", {})
"""The claim text `claim_hits` last read, and the hits of each lexicon list in it."""


def claim_hits(cues: Phrases, text: str) -> list[Hit]:
    """`cues.finditer(text)` of a claim's text, remembered for that text (every amount of a claim asks again).

    Args:
        cues: A lexicon list's phrases (`per_unit_words`, `total_words`).
        text: The claim's text.

    Returns:
        The hits, in order.
    """
    held = _HELD
    if held[0] is not text:  # a new claim: replaced whole, so a reader only ever sees one text's hits
        held = _hold(text)
    hits = held[1].get(cues)
    if hits is None:
        hits = held[1][cues] = cues.finditer(text)
    return hits


def _hold(text: str) -> tuple[str, dict[Phrases, list[Hit]]]:
    global _HELD
    held: tuple[str, dict[Phrases, list[Hit]]] = (text, {})
    _HELD = held  # it holds the text: no other string can take its identity while it is held
    return held


def said_per_unit(fact: Fact, claim: ClaimText, lex: Lexicon) -> bool:
    """Whether the claim says an amount is one unit's: a per-unit word in its clause ("$275 per person …, so the fare
    difference of $45": per person is the $275's, and the clause's), or a slash and a unit right after it ("$120.00/
    night", "¥580.00/张")."""
    return bool(claim_hits(lex.per_unit_words, claim.text[slice(*clause_bounds(fact, claim))])) \
        or PER_SLASH.match(claim.text[_past_emphasis(fact, claim) :]) is not None


def priced_per_unit(fact: Fact, claim: ClaimText, lex: Lexicon) -> bool:
    """Whether an amount of money is a rate of one unit by the words right beside it, no other number between:
    "每件 50 美元", "£10 per guest", "$50 each", "€12.00/day" (not "共 100 美元" of a clause that also says "每件")."""
    if fact.unit not in lex.currency_codes:
        return False
    at, end = fact.start - claim.start, _past_emphasis(fact, claim)
    before = claim.text[max(0, at - _RATE_REACH) : at]
    after = claim.text[end : end + _RATE_REACH]
    before, after = _NUMBER.split(before)[-1], _NUMBER.split(after)[0]
    return bool(claim_hits(lex.per_unit_words, before) or claim_hits(lex.per_unit_words, after)) \
        or PER_SLASH.match(claim.text[end:]) is not None


def _past_emphasis(fact: Fact, claim: ClaimText) -> int:
    """Where the claim's text goes on after an amount, past its emphasis ("**$4.10** in total")."""
    at = fact.end - claim.start
    return at + len(claim.text) - at - len(claim.text[at:].lstrip("*_"))


def claims_a_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether a number is claimed as a total: an amount of money labelled so, or the first after a total word
    ("The total for all 3 passengers is $612"; not the nights' 688 元 before 两晚合计 1,476 元), or the one a total
    word follows ("$612 in total"), and the claim has no per-unit word ("each", "per person")."""
    lex = index.lex
    if fact.unit not in lex.currency_codes or not fact.value or said_per_unit(fact, claim, lex):
        return False
    at = _past_emphasis(fact, claim)
    after = claim.text[at : at + _AFTER]  # "$612 in total"
    rest = claim.text[at : at + 2 * _AFTER].lstrip().lower()
    if any(rest.startswith(word) for words in lex.difference_words.values() for word in words if word.isascii()):
        return False  # "$408.80 in total — $151.20 more than your current car": a difference, not the total
    if "total" in (fact.concept or "").split("+") or cue_before(lex.total_words, fact, claim) is not None:
        return True
    if party_follows(rest):
        return True  # "$389 for both of you": the party's total
    following = after.lstrip()  # "$612 in total"; not "¥728，合计 ¥1,416", whose total word opens the next clause
    return any(hit.start <= 2 and not _CLAUSE_MARKS.search(following, 0, hit.start)
               for hit in lex.total_words.finditer(following))


def moved_in_full(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether an amount of money is said to have moved, in its own clause and with no per-unit word or count of one
    there ("the fare difference of $45 has been charged"; not "那 1 个 … $22.75 已退回"): all that moved, so a per-unit
    amount is no such thing. It may still be a difference (a price difference charged), so this is no total's role."""
    if fact.unit not in index.lex.currency_codes or not fact.value:
        return False
    begin, stop = clause_bounds(fact, claim)
    clause = claim.text[begin:stop]
    return bool(_MOVED.search(clause) and index.lex.directions_in(clause.lower())) \
        and not claim_hits(index.lex.per_unit_words, clause) and not _one_counted(claim, begin, stop)


def to_move(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether an amount of money is what a refund or charge moves, done or to be, by a word of the way money moves
    in its clause with no other amount between them ("you'll get $24.99 back", "That's an extra $45.00, charged just
    now"; not "$690 vs the $205 you paid"), in a claim that says no unit's amount ("per person", "$45 a ticket",
    "/night"), no one unit among several ("the first night", 第 3 期), no count of one in the clause and no working
    (a count times the amount that the claim gives too: "7 more monthly fees of $18.00, i.e. $126.00"); no table's
    row.

    Args:
        fact: A number of the claim.
        index: The run's evidence.
        claim: The claim.

    Returns:
        Whether the amount is all that moves.
    """
    text = claim.text
    if fact.unit not in index.lex.currency_codes or not fact.value or text.lstrip().startswith("|"):
        return False
    begin, stop = clause_bounds(fact, claim)
    clause = text[begin:stop]
    hits = [h.start for h in index.lex.direction_words.finditer(clause.lower())] + \
        [m.start() for m in _BACK.finditer(clause)]
    if not hits or claim_hits(index.lex.per_unit_words, text) or _ONE_OF.search(text):
        return False  # most amounts are said to move nowhere: the clause's way words are read first
    amounts = [f for f in claim.facts if f.kind == FactKind.NUMBER and f.unit == fact.unit and f.value]
    if any(_A_UNIT.match(text, f.end - claim.start) or PER_SLASH.match(text, f.end - claim.start) for f in amounts):
        return False
    claimed = Decimal(fact.value)
    counts = {Decimal(f.value) for f in claim.facts if f.kind == FactKind.NUMBER and f.value and f.unit != fact.unit}
    if any(Decimal(f.value) == claimed * n for f in amounts for n in counts if n > 1):
        return False
    if PER_WORK.search(clause) or _one_counted(claim, begin, stop):
        return False
    at, end = fact.start - claim.start - begin, fact.end - claim.start - begin
    others = [f.start - claim.start - begin for f in amounts if f is not fact and begin <= f.start - claim.start < stop]
    return any(not any(min(h, at) < o < max(h, end) for o in others) for h in hits)


def _one_counted(claim: ClaimText, begin: int, stop: int) -> bool:
    """Whether a count of one stands in the clause from `begin` to `stop` of the claim's text ("那 1 个")."""
    return any(f.kind == FactKind.NUMBER and f.value == "1" and begin <= f.start - claim.start < stop
               for f in claim.facts)


def clause_bounds(fact: Fact, claim: ClaimText, labelled: bool = False) -> tuple[int, int]:
    """Where the clause a number stands in starts and ends in the claim's text: between the clause marks around it;
    `labelled`, with the label a colon ends right before it ("Charged: $50.00")."""
    at, end = fact.start - claim.start, fact.end - claim.start
    marks = list(_CLAUSE_MARKS.finditer(claim.text))
    before = [m for m in marks if m.end() <= at]
    begin = before[-1].end() if before else 0
    if labelled and before and before[-1].group() in ":：" and not claim.text[begin:at].strip():
        begin = before[-2].end() if len(before) > 1 else 0
    stop = min((m.start() for m in marks if m.start() >= end), default=len(claim.text))
    return begin, stop


def fits_role(fact: Fact, how: str, index: EvidenceIndex, claim: ClaimText) -> bool:
    """Whether a derivation fits the number's role: a claimed total is a sum or product, never a difference, a
    quotient or a mean of other numbers (the reason `how` names the operation: "number equals 3.5 − 3")."""
    if not claims_a_total(fact, index, claim):
        return True
    return not any(op in how for op in (" − ", " ÷ ", "(1 − ", "the mean of"))


def line_quantity(index: EvidenceIndex, call: int, path: str) -> Decimal | None:
    """The quantity field beside a price in its record (`items[1].quantity` of `items[1].price`), if any.

    Args:
        index: The run's evidence.
        call: The call whose output holds the price.
        path: The price's path in that output.

    Returns:
        The quantity, or None when the record gives none.
    """
    parts = PATH_STEP.findall(path)
    record = index.value_at(call, join_path(parts[:-1]))
    if not isinstance(record, dict):
        return None
    for field, value in record.items():
        if field_name(str(field)) in index.lex.quantity_fields and isinstance(value, int | float):
            if not isinstance(value, bool):
                return Decimal(str(value))
    return None


def comparable(
    index: EvidenceIndex,
    call: int,
    path: str,
    available_only: bool = False,
    lists_only: bool = False,
    option_lists: bool = False,
    party: int = 1,
) -> list[tuple[Decimal, str, Any]]:
    """The numbers of the same field in the claimed one's siblings, with their paths (itself included): the
    items of the nearest list holding it, or the entries of the nearest mapping of records (not `lists_only`);
    with `option_lists`, only a list or mapping the lexicon names as options (`flights`, `variants`); with
    `available_only`, only the options that can be had by a party of `party` (`eligible.why_not`)."""
    value = index.flats[call].value
    parts = PATH_STEP.findall(path)
    if not parts:
        return []
    read = index.lex.read_only_tools.match(index.calls[call].name or "") is not None
    out: list[tuple[Decimal, str, Any]] = []
    for at in range(len(parts) - 2, -1, -1):  # the nearest list or mapping of records holding the field
        container = value_in(value, join_path(parts[:at]))
        if isinstance(container, list) and parts[at].startswith("["):
            keys: Iterator[Any] = (f"[{i}]" for i in range(len(container)))
        elif isinstance(container, dict) and not lists_only and not parts[at].startswith("[") and len(container) > 1:
            keys = iter(container)
        else:
            continue
        name = parts[at - 1] if at else ""
        if option_lists and field_name(name) not in index.lex.option_lists and not (at == 0 and read):
            continue  # a list the lexicon names as options, or the whole output of a read (the flights found)
        field = join_path(parts[at + 1 :])
        cabin = parts[-1] if len(parts) - at > 2 else None  # `prices.economy`: its seats are `economy`'s too
        for key in keys:
            record = container[int(key[1:-1])] if isinstance(container, list) else container[key]
            number = value_in(record, field)
            if isinstance(number, bool) or not isinstance(number, int | float | str):
                continue
            try:
                amount = Decimal(str(number))
            except InvalidOperation:
                continue
            if available_only and (why_not(index.lex, record, party, cabin) or _inner_not(index, record, field, party)):
                continue
            out.append((amount, join_path([*parts[:at], key, *parts[at + 1 :]]), record))
        if len(out) > 1:
            return out
        out = []
    return out


def _inner_not(index: EvidenceIndex, record: Any, field: str, party: int) -> bool:
    """Whether the part of an option that holds the field cannot be had (`cabins[1].available: false` of a
    sailing's `cabins[1].price_pp`; `seats.second_class.left: 0`)."""
    parent = join_path(PATH_STEP.findall(field)[:-1])
    inner = value_in(record, parent) if parent else None
    return isinstance(inner, Mapping) and bool(why_not(index.lex, inner, party))


def join_path(parts: list[str]) -> str:
    """A path from its segments (`["flights", "[0]", "price"]` -> `flights[0].price`)."""
    return "".join(p if p.startswith("[") else f".{p}" for p in parts).lstrip(".")


def num_text(value: Decimal) -> str:
    """A decimal as a person writes it: no exponent, no trailing zeros of a whole number."""
    return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)


def plus_text(parts: list[Decimal]) -> str:
    """Amounts joined by " + " in brackets ("(364 + 248)"), or the one amount."""
    return "(" + " + ".join(num_text(p) for p in parts) + ")" if len(parts) > 1 else num_text(parts[0])


def plain_duration(fact: Fact, labels: frozenset[str], loc: Located, lex: Lexicon) -> bool:
    """Whether a number the claim names by its unit of days alone ("已休 4 天", "10 days") may be the value of a field
    of another name (`annual_leave_used`, `accrual_per_month`): a unit names no field; no amount of money is one.

    Args:
        fact: The claim's number.
        labels: The field labels the claim gives it.
        loc: A tool's number equal to it.
        lex: The lexicon.

    Returns:
        Whether the tool's number may be the one the claim says.
    """
    return bool(labels) and labels <= lex.duration_labels and fact.unit not in lex.currency_codes \
        and not loc.leaf.labels & lex.money_labels


def plain_amount_word(before: str, labels: frozenset[str], lex: Lexicon) -> bool:
    """Whether the last word of a number's field in the claim's text before it names an amount and nothing of what it
    is (金额, amount; lexicon `plain_amount_words`): a word of paying (paid, 缴了) names a field of its own.

    Args:
        before: The claim's text before the number.
        labels: The field labels the claim gives the number.
        lex: The lexicon.

    Returns:
        Whether that word is a plain word of an amount.
    """
    words = [hit.key for hit in lex.field_phrases.finditer(before) if lex.field_of[hit.key] in labels]
    return bool(words) and words[-1] in lex.plain_amount_words
