"""The arithmetic an answer may do: which operations, in which order, worked out exactly."""

from decimal import Decimal, localcontext
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck import CheckerConfig, FactChecker
from factcheck.extractors.mentions import Mention
from factcheck.grounding.arithmetic import (
    apply_operation,
    conversion_rates,
    days_between,
    describe_operation,
    equal_at,
    find_operation,
    line_item_total,
    operand_value,
    operations,
    sum_text,
)
from factcheck.grounding.evidence import Located
from factcheck.grounding.flat import Leaf
from factcheck.report import FactKind

D = Decimal


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (D("12.5"), D("180"), ["+", "-"]),  # no count: no product
        (D("12.5"), D("3"), ["+", "-", "*"]),  # price × quantity
        (D("120"), D("0.15"), ["+", "-", "discount", "tax", "share"]),  # a rate applied to an amount
        (D("0.15"), D("120"), ["+", "-", "~discount", "~tax", "~share"]),
        (D("0.5"), D("0.2"), ["+", "-"]),  # two rates: no base
        (D("101"), D("1"), ["+", "-"]),  # 1 and 101 are not counts
    ],
)
def test_operations(a: Decimal, b: Decimal, expected: list[str]) -> None:
    assert list(operations(a, b)) == expected


@pytest.mark.parametrize(
    ("values", "claimed", "exponent", "expected"),
    [
        ([D("19.99"), D("3")], D("59.97"), -2, (0, 1, "19.99 × 3")),
        ([D("120"), D("0.15")], D("102"), 0, (0, 1, "120 × (1 − 0.15)")),
        ([D("0.15"), D("120")], D("138"), 0, (0, 1, "120 × (1 + 0.15)")),
        ([D("300"), D("0.9")], D("270"), 0, (0, 1, "300 × 0.9")),  # 9 折 of 300
        ([D("45"), D("30")], D("15"), 0, (0, 1, "45 − 30")),
        ([D("45"), D("30"), D("7.5")], D("37.5"), -1, (0, 2, "45 − 7.5")),  # pairs in order: (0, 2) before (1, 2)
        ([D("45"), D("30")], D("15.1"), -1, None),  # at the precision written: 15.1 is not 15
        ([D("1.005"), D("1")], D("2.01"), -2, (0, 1, "1.005 + 1")),  # 2.005 rounds half up to 2.01
        ([D("45")], D("45"), 0, None),  # one operand: no operation
    ],
)
def test_find_operation(values, claimed, exponent, expected) -> None:
    assert find_operation(values, claimed, exponent) == expected


@pytest.mark.parametrize(
    ("values", "claimed", "exponent", "rated", "expected"),
    [
        # a claim that speaks of a rate: any product or quotient
        ([D("151.96"), D("7.2831")], D("1106.74"), -2, True, (0, 1, "151.96 × 7.2831")),
        ([D("151.96"), D("7.2831")], D("1106.74"), -2, False, None),
        ([D("98025"), D("31250")], D("3.14"), -2, True, (0, 1, "98025 ÷ 31250")),
        ([D("31250"), D("98025")], D("3.14"), -2, True, (0, 1, "98025 ÷ 31250")),
        ([D("98025"), D("31250")], D("3.15"), -2, True, None),
    ],
)
def test_find_operation_of_a_rate(values, claimed, exponent, rated, expected) -> None:
    assert find_operation(values, claimed, exponent, rated) == expected


@pytest.mark.parametrize(
    ("first", "last", "days"),
    [
        ("2026-11-01", "2026-11-15", 14),
        ("--11-01", "--11-15", 14),
        ("2026-12-30", "2027-01-02", 3),
        ("--12-30", "2027-01-02", 362),  # a year-less date takes the other's year: no short stay is backed
        ("--02-29", "--03-01", 1),  # read in a leap year
        ("2026-02-30", "2026-03-01", None),  # not a date
    ],
)
def test_days_between(first: str, last: str, days: int | None) -> None:
    assert days_between(first, last) == days


def _number(path: str, value: str) -> Located:
    return Located(Mention(FactKind.NUMBER, 0, len(value), value), Leaf("tool", 0, path, value))


@pytest.mark.parametrize(
    ("numbers", "total"),
    [
        ([("items[0].price", "12.5"), ("items[0].qty", "2"), ("items[1].price", "18")], D("43")),
        ([("items[0].unit_price", "12.5"), ("items[0].quantity", "3")], D("37.5")),
        ([("items[0].qty", "2")], None),  # a row without a price
        ([("total", "43")], None),  # not line items
    ],
)
def test_line_item_total(numbers, total) -> None:
    assert line_item_total([_number(p, v) for p, v in numbers]) == total


def test_describe_operation_says_the_operands_in_their_roles() -> None:
    assert describe_operation("~discount", D("0.15"), D("120")) == "120 × (1 − 0.15)"
    assert describe_operation("-", D("30"), D("45")) == "45 − 30"


@pytest.mark.parametrize(
    ("value", "unit", "operand"),
    [(D("15"), "%", D("0.15")), (D("9"), "折", D("0.9")), (D("85"), "折", D("0.85")), (D("45"), "USD", D("45"))],
)
def test_operand_value(value: Decimal, unit: str, operand: Decimal) -> None:
    assert operand_value(value, unit) == operand


def test_a_long_sum_is_shortened_in_reasons() -> None:
    assert sum_text(["2", "4", "1"]) == "the sum of 2 + 4 + 1"
    assert sum_text([str(i) for i in range(1, 101)]) == "the sum of 1 + 2 + 3 + 4 + 5 + … + 100 (100 values)"


@pytest.mark.parametrize(
    ("text", "rates"),
    [
        ("Members earn 1 point per $1 spent. 100 points = $1 in reward credit.", [(D("0.01"), "100 points = $1")]),
        ("1,000 points are worth $10", [(D("0.01"), "1,000 points are worth $10")]),
        ("每 100 积分可抵 1 元", [(D("0.01"), "100 积分可抵 1")]),
        ("100积分=1元", [(D("0.01"), "100积分=1")]),
        ("2 for 1 deal", []),  # no conversion stated
        ("0 points = $5", []),  # no factor from zero
    ],
)
def test_conversion_rates(text: str, rates: list) -> None:
    assert conversion_rates(text) == rates


def _every_pair(values: list[Decimal], claimed: Decimal, exponent: int, rated: bool) -> tuple[int, int, str] | None:
    """`find_operation` without its float pre-test: every operation of every pair, in order."""
    target = float(claimed)
    slack = float(Decimal(5).scaleb(exponent - 1)) * (1 + 1e-9) + abs(target) * 1e-12
    for i, j in combinations(range(len(values)), 2):
        for op in operations(values[i], values[j], rated):
            if abs(apply_operation(op, float(values[i]), float(values[j])) - target) > slack:
                continue
            total = apply_operation(op, values[i], values[j])
            if total and equal_at(total, claimed, exponent):
                return i, j, describe_operation(op, values[i], values[j])
    return None


_OPERAND = st.one_of(  # amounts, counts and rates
    st.decimals(min_value=-5000, max_value=5000, places=2, allow_nan=False, allow_infinity=False),
    st.integers(min_value=0, max_value=120).map(Decimal),
    st.decimals(min_value=0, max_value=1, places=2, allow_nan=False, allow_infinity=False),
)


@pytest.mark.parametrize(
    ("values", "claimed", "exponent", "rated"),
    [
        ([D(100), D("0.2")], D(80), 0, False),  # discount
        ([D("0.2"), D(100)], D(120), 0, False),  # tax, the rate first
        ([D(100), D("0.15")], D(15), 0, False),  # share
        ([D(3), D("12.5")], D("37.5"), -1, False),  # price × quantity
        ([D(200), D(8)], D(25), 0, True),  # a quotient of a rate
        ([D(8), D(200)], D(25), 0, True),  # the other quotient
        ([D(0), D(45)], D(45), 0, False),  # a zero operand
        ([D("1e-400"), D(45)], D(45), 0, True),  # an operand no float holds
        ([D("1e400"), D("1e400")], D(0), 0, False),  # operands past a float's range
    ],
)
def test_find_operation_of_each_kind_is_every_pair_tried(values, claimed, exponent, rated) -> None:
    with localcontext() as exact:
        exact.prec = 100
        assert find_operation(values, claimed, exponent, rated) == _every_pair(values, claimed, exponent, rated)


@settings(max_examples=300, deadline=None)
@given(st.lists(_OPERAND, min_size=2, max_size=8), st.sampled_from([-2, -1, 0, 1]), st.booleans(), st.data())
def test_find_operation_is_every_pair_tried_in_order(values, exponent, rated, data) -> None:
    with localcontext() as exact:
        exact.prec = 100
        a, b = data.draw(st.sampled_from(values)), data.draw(st.sampled_from(values))
        # a result of two operands (most often found), or any number (most often not)
        claimed = data.draw(st.sampled_from([a + b, abs(a - b), a * b, a * (1 - b), a * (1 + b), a / b if b else a,
                                                 data.draw(_OPERAND)]))
        claimed = claimed.quantize(Decimal(1).scaleb(exponent))
        assert find_operation(values, claimed, exponent, rated) == _every_pair(values, claimed, exponent, rated)


_STAY = [{"name": "get_reservation", "args": {}, "status": "ok", "output": {
    "confirmation": "HV-7731902", "nights": 3, "nightly_rates": [{"date": "2025-03-17", "rate": 189.0},
                                                               {"date": "2025-03-18", "rate": 189.0},
                                                               {"date": "2025-03-19", "rate": 215.0}],
    "taxes_and_fees": {"occupancy_tax": 93.29, "resort_fee_per_night": 25.0},
    "payment": {"method": "visa_4417", "deposit_charged": 189.0}}}]
_BREAKDOWN = ("Here's the breakdown for HV-7731902:\n- Room: $189 + $189 + $215 = $593.00\n"
              "- Resort fee: $25 × 3 nights = $75.00\n- Occupancy tax: $93.29\n\nTotal: {total}. "
              "A $189.00 deposit has already been charged, so {left} is still left to pay.")


@pytest.mark.parametrize(
    ("total", "left", "backed"),
    [
        ("$761.29", "$572.29", True),  # what the lines come to, added up; then less the deposit
        ("$771.29", "$582.29", False),  # ten dollars more than the lines come to
    ],
)
def test_a_total_after_lines_adds_what_each_line_comes_to(total: str, left: str, backed: bool) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(_BREAKDOWN.format(total=total, left=left), _STAY)
    facts = {f.text: f for c in report.claims for f in c.facts}
    assert (facts[total].verdict.value == "supported") == backed, facts[total]
    assert (facts[left].verdict.value == "supported") == backed, facts[left]
