"""Which item of a list a claim names: distinct words of its strings."""

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.grounding.naming import LIST_ITEM, WORD_NAMED_RECORDS, distinct_words, names_record

MUG, TEA = {"name": "Mug", "sku": "MUG-01", "price": 12.5}, {"name": "Tea Sampler", "sku": "TEA-02", "price": 18.0}


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        ([MUG, TEA], [{"mug"}, {"tea", "sampler"}]),  # "MUG-01" gives "mug" again; "01" is no word
        ([{"name": "中性笔 (12支装)"}, {"name": "A4 打印纸"}], [{"中性笔", "支装"}, {"打印纸"}]),
        ([{"status": "open"}, {"status": "open"}], [set(), set()]),  # shared words name neither
        ([MUG] * (WORD_NAMED_RECORDS + 1), []),  # a long list: not read
        ({"not": "a list"}, []),
        ([MUG, "not a record"], [{"mug"}, set()]),
    ],
)
def test_distinct_words(records, expected) -> None:
    assert distinct_words(records) == expected


@pytest.mark.parametrize(
    ("claim", "field", "expected"),
    [
        ("$9.99 for the tea sampler", "price", True),
        ("the mug is $18", "price", False),
        ("tea-02 costs $18", "price", True),  # "tea" is a word of TEA's strings only
        ("the sampler costs $18", "name", False),  # the matched field itself does not count
    ],
)
def test_names_record(claim: str, field: str, expected: bool) -> None:
    assert names_record(claim, TEA, MUG, field) is expected


def test_list_item_is_the_innermost():
    assert LIST_ITEM.match("orders[1].items[0].sku").groups() == ("orders[1].items", "0")
    assert LIST_ITEM.match("flights[0]") is None


def test_a_name_several_items_share_names_none_of_them() -> None:
    from factcheck import check

    txs = {"transactions": [
        {"merchant": "Amazon Marketplace", "amount": 18.5, "posted_at": "2026-11-18T07:32:00+08:00"},
        {"merchant": "Blue Bottle", "amount": 4.5, "posted_at": "2026-11-15T09:00:00+08:00"},
        {"merchant": "Amazon Marketplace", "amount": 64.99, "posted_at": "2026-11-12T08:32:00+08:00"},
        {"merchant": "Amazon Marketplace", "amount": 64.99, "posted_at": "2026-11-12T08:35:00+08:00"},
    ]}
    report = check("Amazon Marketplace charged $64.99 twice, on Nov 12 at 8:32 AM and 8:35 AM.",
                   [{"name": "list_transactions", "args": {}, "output": txs}])
    assert not [f for c in report.claims for f in c.facts if f.code == "wrong_record"]


SLOTS = [{"name": "get_table_slots", "args": {"date": "2026-05-14"}, "status": "ok", "output": {"slots": [
    {"time": "17:30", "max_party": 7, "status": "open", "area": "terrace"},
    {"time": "18:00", "max_party": 8, "status": "booked", "area": "main hall"},
    {"time": "19:00", "max_party": 9, "status": "open", "area": "bar side"}]}}]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # prose: a record named in a later clause is that clause's, not the earlier facts'
        ("17:30 最多只能坐 7 人，18:00 已被订走，所以最早合适的是 19:00（bar side）。", False),
        ("The 17:30 slot seats at most 7, so the earliest that fits is 19:00 (bar side).", False),
        # the record named before the fact: its own value is another
        ("The bar side slot is at 19:00, and it seats at most 7.", True),
        # a list item's line describes the item it names, wherever it names it
        ("- seats at most 7 — 19:00, bar side", True),
    ],
)
def test_a_fact_belongs_to_the_record_named_before_it_in_prose(answer, flagged) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, SLOTS)
    wrong = [f for c in report.claims for f in c.facts if f.code == "wrong_record"]
    assert bool(wrong) == flagged, [(f.text, f.verdict, f.reason) for c in report.claims for f in c.facts]


ORDER = [{"name": "get_order_details", "args": {"order_id": "#W5521907"}, "status": "ok", "output": {
    "order_id": "#W5521907", "items": [
        {"name": "Water Bottle", "item_id": "7199146548", "price": 48.02, "options": {"color": "black"}},
        {"name": "Desk Lamp", "item_id": "5320792178", "price": 135.24, "options": {"color": "white"}},
        {"name": "Yoga Mat", "item_id": "4635925001", "price": 94.38, "options": {"color": "green"}}]}}]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # a bracket after a record's name is an aside: the amount after it is still that record's
        ("- Order #W5521907: Desk Lamp (white) $135.24 and Yoga Mat (green) $94.38", False),
        ("In order #W5521907 the Desk Lamp (white) is $94.38.", True),
    ],
)
def test_a_bracketed_aside_keeps_the_amount_after_it_with_the_record_before_it(answer, flagged) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, ORDER)
    wrong = [f for c in report.claims for f in c.facts if f.code == "wrong_record"]
    assert bool(wrong) == flagged, [(f.text, f.verdict, f.reason) for c in report.claims for f in c.facts]


GIFT_CARD = [{"name": "get_gift_card", "args": {}, "status": "ok", "output": {"transactions": [
    {"time": "2026-09-14T10:22:00+08:00", "type": "purchase", "amount": -238.0, "order_id": "#W5501187"},
    {"time": "2026-10-02T19:05:00+08:00", "type": "purchase", "amount": -156.5, "order_id": "#W6601920"},
    {"time": "2026-10-20T08:44:00+08:00", "type": "refund", "amount": 156.5, "order_id": "#W6601920"}]}}]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # an order's purchase and its refund share the order's key: the key names both, each date is one of its own
        ("- 10 月 2 日 订单 #W6601920 消费 ¥156.50，10 月 20 日已全额退回卡内", False),
        ("Order #W6601920: $156.50 on Oct 2, refunded in full on Oct 20.", False),
        # a date only another order's transaction holds is still the wrong record's
        ("- 订单 #W6601920 消费 ¥156.50，日期是 9 月 14 日", True),
    ],
)
def test_a_key_several_items_share_names_each_of_them(answer, flagged) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, GIFT_CARD)
    wrong = [f for c in report.claims for f in c.facts if f.code == "wrong_record"]
    assert bool(wrong) == flagged, [(f.text, f.verdict, f.reason) for c in report.claims for f in c.facts]


RESERVATION = {"name": "get_reservation_details", "args": {"reservation_id": "QV8R1J"}, "status": "ok", "output": {
    "reservation_id": "QV8R1J", "flights": [{"flight_number": "NX1733", "date": "2025-06-14", "price": 221},
                                            {"flight_number": "NX1790", "date": "2025-06-22", "price": 236}],
    "payment_history": [{"payment_id": "credit_card_5510294", "amount": 457}]}}
OUTBOUND = {"name": "search_direct_flight", "args": {"origin": "PDX", "destination": "ORD"}, "status": "ok", "output": {
    "results": [{"flight_number": "NX1733", "departure": "08:40:00", "arrival": "13:02:00"}]}}
RETURN = {"name": "search_direct_flight", "args": {"origin": "ORD", "destination": "PDX"}, "status": "ok", "output": {
    "results": [{"flight_number": "NX1782", "departure": "09:10:00", "arrival": "13:31:00"},
                {"flight_number": "NX1790", "departure": "17:25:00", "arrival": "21:53:00"}]}}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the reservation names the flight by its key; the searches list it too, and another flight's time
        ("Your return flight NX1790 departs at 08:40.", True),
        ("Your return flight NX1790 departs at 17:25.", False),
        # "It" opens a claim about the flight the claim before named
        ("Your return flight on QV8R1J is NX1790 on June 22. It departs at 08:40 and arrives at 21:53.", True),
        ("Your return flight on QV8R1J is NX1790 on June 22. It departs at 17:25 and arrives at 21:53.", False),
        # a claim that names a record of its own speaks of that one
        ("Your return flight is NX1790 on June 22. NX1733 departs at 08:40.", False),
    ],
)
def test_a_record_named_by_key_is_that_record_in_every_call_that_lists_it(answer, flagged) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, [RESERVATION, OUTBOUND, RETURN])
    times = [f for c in report.claims for f in c.facts if f.kind.value == "time"]
    assert any(f.verdict.flagged and f.code == "wrong_record" for f in times) == flagged, times
