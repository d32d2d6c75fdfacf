"""The simple arithmetic an answer may do with the numbers a tool gave, worked out exactly."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from factcheck.grounding.evidence import Located
    from factcheck.report import Fact

T = TypeVar("T", float, Decimal)


def equal_at(evidence: Decimal, claimed: Decimal, exponent: int) -> bool:
    """Equal at the precision written in the answer (¥1,299 == 1299.00; 1.2万 == 12000)."""
    if evidence == claimed:
        return True
    quantum = Decimal(1).scaleb(exponent)
    try:
        return evidence.quantize(quantum, rounding=ROUND_HALF_UP) == claimed.quantize(quantum, rounding=ROUND_HALF_UP)
    except ArithmeticError:
        return False


def find_operation(
    values: list[Decimal], claimed: Decimal, exponent: int, rated: bool = False,
    addends: Sequence[bool] | None = None,
) -> tuple[int, int, str] | None:
    """The first simple operation on two of `values` equal to `claimed` at its precision.

    Pairs are tried in order, and for each pair the operations of `operations`. Each is
    worked out in floats first: only a result within half a unit of the claim's last
    digit (and a hair more, for float rounding) is worked out in Decimal and compared.

    Args:
        values: The operands.
        claimed: The number the answer gives.
        exponent: Power of ten of its last written digit.
        rated: The claim speaks of a rate (per, 汇率): any product or quotient of two is tried too.
        addends: Which operands may be added or subtracted (an amount of money, for a claimed amount of money; a
            count only multiplies); all when None.

    Returns:
        The two operands' positions and how the number was worked out, or None.
    """
    target = float(claimed)
    slack = float(Decimal(5).scaleb(exponent - 1)) * (1 + 1e-9) + abs(target) * 1e-12
    floats = [float(v) for v in values]
    for (i, a), (j, b) in combinations(enumerate(floats), 2):
        if not _may_give(a, b, target, slack):
            continue
        for op in operations(values[i], values[j], rated):
            if abs(apply_operation(op, a, b) - target) > slack:
                continue
            if op in ("+", "-") and addends is not None and not (addends[i] and addends[j]):
                continue
            total = apply_operation(op, values[i], values[j])
            if total and equal_at(total, claimed, exponent):
                return i, j, describe_operation(op, values[i], values[j])
    return None


def _may_give(a: float, b: float, target: float, slack: float) -> bool:
    """Whether any operation of `operations` on `a` and `b` may pass `find_operation`'s float test.

    Each result is worked out and tested as `apply_operation` and `find_operation` do, whatever the
    conditions under which `operations` yields it: a superset, tried before the operations are.
    """
    if not (a and b):
        return True  # a quotient by zero, or a zero operand: left to `operations`
    return not (
        abs(a + b - target) > slack and abs(abs(a - b) - target) > slack and abs(a * b - target) > slack
        and abs(a / b - target) > slack and abs(b / a - target) > slack
        and abs(a * (1 - b) - target) > slack and abs(a * (1 + b) - target) > slack
        and abs(b * (1 - a) - target) > slack and abs(b * (1 + a) - target) > slack
    )


def is_count(value: Decimal) -> bool:
    """A whole number from 2 to 100: a quantity or a count."""
    return value == int(value) and 2 <= value <= 100


def operations(a: Decimal, b: Decimal, rated: bool = False) -> Iterator[str]:
    """The simple arithmetic an answer may do with two numbers, in the order it is tried (see `apply_operation`).

    With `rated` (the claim speaks of a rate), any product and either quotient too: an amount
    at an exchange rate, revenue per dollar spent.
    """
    yield "+"
    yield "-"
    if rated or is_count(a) or is_count(b):  # price × quantity
        yield "*"
    if rated and b:
        yield "/"
    if rated and a:
        yield "~/"
    for base, rate, swap in ((a, b, ""), (b, a, "~")):
        if 0 < rate < 1 <= base:  # a rate applied to an amount: the rest, the total with it, the share
            yield swap + "discount"
            yield swap + "tax"
            yield swap + "share"


def apply_operation(op: str, a: T, b: T) -> T:
    """The result of operation `op` (see `operations`) on `a` and `b`, as floats or Decimals."""
    if op.startswith("~"):
        op, a, b = op[1:], b, a
    if op == "+":
        return a + b
    if op == "-":
        return abs(a - b)
    if op in ("*", "share"):
        return a * b
    if op == "/":
        return a / b
    return a * (1 - b) if op == "discount" else a * (1 + b)


def describe_operation(op: str, a: Decimal, b: Decimal) -> str:
    """How a derived number was worked out, for the reason and the evidence note."""
    if op.startswith("~"):
        op, a, b = op[1:], b, a
    if op == "+":
        return f"{a} + {b}"
    if op == "-":
        return f"{max(a, b)} − {min(a, b)}"
    if op in ("*", "share"):
        return f"{a} × {b}"
    if op == "/":
        return f"{a} ÷ {b}"
    return f"{a} × (1 − {b})" if op == "discount" else f"{a} × (1 + {b})"


# A stated conversion: "100 points = $1", "1 point per $1" is not one (no "=" or "worth"), "每 100 积分可抵 1 元".
_RATE = re.compile(
    r"(?<![\d,])(?P<a>\d[\d,]*+(?:\.\d+)?)\s*(?P<unit>[A-Za-z]+|积分|分|点)\s*"  # from a number's start: linear
    r"(?:=|＝|equals?|(?:is|are) worth|可抵扣?|抵扣?|兑换|换|等于)\s*"
    r"(?P<cur>[$¥€£￥])?\s*(?P<b>\d[\d,]*(?:\.\d+)?)"
)


def conversion_rates(text: str) -> list[tuple[Decimal, str]]:
    """The conversions a text states ("100 points = $1"): (factor, how it was said) with factor b / a."""
    out = []
    for m in _RATE.finditer(text):
        a, b = Decimal(m["a"].replace(",", "")), Decimal(m["b"].replace(",", ""))
        if a and b:
            out.append((b / a, m.group().strip()))
    return out


_SHOWN_TERMS = 6
"""How many terms of a long sum a reason shows."""


def sum_text(terms: list[str]) -> str:
    """How a sum was worked out: `the sum of 2 + 4 + 1`, shortened for many terms (`… (7205 values)`)."""
    if len(terms) <= _SHOWN_TERMS:
        return "the sum of " + " + ".join(terms)
    shown = terms[: _SHOWN_TERMS - 1]
    return "the sum of " + " + ".join(shown) + f" + … + {terms[-1]} ({len(terms)} values)"


def operand_value(value: Decimal, unit: str | None) -> Decimal:
    """A backed number of the answer as arithmetic uses it: 15% is 0.15, 9 折 is 0.9."""
    if unit == "%":
        return value / 100
    if unit == "折":
        return value / 10 if value < 10 else value / 100
    return value


def claim_targets(
    fact: Fact, claimed: Decimal, exponent: int, duration_days: dict[str, Decimal]
) -> list[tuple[Decimal, int]]:
    """Values the evidence may hold for a claimed number (15% -> 0.15, 85折 -> 0.85, 2 weeks -> 14 days)."""
    out = [(claimed, exponent)]
    unit = (fact.unit or "").lower()
    if unit == "%":
        out.append((claimed / 100, exponent - 2))
    elif unit == "折":
        rate = claimed / 10 if claimed < 10 else claimed / 100
        # 八折 of "discount_percentage: 20" or "rate: 0.8": the share paid or taken off, as a fraction or a percentage
        out += [(rate, exponent - 2), (1 - rate, exponent - 2), (rate * 100, exponent), ((1 - rate) * 100, exponent)]
    elif duration_days.get(unit, 1) != 1:
        out.append((claimed * duration_days[unit], exponent))
    return out


def shifted_date(value: str, days: int, year_if_none: int = 2000) -> str | None:
    """A date (`YYYY-MM-DD` or `--MM-DD`) moved by `days`, in the same form; None for no date.

    A date without a year is read in `year_if_none` (by default a leap year, as `days_between` does).
    """
    try:
        year, month, day = _date_parts(value)
        moved = date(year or year_if_none, month, day) + timedelta(days=days)
    except ValueError:
        return None
    return f"{moved.year:04d}-{moved.month:02d}-{moved.day:02d}" if year else f"--{moved.month:02d}-{moved.day:02d}"


def shifted_time(value: str, minutes: int) -> str:
    """A clock time (`HH:MM`) moved by `minutes`, across midnight if need be."""
    h, m = map(int, value.split(":")[:2])
    total = (h * 60 + m + minutes) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


def days_between(first: str, last: str) -> int | None:
    """Days between two dates (`2026-11-01`, or `--11-01` without a year: then the other's year is used).

    Two dates without a year are read in one year, so "Dec. 30 to Jan. 2" comes out
    as 363 days and backs no short stay: it is left unsupported, never wrongly backed.
    """
    try:
        (y1, m1, d1), (y2, m2, d2) = (_date_parts(first), _date_parts(last))
        year = y1 or y2 or 2000  # a leap year: 02-29 stays a date
        return abs((date(y2 or year, m2, d2) - date(y1 or year, m1, d1)).days)
    except ValueError:
        return None


def _date_parts(value: str) -> tuple[int | None, int, int]:
    """Year (None when not written), month and day of `YYYY-MM-DD` or `--MM-DD`."""
    year, month, day = value[:-6].strip("-"), value[-5:-3], value[-2:]
    return (int(year) if year else None), int(month), int(day)


def line_item_total(locs: list[Located]) -> Decimal | None:
    """Sum of price x quantity across sibling objects of a list (items[i].price * items[i].qty)."""
    rows: dict[str, dict[str, Decimal]] = {}
    for loc in locs:
        path = loc.leaf.path
        if "[" not in path or "." not in path:
            continue
        row, key = path.rsplit(".", 1)
        rows.setdefault(row, {})[key.lower()] = Decimal(loc.mention.value)
    total = Decimal(0)
    for fields in rows.values():
        price = next((v for k, v in fields.items() if "price" in k or "amount" in k), None)
        qty = next((v for k, v in fields.items() if k in ("qty", "quantity", "count", "num")), Decimal(1))
        if price is None:
            return None
        total += price * qty
    return total if rows else None
