"""Counts of a record's members recomputed from the lists the tools return ("共有 3 位乘客" of four passengers)."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
C = Verdict.CONTRADICTED

RESERVATION = {"name": "get_reservation_details", "args": {"reservation_id": "RB5E2N"}, "status": "ok", "output": {
    "reservation_id": "RB5E2N", "origin": "CLT", "destination": "ORD", "cabin": "economy",
    "flights": [{"flight_number": "HAT205", "date": "2024-06-08", "price": 131},
                {"flight_number": "HAT098", "date": "2024-06-11", "price": 114}],
    "passengers": [{"first_name": n, "last_name": "Huang"} for n in ("Lei", "Mei", "Tian", "Guo")],
    "payment_history": [{"payment_id": "credit_card_2093317", "amount": 980}], "total_baggages": 3}}
HOTEL = {"name": "get_reservation", "args": {"confirmation": "BJ-66120"}, "status": "ok", "output": {
    "confirmation": "BJ-66120", "arrival": "2025-10-01", "departure": "2025-10-04",
    "rooms": [{"segment": "BJ-66120-1", "room_type": "家庭房", "guests": [
                  {"name": "刘建国", "type": "成人"}, {"name": "陈静", "type": "成人"},
                  {"name": "刘子涵", "type": "儿童"}]},
              {"segment": "BJ-66120-2", "room_type": "高级双床房", "guests": [
                  {"name": "刘德明", "type": "成人"}, {"name": "王秀英", "type": "成人"}]}]}}
RENTAL = {"name": "get_rental", "args": {"res_id": "EH-551"}, "status": "ok", "output": {
    "res_id": "EH-551", "days": 4, "drivers": [{"name": "赵磊", "role": "primary"}], "max_extra_drivers": 2}}
ORDER = {"name": "get_order_details", "args": {"order_id": "#W8652136"}, "status": "ok", "output": {
    "order_id": "#W8652136", "items": [{"item_id": "4343059878", "name": "瑜伽垫", "quantity": 3},
                                       {"item_id": "4063889038", "name": "台灯", "quantity": 1},
                                       {"item_id": "7254036888", "name": "空气炸锅", "quantity": 2}],
    "shipments": [{"tracking_number": "973296462904", "item_ids": ["4343059878", "4063889038"]}]}}


def _count(report, text: str):
    return next(f for c in report.claims for f in c.facts if f.text == text)


@pytest.mark.parametrize(
    ("run", "answer", "count", "contradicted"),
    [
        # the whole of the record's members, said otherwise
        (RESERVATION, "订单上共有 3 位乘客，每人票价 $245，合计 $735。", "3", True),
        (RESERVATION, "The reservation RB5E2N has a total of 3 passengers.", "3", True),
        (RESERVATION, "All 5 passengers are on HAT205.", "5", True),  # a flight holds no list: it is no part
        (HOTEL, "订单 BJ-66120 两间房共登记了 6 位客人，入住 3 晚。", "6", True),
        (HOTEL, "There are 7 guests across the two rooms.", "7", True),
        # what the records give: a list's length, one call's lists added up, a list's quantities added up
        (RESERVATION, "订单上共有 4 位乘客。", "4", False),
        (HOTEL, "两间房共登记了 5 位客人。", "5", False),
        (HOTEL, "家庭房登记了 3 位客人。", "3", False),
        (ORDER, "订单 #W8652136 一共 6 件商品。", "6", False),
        # pieces (件) count by the lines' quantities; kinds (种) and items, by the lines
        (ORDER, "订单 #W8652136 一共 3 件商品。", "3", True),
        (ORDER, "订单 #W8652136 一共 3 种商品。", "3", False),
        (ORDER, "Order #W8652136 has 3 items.", "3", False),
        # fewer than all, with a condition: some of the members
        (RESERVATION, "2 passengers still need to add their date of birth.", "2", False),
        (HOTEL, "共有 2 位客人还没完成身份核验。", "2", False),
        # the party a price or a search is for, not the record's members
        (RESERVATION, "Economy is $129 per person, so $387 in total for 3 passengers.", "3", False),
        # members that may be added, and a part another identifier names (a parcel's items)
        (RENTAL, "最多可以再加 2 名驾驶员，正好够你们三人。", "2", False),
        (RENTAL, "You can add up to 2 more drivers.", "2", False),
        (ORDER, "包裹 973296462904 已经送达（共 4 件商品）。", "4", False),
    ],
)
def test_a_count_of_members_is_recomputed_from_the_records_lists(run, answer, count, contradicted) -> None:
    fact = _count(CHECKER.check(answer, [run]), count)
    assert (fact.verdict == C and fact.code == "recomputed") is contradicted, fact
    if contradicted:
        assert fact.evidence and "the records list" in fact.reason, fact.reason


def test_a_recomputed_member_count_is_flagged_at_the_default_threshold() -> None:
    report = FactChecker().check("订单上共有 3 位乘客，每人票价 $245，合计 $735。", [RESERVATION])
    flagged = [f for c in report.claims for f in c.facts if f.verdict == C]
    assert [f.text for f in flagged] == ["3"] and flagged[0].confidence >= 0.7


_STAY = {"name": "get_booking", "args": {}, "status": "ok", "output": {
    "booking_id": "BK-1", "nights": 3, "nightly_rates": [359.0, 359.0, 389.0], "total": 1107.0, "currency": "CAD"}}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # a part of the stay: a part word before the count, or a rate after it
        ("The new dates cost CA$1,107.00 (CA$359 for each of the first two nights, CA$389 for the third).", False),
        ("The other two nights are at CA$359.", False),
        ("- 2 nights at CA$359, 1 at CA$389", False),
        ("其余 2 晚每晚 359 加元。", False),
        # the whole stay said wrong
        ("Your stay is two nights, CA$1,107.00 in total.", True),
    ],
)
def test_a_count_of_a_part_is_not_the_wholes(answer: str, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, [_STAY]).claims for f in c.facts
             if f.kind == FactKind.NUMBER and f.value == "2"]
    assert any(f.verdict.flagged for f in facts) == flagged, [(f.text, f.verdict, f.reason) for f in facts]


_BALANCE = {"name": "get_leave_balance", "args": {"emp_id": "E10382"}, "status": "ok",
            "output": {"annual": {"entitled": 15, "used": 6.5, "pending": 2}}}
_PENDING = {"name": "list_leave_requests", "args": {"status": "pending"}, "status": "ok",
            "output": {"requests": [{"req_id": "LV-25-1093", "from": "2025-10-09", "to": "2025-10-10", "days": 2}]}}
_LINES = {"name": "get_shipment", "args": {}, "status": "ok",
          "output": {"lines": [{"sku": "A-1", "qty": 3}, {"sku": "B-2", "qty": 4}]}}


@pytest.mark.parametrize(
    ("answer", "runs", "said", "contradicted"),
    [
        # one leave request's `days` says nothing of the balance the answer works out, nor of what was used
        ("你今年年假一共15天，已经休了6.5天，账面上还剩8.5天。", [_BALANCE, _PENDING], "8.5", False),
        ("批了之后年假就剩6.5天啦。", [_BALANCE, _PENDING], "6.5", False),
        ("The shipment has 7 units in all.", [_LINES], "7", False),
        # a member's value the claim repeats still backs it; another reading of it still contradicts
        ("The pending request is for 2 days.", [_BALANCE, _PENDING], "2", False),
        ("The pending request LV-25-1093 is for 3 days.", [_PENDING], "3", True),
    ],
)
def test_one_members_measure_does_not_contradict_what_the_answer_works_out(answer, runs, said, contradicted) -> None:
    facts = [f for c in CHECKER.check(answer, runs).claims for f in c.facts
             if f.kind == FactKind.NUMBER and f.text == said]
    assert facts and any(f.verdict == C for f in facts) == contradicted, [(f.text, f.verdict, f.reason) for f in facts]
