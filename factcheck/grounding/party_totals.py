"""Totals of a party or of alike items: the legs of a trip times its travellers, one ticket's amounts times the
tickets, where the answer's total is one traveller's or one ticket's."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.counting import record_lists
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.multiplicity import run_multiplicity
from factcheck.grounding.roles import (
    PRICE_LABELS,
    ClaimText,
    Recomputed,
    claims_a_total,
    num_text,
    plus_text,
    said_per_unit,
)
from factcheck.report import Fact


def per_unit_sum_as_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """A claimed total that is the sum of one list's prices (the legs of a trip) where the run lists several
    travellers: the total is the count times that sum ("3 passengers × (364 + 248)", not 612).

    Args:
        fact: A money number labelled `total`, backed only by arithmetic.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The recomputed total, or None.
    """
    if not claims_a_total(fact, index, claim):
        return None
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    for call in range(len(index.calls)):
        times, what = run_multiplicity(index, call)
        if times < 2 or not any(leaf.index == call and leaf.path == what for _, leaf in index.list_counts):
            continue  # the legs of the record that lists the travellers; a search's options are no legs of a trip
        for shape, (values, _, _) in index.flats[call].numbers.items():
            if "[]" not in shape or len(values) < 2 or not index.path_info(shape)[0] & PRICE_LABELS:
                continue
            if shape.startswith(what + "[]"):
                continue  # a price per seat or passenger: their sum is the total
            legs = [Decimal(str(v)) for v in values]
            if equal_at(sum(legs), claimed, exponent) and not equal_at(sum(legs) * times, claimed, exponent):
                total = sum(legs) * times
                where = index.number_at(call, shape.replace("[]", "[0]", 1))
                if where is not None:
                    return Recomputed(total, f"{times} {what} × {plus_text(legs)} = {num_text(total)}", where)
    return None


_LONGEST_LINES = 8
"""Most lines of one list whose subsets a sum of prices is looked for in."""


def quantities_dropped(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """An amount that adds up some lines' prices of one list, leaving out a quantity above one ("Refund: $80.49" of
    2 lamps at 34.99 and a hub at 45.50), where the lines' prices times their quantities come to an amount of money
    a tool gives (the cancellation's `refund.amount` 115.48): the records' amount is that.

    Args:
        fact: An amount of money backed only by arithmetic.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The recomputed amount, or None; None too for an amount said per unit (每人 404 美元) or one that a field adds
        up to over a whole list of lines of one each (a return's own lines).
    """
    if fact.unit not in index.lex.currency_codes or not fact.value or said_per_unit(fact, claim, index.lex):
        return None
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    for leaf, items in record_lists(index):  # call by call
        if len(items) > _LONGEST_LINES:
            continue
        price = next((k for k in items[0] if index.path_info(f"{leaf.path}[].{k}")[0] & PRICE_LABELS), None)
        qty = next((k for k in items[0] if _is_quantity(index, f"{leaf.path}[].{k}")), None)
        lines = [(Decimal(str(item[price])), item[qty]) for item in items if price and qty
                 and isinstance(item.get(price), int | float) and isinstance(item.get(qty), int)]
        if len(lines) != len(items):
            continue
        for size in range(1, len(lines) + 1):
            for chosen in combinations(lines, size):
                if all(q <= 1 for _, q in chosen) or not equal_at(sum(p for p, _ in chosen), claimed, exponent):
                    continue
                whole = sum((p * q for p, q in chosen), Decimal(0))
                found = [loc for loc in index.equal_numbers([(whole, -2)]) if loc.leaf.source == "tool"
                         and loc.leaf.labels & (index.lex.money_labels | {"total"})]
                if found and not _lines_total(claimed, exponent, index):
                    how = " + ".join(f"{q} × {num_text(p)}" if q > 1 else num_text(p) for p, q in chosen)
                    return Recomputed(whole, f"{how} = {num_text(whole)} ({found[0].leaf.path})", found[0])
    return None


def _is_quantity(index: EvidenceIndex, shape: str) -> bool:
    """Whether a list entry's field gives how many of it a line holds (`qty`, `quantity`: the lexicon's `quantity`
    field words)."""
    return "quantity" in index.path_info(shape)[0]


def _lines_total(claimed: Decimal, exponent: int, index: EvidenceIndex) -> bool:
    """Whether a money field adds up to the amount over every entry of a list none of whose entries holds more than
    one (a return's lines at `qty: 1`, each with its `refund_amount`): the amount is that list's total."""
    for leaf, items in record_lists(index):
        if any(isinstance(v, int) and not isinstance(v, bool) and v > 1 for item in items for k, v in item.items()
               if _is_quantity(index, f"{leaf.path}[].{k}")):
            continue
        for key, value in items[0].items():
            if not isinstance(value, int | float) or isinstance(value, bool) \
                    or not index.path_info(f"{leaf.path}[].{key}")[0] & index.lex.money_labels:
                continue
            column = [item.get(key) for item in items]
            if all(isinstance(v, int | float) for v in column) \
                    and equal_at(sum((Decimal(str(v)) for v in column), Decimal(0)), claimed, exponent):
                return True
    return False


def per_item_as_total(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """A claimed total that is one item's amount where the run lists several alike: tickets, seats, rooms or
    travellers (lexicon `multiplicity_fields`) each with the same money fields ("应付总额 ¥392.00" of three tickets
    at 380 + 12 each: the total is 3 × 392 = 1176).

    Args:
        fact: A money number labelled `total`, backed only by arithmetic.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The recomputed total, or None.
    """
    if not claims_a_total(fact, index, claim):
        return None
    claimed, exponent = Decimal(fact.value), -(fact.precision or 0)
    money = index.lex.money_labels
    for count, leaf in index.list_counts:
        if leaf.source != "tool" or leaf.path not in index.lex.multiplicity_fields or count < 2:
            continue
        items = index.value_at(leaf.index, leaf.path)
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            continue
        keys = [k for k, v in items[0].items() if isinstance(v, int | float) and not isinstance(v, bool)
                and index.path_info(f"{leaf.path}[].{k}")[0] & money]
        each = {tuple(item.get(k) for k in keys) for item in items}
        if not keys or len(each) != 1 or not all(isinstance(v, int | float) for v in next(iter(each))):
            continue  # items of different amounts: which one the answer means is another check's
        parts = [Decimal(str(v)) for v in next(iter(each))]
        one = sum(parts, Decimal(0))
        if equal_at(one, claimed, exponent) and not equal_at(one * count, claimed, exponent):
            where = index.number_at(leaf.index, f"{leaf.path}[0].{keys[0]}")
            if where is not None:
                how = f"{count} {leaf.path} × {plus_text(parts)} = {num_text(one * count)}"
                return Recomputed(one * count, how, where)
    return None


def alike_or_counted(fact: Fact, index: EvidenceIndex, claim: ClaimText) -> Recomputed | None:
    """A total that is one of several alike items' amount (`per_item_as_total`), or any amount that adds up lines'
    prices without their quantities (`quantities_dropped`).

    Args:
        fact: An amount of money backed only by arithmetic.
        index: The run's evidence.
        claim: The claim.

    Returns:
        The recomputed amount, or None.
    """
    return per_item_as_total(fact, index, claim) or quantities_dropped(fact, index, claim)
