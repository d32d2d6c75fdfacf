"""Tool calls as evidence, however they are given: mappings, ToolMessages, bare outputs."""

import pytest
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage

from factcheck import CheckerConfig, FactChecker
from factcheck.grounding.records import documents_as_values, output_value, tool_record

LEX = FactChecker().lexicon


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ({"name": "refund_order", "args": {"id": 1}, "output": {"ok": True}, "status": "ok"},
         ("refund_order", "ok", {"ok": True}, {"id": 1}, "refund")),
        ({"name": "publish_article", "output": "boom", "status": "ERROR"},
         ("publish_article", "error", "boom", None, "publish")),
        ({"name": "getOrderStatus", "output": "shipped"}, ("getOrderStatus", "ok", "shipped", None, "order")),
        ({"name": "run", "args": "not a mapping", "output": 1}, ("run", "ok", 1, None, None)),
        ({"output": [1, 2]}, (None, "ok", [1, 2], None, None)),
        ([1, 2], (None, "ok", [1, 2], None, None)),  # a bare output
        ("refund result: FAILED", (None, "ok", "refund result: FAILED", None, None)),
        (ToolMessage(content='{"a": 1}', tool_call_id="1", name="refund"),
         ("refund", "ok", '{"a": 1}', None, "refund")),
        (ToolMessage(content="boom", tool_call_id="2", name="x", status="error"), ("x", "error", "boom", None, None)),
        (ToolMessage(content=[{"type": "text", "text": "a"}, "b"], tool_call_id="3", name="x"),
         ("x", "ok", "a\nb", None, None)),  # content blocks
    ],
)
def test_tool_record(item, expected) -> None:
    record = tool_record(0, item, LEX)
    assert (record.name, record.status, record.output, record.args, record.default_concept) == expected


@pytest.mark.parametrize(
    ("output", "expected", "note"),
    [
        (b"caf\xc3\xa9", "café", None),
        (b"caf\xff", "caf\ufffd", "tool call 0: invalid UTF-8 replaced with U+FFFD"),
        (None, "", None),
        ("x" * 12, "x" * 10, "tool call 0 output cut from 12 to 10 characters"),
        ({"a": "x" * 12}, {"a": "x" * 12}, None),  # parsed values are walked, not cut
    ],
)
def test_output_value(output, expected, note) -> None:
    notes: list[str] = []
    assert output_value(tool_record(0, {"name": "t", "output": output}, LEX), 10, notes) == expected
    assert notes == ([note] if note else [])


class _DictWithText(dict):
    """A dict subclass that also reads as a Document (its attributes are its own, unlike a plain dict's)."""

    page_content = "refund issued"
    metadata = {"source": "kb"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ([{"a": 1}, "x", 2, 2.5, None, True, [1]], [{"a": 1}, "x", 2, 2.5, None, True, [1]]),  # JSON values stay
        ([Document(page_content="refund issued", metadata={"id": 7}), 1],
         [{"page_content": "refund issued", "metadata": {"id": 7}}, 1]),
        (_DictWithText(), {"page_content": "refund issued", "metadata": {"source": "kb"}}),
    ],
)
def test_documents_as_values(value: object, expected: object) -> None:
    """Only a value that has a str `page_content` and a mapping `metadata` is read as a Document; plain JSON
    values are never looked at for them."""
    assert documents_as_values(value) == expected


SEATS = [{"name": "get_seat_map", "args": {"event_id": "EV1"}, "status": "ok", "output": {"sections": [
    {"section": "C2", "price": 680.0, "available_count": 3}, {"section": "B1", "price": 380.0, "available_count": 2},
    {"section": "A1", "price": 580.0, "available_count": 6}, {"section": "D1", "price": 980.0, "available_count": 8}]}}]


@pytest.mark.parametrize(
    ("question", "answer", "flagged"),
    [
        # the user's party size, said as the condition a selection meets
        ("想买 3 张票，哪个区最便宜？", "能买到 3 张的最便宜区域是 A1 区。", False),
        ("I need 3 tickets, cheapest section?", "The cheapest section with 3 seats open is A1.", False),
        ("I need 3 tickets, cheapest section?", "B1 has only 2 seats, not enough for 3.", False),
        # the same number said as the named section's own count: its record holds another
        ("想买 3 张票，哪个区最便宜？", "A1 区只剩 3 个座位。", True),
        ("Which section is cheapest?", "The cheapest section with 3 seats open is A1.", True),  # no user's 3
    ],
)
def test_a_party_size_the_user_gave_is_no_record_value(question, answer, flagged) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, SEATS, [question])
    wrong = [f for c in report.claims for f in c.facts if f.text in {"3", "3 个"} and f.verdict.flagged]
    assert bool(wrong) == flagged, [(f.text, f.verdict, f.reason) for c in report.claims for f in c.facts]


_ORDER_ITEMS = {"name": "get_order_details", "args": {"order_id": "#W1730586"}, "status": "ok", "output": {
    "order_id": "#W1730586", "items": [
        {"item_id": "8839201174", "name": "Drone X4", "options": {"camera": "4K"}, "price": 499.0},
        {"item_id": "2291047730", "name": "Spare Battery 2-pack", "price": 79.0},
        {"item_id": "6620194483", "name": "Carrying Case", "price": 45.0}]}}


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        # each value right after the words of its own record: no record's value said as another's
        ("Items refunded: Drone X4 (4K camera) $499.00 + Spare Battery 2-pack $79.00", []),
        # a value after another record's words is still that record's
        ("The Spare Battery 2-pack cost $45.00.", ["$45.00"]),
    ],
)
def test_values_said_in_a_run_of_records(answer: str, wrong: list[str]) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, [_ORDER_ITEMS])
    assert [f.text for c in report.claims for f in c.facts if f.code == "wrong_record"] == wrong


_SECTIONS = {"name": "get_sections", "args": {}, "status": "ok", "output": {"sections": [
    {"section": "204", "price": 99.0, "seats_available": 31}, {"section": "208", "price": 99.0, "seats_available": 0},
    {"section": "VIP", "price": 260.0, "seats_available": 9}]}}
_EARBUDS = {"name": "get_order_details", "args": {"order_id": "#W3"}, "status": "ok", "output": {"items": [
    {"name": "Wireless Earbuds", "item_id": "1001", "options": {"color": "black", "battery life": "8 hours"}},
    {"name": "Cycling Helmet", "item_id": "1002", "options": {"size": "S"}},
    {"name": "Wireless Earbuds", "item_id": "1003", "options": {"color": "blue", "battery life": "20 hours"}},
    {"name": "Cycling Helmet", "item_id": "1004", "options": {"size": "10"}}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "wrong"),
    [
        # the named record's field holds words with no digit: a number found in another record's words is no value
        # of it
        ("VIP is over budget and Section 208 is sold out.", [_SECTIONS], []),
        # words with the same unit compare ("8 hours" against "20 hours"); a size's one letter compares too
        ("The black earbuds (item 1001) have 20 hours of battery life.", [_EARBUDS], ["20"]),
        ("The helmet (item 1002) is in size 10.", [_EARBUDS], ["10"]),
    ],
)
def test_a_number_found_in_another_records_words(answer: str, tools: list, wrong: list[str]) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools)
    assert [f.text for c in report.claims for f in c.facts if f.code == "wrong_record"] == wrong


_TICKETS = {"name": "list_tickets", "args": {"user_id": "u_48810"}, "status": "ok", "output": {"tickets": [
    {"ticket_id": "TK-91120", "status": "closed", "merged_into": "TK-91004", "created_at": "2026-12-03T09:12:00+08:00"},
    {"ticket_id": "TK-91004", "status": "in_progress", "created_at": "2026-12-01T20:40:00+08:00"}]}}
_MOVERS = {"name": "list_quotes", "args": {}, "status": "ok", "output": {"quotes": [
    {"quote_id": "Q-68944", "company": "Atlas Home Relocation", "truck": "26ft", "hourly_rate": 110},
    {"quote_id": "Q-78143", "company": "Swift Movers", "truck": "20ft", "hourly_rate": 145},
    {"quote_id": "Q-38255", "company": "Northline Movers", "truck": "26ft", "hourly_rate": 95}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "wrong"),
    [
        # the claim names the other record by its key too: the date is that record's
        ("被关闭的是今天 09:12 提交的 TK-91120，原因是和前天（12 月 1 日）提交的 TK-91004 重复。", [_TICKETS], []),
        # an amount of money is no value of a measure ("20ft")
        ("比第二便宜的 Northline Movers 少 $20。", [_MOVERS], []),
    ],
)
def test_a_value_of_a_record_the_claim_also_names(answer: str, tools: list, wrong: list[str]) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools)
    assert [f.text for c in report.claims for f in c.facts if f.code == "wrong_record"] == wrong


_LEASE = {"name": "get_renewal_offer", "args": {"lease_id": "LS-24-0711"}, "status": "ok", "output": {
    "offer_id": "RN-8841", "options": [
        {"term_months": 12, "monthly_rent": 2380.0}, {"term_months": 24, "monthly_rent": 2310.0},
        {"term_months": 1, "monthly_rent": 2750.0, "type": "month_to_month"}]}}
_TRACKING = {"name": "usps_track", "args": {"tracking": "9400111899223197428490"}, "status": "ok", "output": {
    "status": "In Transit to Next Facility", "expected_delivery": "2025-08-14", "events": [
        {"time": "2025-08-11 17:32", "desc": "USPS in possession of item", "location": "Denver, CO 80205"},
        {"time": "2025-08-12 04:10", "desc": "Departed USPS Regional Facility",
         "location": "Denver CO Distribution Center"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "wrong"),
    [
        # bare options compared in one line: each value is the option's the line is about, or a comparison
        ("- **12 months**: $2,380/month, +$130/month ($1,560 more over the year)", [_LEASE], []),
        # a tracking timeline's events are steps of one record, not records of their own
        ("Your return was dropped off in Denver on 8/11 at 5:32 PM and left the Denver regional facility early on "
         "8/12; USPS expects it on Thursday, Aug 14.", [_TRACKING], []),
        # the items of an order are records: a value after another item's words is still that item's
        ("The Spare Battery 2-pack cost $45.00.", [_ORDER_ITEMS], ["$45.00"]),
    ],
)
def test_options_and_steps_are_no_records_of_their_own(answer: str, tools: list, wrong: list[str]) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools)
    assert [f.text for c in report.claims for f in c.facts if f.code == "wrong_record"] == wrong


_PURIFIER = {"name": "get_order_details", "args": {"order_id": "#W6630192"}, "status": "ok", "output": {
    "order_id": "#W6630192", "status": "pending", "items": [
        {"name": "Air Purifier", "item_id": "5669664287", "price": 543.68},
        {"name": "LED Light Bulb", "item_id": "7445824652", "price": 49.8}]}}
_STOCK = {"name": "check_stock", "args": {"sku": "MUG-0450"}, "status": "ok", "output": {
    "sku": "MUG-0450", "stock": [{"wh": "北京仓", "qty": 120}, {"wh": "武汉仓", "qty": 8}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "wrong"),
    [
        # the named record's own value is said beside it: the other value is a record the claim does not name
        # (空气净化器 is no word of "Air Purifier")
        ("#W6630192：空气净化器 $543.68 + LED 灯泡 $49.80，还在 pending，尚未发货。", [_PURIFIER], []),
        # each record named, each given the other's value: both stay wrong
        ("目前武汉仓还剩 120 件，北京仓只有 8 件了。", [_STOCK], ["120", "8"]),
    ],
)
def test_a_value_beside_the_named_records_own(answer: str, tools: list, wrong: list[str]) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools)
    assert [f.text for c in report.claims for f in c.facts if f.code == "wrong_record"] == wrong
