"""A line's unit price said as the line's amount, and the table rows whose column says it is one unit's."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
ORDER = {"name": "get_order", "args": {}, "output": {"items": [
    {"name": "Mouse", "price": 89.5, "quantity": 2}, {"name": "Pad", "price": 35.0, "quantity": 1}]}}


def table(header: str, row: str) -> str:
    return f"Here is the order:\n\n| {header} |\n|---|---|---|---|\n| {row} |\n| Pad | 1 | $35.00 | pending |"


@pytest.mark.parametrize(
    ("header", "row", "flagged"),
    [
        # a column of line amounts: the mouse line is 2 × $89.50
        ("Item | Qty | Line total | Status", "Mouse | 2 | $89.50 | shipped", True),
        ("Item | Qty | Refund | Status", "Mouse | 2 | $89.50 | shipped", True),
        # a column the header makes one unit's (its field name too)
        ("Item | Qty | Unit price | Status", "Mouse | 2 | $89.50 | shipped", False),
        ("item | qty | unit_price | status", "Mouse | 2 | $89.50 | shipped", False),
        ("商品 | 数量 | 单价 | 状态", "Mouse | 2 | $89.50 | shipped", False),
        # one of the two ordered said missing before the amount: the amount is that one's
        ("Item | Ordered | Missing | Refund", "Mouse | 2 | 1 | $89.50", False),
    ],
)
def test_a_table_column_of_unit_prices(header: str, row: str, flagged: bool) -> None:
    report = CHECKER.check(table(header, row), [ORDER])
    assert any("quantity 2 × 89.5" in f.reason for c in report.claims for f in c.facts if f.verdict.flagged) == flagged
