"""Which way money moved: an amount the answer calls a charge that the records give as a refund, or the reverse."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.naming import LIST_ITEM
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.lexicon import field_name
from factcheck.report import Fact, FactKind, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Located
    from factcheck.lexicon import Lexicon
    from factcheck.phrases import Hit

_AN_ITEM = re.compile(r"\[\d+\]\.(?:[^.\[\]]*price|amount)$")
"""The price (or amount) of one entry of a list: `items[1].price`, `lines[0].unit_price`."""
_DONE = re.compile(r"(?i)\b(?:has|have|had)\s+(?:been\s+|now\s+|already\s+)*\w+|\b(?:was|were)\s+\w+ed\b|已")
"""A clause that says the money already moved ("has been refunded", "was credited", 已退款)."""
_FIELD = re.compile(r"^(.*)\.([^.\[\]]+)$")
"""A leaf's record and field: `payment_history[1].amount` -> (`payment_history[1]`, `amount`)."""
_CONTAINER = re.compile(r"(?:^|\.)([^.\[\]]+)(\[\d+\]|\.[^.\[\]]+)\.[^.\[\]]+$")
"""The list or mapping a field's record sits in: `items[1].price` -> `items`; `variants.9083642334.price` ->
`variants`."""
_AFTER_DEDUCTION = re.compile(r"后|\bafter\b")
"""What ends a deduction ("扣掉 ¥386 后"): the amount is taken off what follows."""
_WORKING = re.compile(r"[×*/]|\bx\s*\d|\d\s*x\b")
"""A product or a per-unit slash in a clause: it shows an amount as one part of a whole."""
_PLAIN_AMOUNTS = frozenset({"amount", "total", "amount total"})
"""Field names that say no way of their own: a write's name says it (`create_refund` -> `amount`)."""
_NEGATOR_REACH = 8
"""How far before a direction word a negator denies it ("无法退回", "won't be refunded")."""
_CREDIT_WORDS = frozenset({"credit", "credits", "reversal"})
_DEBIT_WORDS = frozenset({"debit", "debits"})
"""Words of a field's own name that say which way its amount moved (`total_credit`, `debit_amount`)."""
_STANDING = frozenset({"balance", "limit", "outstanding"})
"""Last words of a field's name that make its amount what stands on an account (`current_balance`, `credit_limit`),
not money that moved, unless the name says where it went (`credit_to_balance`)."""
_FEE_WORDS = frozenset({"fee", "fees", "penalty", "手续费", "费"})
"""Words of a field's own name that make its amount money kept (`refund_fee`), whatever way its other words say."""
_PRICE = frozenset({"price"})
"""The label of an item's or an option's price."""


def direction_of(loc: Located, index: EvidenceIndex) -> str | None:
    """The way an amount of a tool output moved (`refund` or `charge`), when its record says.

    A sibling field names it (`"transaction_type": "refund"`, `"desc": "Payment - ACH"`), else the amount's own
    field does (`refund_amount`, `total_credit`), else its sign (a negative amount in a payment history is money paid
    back; not in a list whose every amount is negative, `_signed_alike`).
    A fee (`cancellation_fee`, `refund_fee`) is money kept, whatever way its record moved: it has none.
    """
    leaf = loc.leaf
    if leaf.source != "tool" or leaf.count:
        return None
    lex = index.lex
    match = _FIELD.match(leaf.path)
    record = index.value_at(leaf.index, match[1]) if match else index.value_at(leaf.index, "")
    name = field_name(leaf.path.rsplit(".", 1)[-1])
    words = set(name.split())
    if _standing(name):
        # `current_balance`, `credit_limit`, `available_credit` beside `type: credit`: what stands on the account
        # moved no way, unless its sign says the account owes the user (`final_balance: -86.75`)
        return "refund" if leaf.numeric and leaf.text.startswith("-") else None
    if words & _FEE_WORDS:
        return None  # `cancellation_fee` beside `type: refund`, `refund_fee`: the fee is kept, no money paid back
    if isinstance(record, dict):
        for key, value in record.items():
            if isinstance(value, str) and lex.direction_fields.lookup(field_name(str(key))) is not None:
                said = lex.directions_in(value.lower()) or (
                    {"charge"} if lex.charge_values.search(value) else {"refund"} if lex.refund_values.search(value)
                    else set()
                )
                if len(said) == 1:
                    return next(iter(said))
        if (said := _described_way(record, lex)) is not None:
            return said
    own = lex.directions_in(name) or (
        {"refund"} if words & _CREDIT_WORDS else {"charge"} if words & _DEBIT_WORDS else set()
    )  # `total_credit`, `refund_amount`, `debit_amount`
    if len(own) == 1:
        return next(iter(own))
    if leaf.numeric and leaf.text.startswith("-") and not _signed_alike(leaf.path, leaf.index, index):
        return "refund"
    return None


def _described_way(record: dict, lex: Lexicon) -> str | None:
    """The way a record's text field says by its first word (`"desc": "Payment - ACH"`, "Refund for order"; not
    "Tuition (15 credits)"): lexicon `direction_text_fields`, read with the direction words and their values."""
    for key, value in record.items():
        if not isinstance(value, str) or lex.direction_text_fields.lookup(field_name(str(key))) is None:
            continue
        low = value.strip().lower()
        said = {lex.direction_of[hit.key] for hit in lex.direction_words.finditer(low) if hit.start == 0}
        said |= {way for way, values in (("charge", lex.charge_values), ("refund", lex.refund_values))
                 if any(hit.start == 0 for hit in values.finditer(low))}
        if len(said) == 1:
            return next(iter(said))
    return None


def _signed_alike(path: str, call: int, index: EvidenceIndex) -> bool:
    """Whether every amount of a field in its list is negative (a card's purchases: -48.12, -86.47, -15.49; a
    ledger's credits): the sign is how the list writes them all, not the mark of money paid back among charges."""
    item = LIST_ITEM.match(path)
    field = path[item.end() :] if item else ""
    if item is None or "." in field or "[" in field:
        return False  # no list entry's own field (`transactions[1].amount`)
    entries = index.value_at(call, item[1])
    if not isinstance(entries, list):
        return False
    amounts = [entry.get(field) for entry in entries if isinstance(entry, dict)]
    numbers = [a for a in amounts if isinstance(a, int | float) and not isinstance(a, bool)]
    return len(numbers) > 1 and all(a < 0 for a in numbers)


def _taken_off(low: str, at: int | None, lex: Lexicon) -> bool:
    """Whether the amount is taken off a bill: a deduction word before it, with a credit word between the two
    ("已扣除忠诚度优惠 ¥25") or "after" following it ("扣掉 ¥386 后应付", "扣除奖学金 ¥2,000 和 … 后")."""
    if at is None:
        return False
    deductions = [h for h in lex.deduction_words.finditer(low) if h.end <= at]
    if not deductions:
        return False
    between = low[deductions[-1].start : at]
    return bool(lex.credit_objects.finditer(between)) or bool(_AFTER_DEDUCTION.search(low, at))


def _standing(name: str) -> bool:
    """Whether a field's name (`field_name`) makes its amount one that stands on an account: its last word a balance
    or a limit, or its first `available` (`available_credit`), and no `to` or `from` of a movement."""
    words = name.split()
    return bool(words) and not {"to", "from"} & set(words) and (words[-1] in _STANDING or words[0] == "available")


def _denied(low: str, hits: list[Hit], lex: Lexicon) -> bool:
    """Whether every direction word of the clause (`hits` in `low`) is negated ("已付的 ¥5,280 无法退回", "will not be
    refunded"): the clause says the money does not move that way, not that it moved the other."""
    return bool(hits) and all(
        lex.negators.finditer(low[max(0, hit.start - _NEGATOR_REACH) : hit.start]) for hit in hits
    )


def wrong_direction(fact: Fact, clause: str, index: EvidenceIndex, at: int | None = None) -> bool:
    """Contradict a backed amount said to move one way when every record of it moved the other.

    "A charge of $30.78 has been processed" where the only 30.78 of the outputs is a
    `payment_history` entry with `"transaction_type": "refund"`: the money went back to the user.

    Args:
        fact: A supported amount of money.
        clause: The words around it in its clause (its direction words are read there).
        index: The run's evidence.
        at: Where the amount starts in `clause`: of two ways said, the word nearest to it is the amount's
            ("退回时银行又从您的账户扣除了 ¥2,775.00": deducted).

    Returns:
        Whether the fact was contradicted.
    """
    lex = index.lex
    if fact.kind != FactKind.NUMBER or fact.unit not in lex.currency_codes or not fact.value:
        return False  # only amounts of money have a direction: their words are not read for the others
    for hit in reversed(lex.payment_methods.finditer(clause)):  # "微信支付 ¥149" names a method, not a direction
        clause = clause[: hit.start] + " " * (hit.end - hit.start) + clause[hit.end :]
    low = clause.lower()
    hits = lex.direction_words.finditer(low)
    if at is not None:  # "扣除自付部分后应退 2,080.50 元": a deduction closed by 后 before the amount is not its way
        hits = [h for h in hits if not (h.end <= at and lex.deduction_words.finditer(low[h.start : h.end])
                                        and _AFTER_DEDUCTION.search(low, h.end, at))]
    said = {lex.direction_of[hit.key] for hit in hits}
    if len(said) > 1 and at is not None:
        nearest = min(hits, key=lambda h: at - h.end if h.end <= at else h.start - at)
        said = {lex.direction_of[nearest.key]}
    if len(said) != 1 or (said == {"charge"} and _taken_off(low, at, lex)) or _denied(low, hits, lex):
        return False
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    found = index.equal_numbers([(claimed, exponent), (-claimed, exponent)])
    # an amount of money is none of the numbers of a count or a measure ("$14.00" is no `days_remaining: 14`)
    tools = [loc for loc in found if loc.leaf.source == "tool" and not loc.leaf.labels & lex.not_money_labels]
    new = [loc for loc in tools if _written_now(loc, index)]
    # "has been charged $1,308.00" after a cancellation: the entry the write added (-1308) says which way it went,
    # not the payment the booking recorded before (1308 in the read and again in the write's copy of the history)
    ways = [(direction_of(loc, index), loc) for loc in (new or tools)]
    exchange: tuple[str, Located, str] | None = None
    if not ways or any(way is None for way, _ in ways):
        # "a charge of $17.99" for a lamp swapped for a cheaper variant (153.23 − 135.24): the money comes back
        exchange = exchange_way(claimed, exponent, index)
        if exchange is None:
            return False  # an amount some output gives without saying which way it went
        ways = [(exchange[0], exchange[1])]
    if lex.hedges.search(clause) and not new and exchange is None:
        return False  # "you will be refunded $X", "If #W1 is older: $X refunded": no write has moved it yet
    claim_way = next(iter(said))
    if any(way == claim_way for way, _ in ways):
        return False
    if claim_way == "refund" and not new and exchange is None and not _DONE.search(clause):
        return False  # "Refund amount: $1,527.24" of the amount paid, as an option: what a cancellation gives back
    way, loc = ways[0]
    how = exchange[2] if exchange is not None else None
    set_verdict(fact, Verdict.CONTRADICTED, "wrong_direction",
                f"the records give {fact.text} as a {way} ({how or loc.leaf.path}), the answer as a {claim_way}",
                [evidence_of(loc.leaf, index, how)])
    return True


def exchange_way(claimed: Decimal, exponent: int, index: EvidenceIndex) -> tuple[str, Located, str] | None:
    """The way the price difference of a swap moves: an ordered item's price (an entry of a list that is no
    option list: an order's `items`) less an option's (lexicon `option_lists`: `variants`) is `claimed` or its
    negative. A cheaper option gives money back (`refund`), a dearer one takes more (`charge`); None when no pair
    or pairs of both ways give it. Returns the way, the option's price and the computation.

    Args:
        claimed: The amount said.
        exponent: The exponent of its last written digit.
        index: The run's evidence.
    """
    ordered, options = [], []
    for locs in index.money_numbers():
        for loc in locs:
            parts = _CONTAINER.search(loc.leaf.path)
            if parts is None or not loc.leaf.labels & _PRICE:
                continue
            if field_name(parts[1]) in index.lex.option_lists:
                options.append(loc)
            elif parts[2].startswith("["):
                ordered.append(loc)
    found: dict[str, tuple[Located, str]] = {}
    for old in ordered:
        for option in options:
            if old.leaf.index == option.leaf.index or not _same_product(old, option, index):
                continue  # the same call's prices, or another product's options: no swap of the ordered item
            gap = Decimal(old.mention.value) - Decimal(option.mention.value)
            if gap and equal_at(abs(gap), claimed, exponent):
                how = f"the ordered item's {old.leaf.text} ({old.leaf.path}) less the option's {option.leaf.text}"
                found.setdefault("refund" if gap > 0 else "charge", (option, f"{how} = {gap.normalize():f}"))
    if len(found) != 1:
        return None
    way, (option, how) = next(iter(found.items()))
    return way, option, how


def _same_product(ordered: Located, option: Located, index: EvidenceIndex) -> bool:
    """Whether the options' output names the ordered item's product: a top-level string of it (`product_id`,
    `name`) is a value of the item's record."""
    match = _FIELD.match(ordered.leaf.path)
    item = index.value_at(ordered.leaf.index, match[1]) if match else None
    product = index.value_at(option.leaf.index, "")
    if not isinstance(item, dict) or not isinstance(product, dict):
        return False
    held = {v for v in item.values() if isinstance(v, str)}
    return any(isinstance(v, str) and v in held for v in product.values())


def _written_now(loc: Located, index: EvidenceIndex) -> bool:
    """Whether an amount is in an entry a write call's output added: one in none of the lists earlier reads of
    the same record gave (`payment_history` of `cancel_reservation` against that of `get_reservation_details`
    for the same reservation); with no earlier read, every entry the write gives."""
    call = loc.leaf.index
    if index.lex.read_only_tools.match(index.calls[call].name or ""):
        return False
    keys = index.record_keys(call)
    same = [i for i in range(call) if keys and keys & index.record_keys(i)]  # earlier calls of the same record
    match = _FIELD.match(loc.leaf.path)
    if match is None or not match[1].endswith("]"):  # a field of the write's own (`exchange_price_difference`)
        return all(index.value_at(i, loc.leaf.path) != index.value_at(call, loc.leaf.path) for i in same)
    head = match[1].rsplit("[", 1)[0]
    earlier = [entries for i in same if isinstance(entries := index.value_at(i, head), list)]
    return all(index.value_at(call, match[1]) not in entries for entries in earlier)  # no read of it: all new


def item_price_as_refund(
    fact: Fact, located: list[Located], index: EvidenceIndex
) -> tuple[Decimal, str, Located] | None:
    """The refund a write recorded in this run, when a claimed refund is only one item's price of a list of several
    ("Refund: $45.39" of a cancelled order of two items whose cancellation recorded a refund of $98.10): the whole
    refund is what the write gave back.

    Args:
        fact: A money number labelled a refund, that tool outputs hold.
        located: The tool numbers equal to it.
        index: The run's evidence.

    Returns:
        (the refund recorded, how, where), or None when it is no such item price or no write recorded one refund.
    """
    if "refund" not in (fact.concept or "").split("+") or fact.unit not in index.lex.currency_codes or not located:
        return None
    if any(loc.leaf.source != "tool" or not _AN_ITEM.search(loc.leaf.path) or not _among_several(loc, index)
           or direction_of(loc, index) is not None for loc in located):
        return None  # the claimed value is some record's own refund or payment, or no item's price
    claimed = Decimal(fact.value or "0")
    refunds = _written_ways(index).get("refund", {})
    if len(refunds) != 1:
        return None
    total, where = next(iter(refunds.items()))
    if total <= claimed:
        return None
    return total, f"a refund of {total.normalize():f} ({where.leaf.path}; {fact.text} is one item's price)", where


def _among_several(loc: Located, index: EvidenceIndex) -> bool:
    """Whether the list entry a number sits in has siblings: one item of several."""
    head = loc.leaf.path[: loc.leaf.path.rfind("[")]
    entries = index.value_at(loc.leaf.index, head)
    return isinstance(entries, list) and len(entries) > 1



def part_of_written(
    fact: Fact, clause: str, index: EvidenceIndex, said_too: Callable[[Decimal], bool]
) -> tuple[Decimal, str, Located] | None:
    """The whole a write of this run recorded moving, when a claimed charge or refund is one of its equal parts and
    its clause says no part ("I charged the $34 difference" where the change recorded one payment of $68 for two
    travellers).

    Args:
        fact: A money number of the claim.
        clause: The clause it stands in (its way: charged, refunded, 扣款, 退回).
        index: The run's evidence.
        said_too: Whether the claim gives an amount (the whole beside its part).

    Returns:
        (the whole, how, where the write gives it), or None.
    """
    lex = index.lex
    if fact.unit not in lex.currency_codes or not fact.value:
        return None
    ways = lex.directions_in(clause.lower())
    claimed = Decimal(fact.value)
    if len(ways) != 1 or claimed <= 0 or lex.per_unit_words.search(clause) or _WORKING.search(clause):
        return None  # "$24.00 x 3 passengers", "¥68.00/个": the claim shows the part as a part
    way = next(iter(ways))
    written = _written_ways(index).get(way, {})
    if len(written) != 1:
        return None
    whole, where = next(iter(written.items()))
    times = whole / claimed
    if times < 2 or times != times.to_integral_value() or times == 100 or said_too(whole):
        return None  # the whole is said beside it ("$642 (3 × $214)"); 13500 of ¥135.00 is in fen
    tool = index.calls[where.leaf.index].name
    return whole, (f"one {way} of {whole.normalize():f} recorded by {tool} ({where.leaf.path}); {fact.text} is one "
                   f"of {times.normalize():f} equal parts of it"), where


_WRITTEN: weakref.WeakKeyDictionary[EvidenceIndex, dict[str, dict[Decimal, Located]]] = weakref.WeakKeyDictionary()
"""Per run (its index, while it lives): way -> amount -> where a write of the run recorded moving it."""


def _written_ways(index: EvidenceIndex) -> dict[str, dict[Decimal, Located]]:
    """The amounts of money the run's writes recorded moving this run, by way (read once per run)."""
    ways = _WRITTEN.get(index)
    if ways is None:
        ways = {}
        for call in index.money_numbers():
            for loc in call:
                way = direction_of(loc, index) or _payment_entry_way(loc) or _tool_way(loc, index)
                if way is not None and _written_now(loc, index):
                    ways.setdefault(way, {})[abs(Decimal(loc.mention.value))] = loc
        _WRITTEN[index] = ways
    return ways


def _tool_way(loc: Located, index: EvidenceIndex) -> str | None:
    """The way a write's plain amount moved by the tool's name: the `amount` `create_refund` returned is refunded (not
    its arguments', nor a list entry's)."""
    leaf = loc.leaf
    if field_name(leaf.path) not in _PLAIN_AMOUNTS or "[" in leaf.path or leaf.path.startswith("args"):
        return None
    ways = index.lex.directions_in(field_name(index.calls[leaf.index].name or ""))
    return next(iter(ways)) if len(ways) == 1 else None


def _payment_entry_way(loc: Located) -> str | None:
    """The way an entry of a payment list moved by its sign, where nothing else says (`payment_history[1].amount`:
    68 was paid, -68 paid back); read only for what a write added this run."""
    match = _CONTAINER.search(loc.leaf.path)
    if match is None or "payment" not in field_name(match[1]):
        return None
    return "refund" if loc.leaf.text.startswith("-") else "charge"
