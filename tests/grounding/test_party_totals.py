"""Totals of a party or of alike items, and lines' prices added up without their quantities."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
ORDER = {"name": "get_order_details", "args": {"order_id": "#W7702119"}, "status": "ok", "output": {
    "order_id": "#W7702119", "items": [{"name": "LED Desk Lamp", "qty": 2, "price": 34.99},
                                       {"name": "USB-C Hub 7-in-1", "qty": 1, "price": 45.5}]}}
CANCELLED = {"name": "cancel_pending_order", "args": {"order_id": "#W7702119"}, "status": "ok", "output": {
    "status": "cancelled", "refund": {"amount": 115.48, "status": "completed"}}}
RETURN_LINES = {"name": "get_return", "args": {"return_id": "RT-77310"}, "status": "ok", "output": {
    "lines": [{"name": "LED Desk Lamp", "qty": 1, "refund_amount": 34.99},
              {"name": "USB-C Hub 7-in-1", "qty": 1, "refund_amount": 45.5}]}}


def verdict_of(answer: str, tools: list, said: str) -> Verdict:
    return next(f.verdict for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # two lamps and a hub: their prices added up without the lamps' quantity are no refund a tool gives
        ("Refund: $80.49 has been returned to your gift card.", [ORDER, CANCELLED], "$80.49", Verdict.CONTRADICTED),
        ("订单已取消，合计退款 $80.49。", [ORDER, CANCELLED], "$80.49", Verdict.CONTRADICTED),
        # the quantities counted; an amount said per unit; a return of one lamp whose own lines add up to it
        ("Refund: $115.48 has been returned to your gift card.", [ORDER, CANCELLED], "$115.48", Verdict.SUPPORTED),
        ("The lamps were $34.99 each.", [ORDER, CANCELLED], "$34.99", Verdict.SUPPORTED),
        ("Refund: $80.49 for the lamp and the hub you sent back.", [ORDER, RETURN_LINES], "$80.49", Verdict.SUPPORTED),
    ],
)
def test_lines_added_up_without_their_quantities(answer: str, tools: list, said: str, expected: Verdict) -> None:
    assert verdict_of(answer, tools, said) == expected
