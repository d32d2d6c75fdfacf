"""A count in pieces of the items a claim names, recomputed from their quantities."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
ORDER = {"name": "get_order", "args": {"order_id": "SO-55102"}, "status": "ok", "output": {
    "order_id": "SO-55102", "items": [
        {"sku": "K1", "name": "陶瓷马克杯 350ml", "qty": 2}, {"sku": "K2", "name": "竹制砧板", "qty": 1},
        {"sku": "K3", "name": "硅胶隔热手套", "qty": 3}, {"sku": "K4", "name": "不锈钢锅具四件套", "qty": 1}]}}
RETURN = {"name": "get_order", "args": {"order_id": "W-3390"}, "status": "ok", "output": {
    "order_id": "W-3390", "items": [{"name": "Trail Runner Backpack", "qty": 1},
                                     {"name": "Insulated Bottle 1L", "qty": 2}, {"name": "Camp Mug", "qty": 2}]}}
RETURNED = {"name": "create_return", "args": {"order_id": "W-3390"}, "status": "ok", "output": {
    "return_id": "R-8812", "items_returned": 2}}


@pytest.mark.parametrize(
    ("answer", "tools", "value", "contradicted"),
    [
        # the named items' quantities add up to another count
        ("已发出：陶瓷马克杯 350ml ×2、竹制砧板 ×1，共 4 件。", [ORDER], "4", True),
        ("顺丰那个包裹里是竹制砧板和硅胶隔热手套，所以您已经收到 2 件了。", [ORDER], "2", True),
        ("The Trail Runner Backpack and the Insulated Bottle 1L, 2 pieces in total, were returned.", [RETURN], "2",
         True),
        # controls: every piece counted; some of them; the pieces of the item named right before; a count that is a
        # name; the whole a part is of; the pieces the answer gives of an item; the products it names; a count
        # field of a record
        ("已发出：陶瓷马克杯 350ml ×2、竹制砧板 ×1，共 3 件。", [ORDER], "3", False),
        ("竹制砧板和硅胶隔热手套里，已经收到 1 件。", [ORDER], "1", False),
        ("竹制砧板 ×1、陶瓷马克杯 350ml ×2 共 2 件，明天发出。", [ORDER], "2", False),
        ("竹制砧板和不锈钢锅具四件套已发出。", [ORDER], "四", False),
        ("The Trail Runner Backpack and the Insulated Bottle 1L are 3 of the 5 pieces you ordered.", [RETURN], "5",
         False),
        ("Still to ship: the Camp Mug and 1 Insulated Bottle 1L, so 3 pieces in total.", [RETURN], "3", False),
        ("发出的 2 件商品（竹制砧板、硅胶隔热手套）明天到。", [ORDER], "2", False),
        ("The Trail Runner Backpack and the Insulated Bottle 1L, 2 pieces in total, were returned.",
         [RETURN, RETURNED], "2", False),
    ],
)
def test_a_count_of_the_named_items(answer: str, tools: list, value: str, contradicted: bool) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == value and f.unit)
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, (fact.verdict, fact.code, fact.reason)
    if contradicted:
        assert "the quantities of the items the claim names" in fact.reason


def test_the_recomputed_count_adds_up_the_quantities() -> None:
    answer = "已发出：陶瓷马克杯 350ml ×2、竹制砧板 ×1，共 4 件。"
    fact = next(f for c in CHECKER.check(answer, [ORDER]).claims for f in c.facts if f.text == "4" and f.unit)
    assert fact.reason.startswith("(2 + 1) = 3 件"), fact.reason
