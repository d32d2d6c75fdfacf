"""Totals of named records and items: the prices of the items a claim names, the items of the record it keys."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex, record_key
from factcheck.grounding.flat import value_in
from factcheck.grounding.roles import (
    PRICE_LABELS,
    ClaimText,
    Recomputed,
    claims_a_total,
    equals_value,
    num_text,
    plus_text,
)
from factcheck.report import Fact, FactKind, Verdict


def named_items_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """The prices of the list items the claim names, added up, when they equal its amount ("the refund for the
    Air Purifier and the Robotic Vacuum Cleaner will be $1,126.04": the two items' prices).

    Args:
        fact: An amount of money of the claim.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The sum and how, when it equals the amount, or when the amount is a total of two or more named items
        (then it says what the total is); else None.
    """
    lex = index.lex
    if fact.unit not in lex.currency_codes or not fact.value:
        return None
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    text = claim.text.lower()
    for call, flat in enumerate(index.flats[: len(index.calls)]):
        for shape in flat.numbers:
            if "[]" not in shape or not index.path_info(shape)[0] & PRICE_LABELS:
                continue
            head = shape.rsplit("[]", 1)[0]
            items = value_in(flat.value, head)
            if not isinstance(items, list):
                continue
            named = [(item, item.get(shape.rsplit(".", 1)[-1])) for item in items if isinstance(item, dict)
                     and _names(item, text)]
            prices = [Decimal(str(p)) for _, p in named if isinstance(p, int | float) and not isinstance(p, bool)]
            if not prices or len(prices) != len(named):
                continue
            if equal_at(sum(prices), claimed, exponent) or (len(prices) > 1 and claims_a_total(fact, index, claim)):
                where = index.number_at(call, shape.replace("[]", f"[{items.index(named[0][0])}]", 1))
                if where is not None:
                    how = f"{plus_text(prices)}, the prices of the items the claim names"
                    return Recomputed(sum(prices), how, where)
    return None


def record_items_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """The total of the record a claim names by its key, worked out over its priced items ("Order #W5199551
    with a total of $2025.51" when its five items add up to $3,131.10), for a claimed total of it.

    The record is the latest call output whose key the claim gives (an order, a reservation); its total is the
    sum of its listed items' prices (× their quantity). Nothing is recomputed when the claim names some of the
    items (their own total is `named_items_total`'s), the record has fewer than two priced items, or a money
    field of the record itself gives the amount (a `total`, a payment).

    Args:
        fact: An amount of money of the claim.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The items' total and how, or None.
    """
    if not claims_a_total(fact, index, claim):
        return None
    claimed, exponent = Decimal(fact.value or "0"), -(fact.precision or 0)
    keys = {record_key(f.value or f.text) for f in claim.facts
            if f.kind == FactKind.IDENTIFIER and f.verdict == Verdict.SUPPORTED}
    calls = [i for i in range(len(index.calls)) if keys & index.record_keys(i)]
    if not calls or len({k for i in calls for k in index.record_keys(i) & keys}) != 1:
        return None  # no record, or several: the claim's total may be of any of them
    call = calls[-1]
    output = index.flats[call].value
    if not isinstance(output, dict) or any(equals_value(v, claimed) for v in _money_scalars(output, index)):
        return None
    text = claim.text.lower()
    for field, items in output.items():
        if not isinstance(items, list) or len(items) < 2 or not all(isinstance(i, dict) for i in items):
            continue
        price = next((k for k in items[0] if index.path_info(f"{field}[].{k}")[0] & PRICE_LABELS), None)
        if price is None or any(_names(item, text) for item in items):
            continue
        prices = [value for item in items if isinstance(value := item.get(price), int | float)
                  and not isinstance(value, bool)]
        if len(prices) != len(items):
            continue
        total = sum((Decimal(str(p)) * Decimal(str(item.get("quantity", 1) or 1)) for p, item in
                     zip(prices, items, strict=True)), Decimal(0))
        where = index.number_at(call, f"{field}[0].{price}")
        if where is None or equal_at(total, claimed, exponent):
            return None
        terms = [Decimal(str(p)) for p in prices]
        return Recomputed(total, f"{plus_text(terms)} = {num_text(total)}, the {len(items)} {field} of "
                                 f"{next(iter(index.record_keys(call) & keys))}", where)
    return None


def _money_scalars(record: dict, index: EvidenceIndex) -> Iterator[Any]:
    """The record's own amounts of money: its money fields, and those of a payment list's entries."""
    for key, value in record.items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            labels = index.path_info(str(key))[0]
            if labels & index.lex.money_labels or "total" in labels:
                yield value
        elif isinstance(value, list) and "payment" in str(key).lower():
            amounts = [v.get("amount") for v in value if isinstance(v, dict)]
            yield from (a for a in amounts if isinstance(a, int | float))
            numbers = [Decimal(str(a)) for a in amounts if isinstance(a, int | float) and not isinstance(a, bool)]
            if numbers:
                yield sum(numbers)


def _names(item: dict, text: str) -> bool:
    """Whether a claim's lower-cased text names a list item by its `name`/`title` (two words or more, or 6+ letters)."""
    for field in ("name", "title", "product_name", "item_name"):
        value = item.get(field)
        if isinstance(value, str) and (len(value) >= 6 or " " in value) and value.lower() in text:
            return True
    return False
