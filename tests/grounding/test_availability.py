"""An option said to be unavailable, against its own availability field."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
PRODUCT = {"name": "Hiking Boots", "product_id": "7363354090", "variants": {
    "8277474082": {"item_id": "8277474082", "options": {"size": "12"}, "available": True, "price": 236.57},
    "1615379700": {"item_id": "1615379700", "options": {"size": "10"}, "available": False, "price": 253.89},
}}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Item 8277474082 (size 12) is currently shown as unavailable.", True),
        ("商品 8277474082（12 码）目前缺货。", True),
        ("Item 1615379700 (size 10) is currently unavailable.", False),  # it is
        ("Item 8277474082 (size 12) is available at $236.57.", False),
        # the state said in the next clause is another record's
        ("I switched you to item 8277474082; the size 10 one is out of stock.", False),
        ("已为您换成 8277474082；10 码那款缺货。", False),
        # two records named before it: no one record's state
        ("Items 8277474082 and 1615379700 are unavailable.", False),
        # the record named right after the state, in its clause
        ("The waterproof size 12 is unavailable as item 8277474082.", True),
        # named after a comma: another clause's record
        ("The size 10 pair is unavailable, so I picked item 8277474082 instead.", False),
        # an option's price names it in the state's own clause
        ("To: size 12, $236.57 (unavailable)", True),
        ("改成：12 码，$236.57（缺货）", True),
        ("To: size 10, $253.89 (unavailable)", False),  # it is
        # a price in the clause before a comma is another option's
        ("The size 12 is $236.57, and the other size is out of stock.", False),
    ],
)
def test_unavailable_is_read_against_the_named_options_field(answer, flagged) -> None:
    report = CHECKER.check(answer, [{"name": "get_product_details", "args": {}, "output": PRODUCT, "status": "ok"}])
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]
    if flagged:
        assert states[0].evidence[0].path == "variants.8277474082.available"


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # in stock said of the one option whose own field says it cannot be had
        ("The cheapest in-stock option is item 1615379700 (size 10) at $253.89.", True),
        ("1615379700（10 码）目前有货，单价 $253.89。", True),
        ("Item 8277474082 (size 12) is in stock at $236.57.", False),  # it is
        # the product's name names none of its options
        ("I found an in-stock pair of Hiking Boots for you.", False),
    ],
)
def test_in_stock_is_read_against_the_named_options_field(answer, flagged) -> None:
    report = CHECKER.check(answer, [{"name": "get_product_details", "args": {}, "output": PRODUCT, "status": "ok"}])
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]
    if flagged:
        assert states[0].evidence[0].path == "variants.1615379700.available" and "false" in states[0].reason


def test_a_value_every_option_holds_names_none_of_them() -> None:
    """"i7" and "1TB" of every laptop variant: the in-stock claim names no one variant, so none is compared."""
    laptops = {"variants": {
        "8997785118": {"item_id": "8997785118", "options": {"cpu": "i7", "ssd": "1TB", "model": "LX-15 Pro"},
                       "available": False},
        "9844888101": {"item_id": "9844888101", "options": {"cpu": "i7", "ssd": "1TB", "model": "LX-15 Pro"},
                       "available": True}}}
    report = CHECKER.check("I found an in-stock LX-15 Pro variant with an i7 and 1TB SSD.",
                           [{"name": "get_product_details", "args": {}, "output": laptops, "status": "ok"}])
    assert not [f for c in report.claims for f in c.facts if f.code == "record_state"]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # a list introduced as in stock: each entry says its record can be had
        ("Here are the boots in stock right now:\n1. Item 1615379700 (size 10) — $253.89\n"
         "2. Item 8277474082 (size 12) — $236.57", ["1615379700"]),
        ("以下是目前有货的款式：\n- 8277474082（12 码）¥236.57", []),
        # no heading of the state: the entries say nothing of it
        ("Here are the sizes I found:\n1. Item 1615379700 (size 10) — $253.89", []),
    ],
)
def test_entries_of_a_list_introduced_as_in_stock(answer: str, flagged: list[str]) -> None:
    tools = [{"name": "get_product_details", "args": {}, "status": "ok", "output": PRODUCT}]
    report = CHECKER.check(answer, tools)
    assert [f.text for c in report.claims for f in c.facts if f.code == "record_state"] == flagged
