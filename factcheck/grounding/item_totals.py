"""Totals of named records and items: the prices of the items a claim names, the items of the record it keys."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.calls import said_whole
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

_KEY_LENGTH = 4
"""The shortest key a claim names a list item by (`HAT031`; not `A` or `12`)."""


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
            cut = shape.rindex("[]") + 2  # `[][]` and `.prices.economy`: the legs of one-stop options
            head, field = shape[:cut], shape[cut:]
            items = list(_items_at(flat.value, head))
            by_name = [(path, item) for path, item in items if _names(item, text)]
            # a record named by its key ("HAT031 + HAT198 … $277") backs a sum of its prices, never recomputes one
            named = by_name or [(path, item) for path, item in items if _keyed(item, text, index)]
            prices = [value_in(item, field.lstrip(".")) for _, item in named]
            if not named or not all(isinstance(p, int | float) and not isinstance(p, bool) for p in prices):
                continue
            prices = [Decimal(str(p)) for p in prices]
            if equal_at(sum(prices), claimed, exponent) \
                    or (by_name and len(prices) > 1 and claims_a_total(fact, index, claim)):
                where = index.number_at(call, named[0][0] + field)
                if where is not None:
                    how = f"{plus_text(prices)}, the prices of the items the claim names"
                    return Recomputed(sum(prices), how, where)
    return None


def _items_at(value: Any, head: str, path: str = "") -> Iterator[tuple[str, dict]]:
    """The items of the lists at a shape that ends in a list (`items[]`; each inner list's of `[][]`), with paths."""
    step, _, rest = head.partition("[]")
    node = value_in(value, step.lstrip(".")) if step else value
    if not isinstance(node, list):
        return
    for i, item in enumerate(node):
        if rest:
            yield from _items_at(item, rest, f"{path}{step}[{i}]")
        elif isinstance(item, dict):
            yield f"{path}{step}[{i}]", item


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


def _keyed(item: dict, text: str, index: EvidenceIndex) -> bool:
    """Whether a claim's lower-cased text gives a list item's key (`flight_number` HAT031) as a word of its own."""
    for field, value in item.items():
        if isinstance(value, str) and len(value) >= _KEY_LENGTH and index.is_record_key(field) \
                and said_whole(text, value.lower()):
            return True
    return False


def _names(item: dict, text: str) -> bool:
    """Whether a claim's lower-cased text names a list item by its `name`/`title` (two words or more, or 6+ letters)."""
    for field in ("name", "title", "product_name", "item_name"):
        value = item.get(field)
        if isinstance(value, str) and (len(value) >= 6 or " " in value) and value.lower() in text:
            return True
    return False
