"""A state said of all the records of a list, against each record's own status."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
BLOCK = {"name": "get_group_block", "args": {"block_code": "WHT-0614"}, "status": "ok", "output": {
    "block_code": "WHT-0614", "rooms": [
        {"res_id": "LM-40211", "guest": "Helen Whitmore", "status": "CONFIRMED"},
        {"res_id": "LM-40212", "guest": "Robert Whitmore", "status": "CONFIRMED"},
        {"res_id": "LM-40214", "guest": "Kenji Sato", "status": "CANCELLED"}]}}
SHIPPED = {"name": "get_order", "args": {}, "status": "ok", "output": {"order_id": "MT-2406", "items": [
    {"sku": "A1", "status": "已发货"}, {"sku": "A2", "status": "待发货"}, {"sku": "A3", "status": "已发货"}]}}
BERTHS = {"name": "book_berths", "args": {}, "status": "ok", "output": {"booking_no": "NJ-0614-83310", "items": [
    {"passenger": "Petra Novak", "status": "confirmed"}, {"passenger": "Marek Novak", "status": "confirmed"},
    {"passenger": "Ema Novak", "status": "confirmed"}, {"passenger": "Jakub Novak", "status": "waitlisted"}]}}
PARCELS = {"name": "track_order", "args": {}, "status": "ok", "output": {"order_id": "#W7", "packages": [
    {"tracking": "1Z-001", "status": "delivered"}, {"tracking": "1Z-002", "status": "out for delivery"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        ("All 3 rooms are confirmed.", [BLOCK], True),
        ("您这一单的商品都已经发货啦。", [SHIPPED], True),
        ("Your order shipped in two packages, and all of them have been delivered.", [PARCELS], True),
        ("All four of you are confirmed in couchette car 254.", [BERTHS], True),
        # the records named before the state are the ones it speaks of
        ("LM-40211 and LM-40212 are all confirmed.", [BLOCK], False),
        # it counts just the records in the state
        ("All 2 remaining rooms are confirmed.", [BLOCK], False),
        # no word for all of them
        ("Helen's room is confirmed.", [BLOCK], False),
    ],
)
def test_a_state_said_of_all_records_is_read_against_each(answer: str, tools: list, flagged: bool) -> None:
    report = CHECKER.check(answer, tools)
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.verdict, f.code, f.reason) for c in report.claims for f in c.facts]
    if flagged:
        assert any(word in states[0].reason for word in ("CANCELLED", "待发货", "out for delivery", "waitlisted"))
