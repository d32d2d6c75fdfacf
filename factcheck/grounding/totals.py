"""Totals over a list's items: the sum of one field, found by its label or over every column (or its mean)."""

from __future__ import annotations

import math
from decimal import Decimal
from itertools import combinations

from factcheck.grounding.arithmetic import equal_at, sum_text
from factcheck.grounding.evidence import EvidenceIndex, Located
from factcheck.grounding.flat import number_text, shape_of
from factcheck.grounding.verdicts import Backing, evidence_of


def field_total(same_field: list[Located], claimed: Decimal, exponent: int, index: EvidenceIndex) -> Backing | None:
    """The sum of the claim's field over line items (`items[].qty`).

    Args:
        same_field: The tool's numbers of the claim's field.
        claimed: The claimed number.
        exponent: Power of ten of its last written digit.
        index: The run's evidence.
    """
    by_key: dict[str, list[Located]] = {}
    for loc in same_field:
        by_key.setdefault(shape_of(loc.leaf.path), []).append(loc)
    for group in by_key.values():
        if len(group) > 1 and equal_at(sum(Decimal(loc.mention.value) for loc in group), claimed, exponent):
            how = sum_text([loc.mention.value for loc in group])
            return "derived", f"number equals {how}", [evidence_of(group[0].leaf, index, how)]
    return None


def column_total(claimed: Decimal, exponent: int, index: EvidenceIndex) -> Backing | None:
    """The sum or the mean of any one field over a list's items.

    "1,240 pairs across three warehouses" is 85 + 640 + 515; "about 4,117 calls a day"
    is the mean of 4100, 4350 and 3900. Worked out in floats first, in Decimal only for
    a column whose float sum or mean is near the claim.

    Args:
        claimed: The claimed number.
        exponent: Power of ten of its last written digit.
        index: The run's evidence.
    """
    target = float(claimed)
    slack = float(Decimal(5).scaleb(exponent - 1)) * (1 + 1e-9) + abs(target) * 1e-12
    for flat in index.flats:
        for shape, (values, nodes, keys) in flat.numbers.items():
            if len(values) < 2 or "[]" not in shape:
                continue
            scale = 100 if index.path_info(shape)[2] else 1  # a column of cents: the total in whole units
            total = _float_sum(values) / scale
            if abs(total - target) <= slack:
                exact, how = sum(Decimal(number_text(v)) for v in values), sum_text([number_text(v) for v in values])
            elif abs(total / len(values) - target) <= slack:
                exact = sum(Decimal(number_text(v)) for v in values) / len(values)
                how = f"the mean of {', '.join(number_text(v) for v in values[:_SHOWN_MEAN])}"
                how += f", … ({len(values)} values)" if len(values) > _SHOWN_MEAN else ""
            else:
                continue
            if equal_at(exact / scale, claimed, exponent):
                how += f" ({shape}{', in hundredths' if scale != 1 else ''})"
                leaf = index.leaf(flat.call, flat.path(nodes[0], keys[0]), shape, number_text(values[0]), numeric=True)
                return "derived", f"number equals {how}", [evidence_of(leaf, index, how)]
    return None


_SHOWN_MEAN = 6
"""How many values of a mean a reason shows."""


def _float_sum(values: list[int | float]) -> float:
    """The sum of a column in floats; infinite when it overflows (1e308 + 1e308)."""
    try:
        return math.fsum(values)
    except OverflowError:
        return math.inf


_MOST_ADDED = 10
"""The most values of a field whose sums of some are tried: more make any number such a sum by chance."""


def some_added_up(same_field: list[Located], claimed: Decimal, exponent: int) -> str | None:
    """The sum of two or more (not all) records' values of a field equal to a claimed number, written out; None when
    no such sum is, or the field has one value or too many to try."""
    values = [Decimal(loc.mention.value) for loc in same_field]
    if not 2 < len(values) <= _MOST_ADDED or len(set(values)) < 2:
        return None
    for size in range(2, len(values)):
        for some in combinations(values, size):
            if equal_at(sum(some, Decimal(0)), claimed, exponent):
                return sum_text([format(v, "f") for v in some])
    return None
