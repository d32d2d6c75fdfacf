"""One unit's amount said as the whole a field holds: the field's value is that many units of it."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
ORDER = {"name": "get_order_details", "args": {"order_id": "#W8841207"}, "status": "ok", "output": {
    "order_id": "#W8841207", "items": [
        {"name": "Phone Case", "item_id": "5012290043", "quantity": 3, "price": 24.99},
        {"name": "Charging Dock", "item_id": "7702215530", "quantity": 1, "price": 59.0}]}}
RETURN = {"name": "return_delivered_order_items", "args": {"order_id": "#W8841207", "item_ids": ["5012290043"]},
          "status": "ok", "output": {"return_id": "RMA-60417", "status": "return requested", "refund_amount": 74.97}}
TESTS = {"name": "get_lab_orders", "args": {}, "status": "ok", "output": {
    "tests": [{"name": "乙肝五项定量", "price": 120.0, "status": "待采样"},
              {"name": "TCT", "price": 260.0, "status": "待采样"}],
    "paid_total": 760.0}}


@pytest.mark.parametrize(
    ("answer", "tools", "one_units"),
    [
        # the line's quantity (3) times the amount is what the refund field holds
        ("Refund amount: $24.99, back to your Visa.", [ORDER, RETURN], True),
        ("Refund amount: $74.97, back to your Visa.", [ORDER, RETURN], False),
        # said to be one unit's, or the whole said too: no unit's amount given as the whole
        ("Refund: $24.99 each, $74.97 in all.", [ORDER, RETURN], False),
        # the sum of the amounts the claim lists is no unit's amount (2 × 380 = 760 is chance)
        ("乙肝五项定量（120 元）和 TCT（260 元）都待采样，两项合计 380 元。", [TESTS], False),
    ],
)
def test_one_units_amount_said_as_the_fields_whole(answer: str, tools: list, one_units: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.kind.value == "number" and f.unit]
    target = next(f for f in facts if f.text in ("$24.99", "$74.97", "380 元"))
    read = target.verdict == Verdict.CONTRADICTED and "is one unit's amount" in target.reason
    assert read == one_units, [(f.text, f.verdict, f.reason) for f in facts]
    if one_units:
        assert target.code == "recomputed" and "3 × 24.99 = 74.97" in target.reason
