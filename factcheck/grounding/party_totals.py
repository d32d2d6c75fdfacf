"""Totals of a party or of alike items: the legs of a trip times its travellers, one ticket's amounts times the
tickets, where the answer's total is one traveller's or one ticket's."""

from __future__ import annotations

from decimal import Decimal

from factcheck.grounding.arithmetic import equal_at
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.multiplicity import run_multiplicity
from factcheck.grounding.roles import PRICE_LABELS, ClaimText, Recomputed, claims_a_total, num_text, plus_text
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
