"""A record's state said of the record the answer names by its key, against the record's status field."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def order(status: str, key: str = "#W9300146") -> dict:
    return {"name": "get_order_details", "args": {"order_id": key}, "status": "ok",
            "output": {"order_id": key, "user_id": "u1", "items": [{"name": "Desk Lamp", "price": 153.23}],
                       "status": status}}


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        ("Your order #W9300146 is currently delivered and includes a Desk Lamp.", [order("pending")], True),
        ("Your order #W9300146 is pending and includes a Desk Lamp.", [order("pending")], False),
        ("I found order #W9300146, which has been delivered.", [order("pending")], True),
        ("Order #W9300146 has been cancelled.", [order("pending")], True),
        ("Order #W9300146 has shipped.", [order("delivered")], False),  # delivered implies shipped
        ("订单 #W9300146 已签收。", [order("已发货")], True),
        # a processed order has left the warehouse or is about to: shipped and awaiting shipment both fit it,
        # delivered does not
        ("Order #W9300146 has shipped.", [order("processed")], False),
        ("订单 #W9300146 已发货。", [order("已处理")], False),
        ("Order #W9300146 has been delivered.", [order("processed")], True),
        # a list under the key: the lines of the block speak of that record
        ("Here are the details:\n\n- **Order ID:** #W9300146\n- **Item:** Desk Lamp\n- **Status:** Delivered",
         [order("pending")], True),
        ("Here are the details:\n\n- **Order ID:** #W9300146\n- **Status:** Pending", [order("pending")], False),
        # a blank line ends the block: the next one names no record
        ("Order #W9300146 is pending.\n\nOther orders: status delivered.", [order("pending")], False),
        # not a state the record is in now: ahead, of another concept, or before a noun
        ("Order #W9300146 is set to be shipped to Denver.", [order("pending")], False),
        ("For #W9300146, partial cancellation is not supported on pending orders.", [order("pending")], False),
        ("Order #W9300146 - Refund: $20 processed immediately.", [order("cancelled")], False),
        # one state said of a list of records: each record's status
        ("Orders #W9300146 and #W1111111 are delivered.", [order("pending"), order("delivered", "#W1111111")],
         True),
        ("Orders #W9300146 and #W1111111 are delivered.", [order("delivered"), order("delivered", "#W1111111")],
         False),
        ('Both of your orders, #W9300146 and #W1111111, are currently marked as "delivered."',
         [order("delivered"), order("pending", "#W1111111")], True),
        ("- Delivered orders: #W9300146 and #W1111111", [order("delivered"), order("pending", "#W1111111")],
         True),
        ("- Delivered orders: #W9300146 and #W1111111", [order("delivered"), order("delivered", "#W1111111")],
         False),
        ("3) Grill modification (Delivered order #W9300146)", [order("pending")], True),
        ("3) Grill modification (Pending order #W9300146)", [order("pending")], False),
        ("It seems that the pending order #W9300146 does not contain a garden hose.", [order("delivered")], True),
        ("It seems that the pending order #W9300146 does not contain a garden hose.", [order("pending")], False),
        # each record its own state, or records not in one list: no one state of them all
        ("Order #W9300146 is delivered and #W1111111 is pending.",
         [order("delivered"), order("pending", "#W1111111")], False),
        ("Cancelled order #W9300146 → new order #W1111111.", [order("cancelled"), order("pending", "#W1111111")],
         False),
        ("Orders #W9300146 and #W1111111: the first is delivered.",
         [order("delivered"), order("pending", "#W1111111")], False),
    ],
)
def test_a_state_said_of_a_keyed_record_is_compared_with_its_status(answer, tools, flagged):
    report = CHECKER.check(answer, tools)
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


def test_a_negated_state_word_is_read_once():
    # 未发货 says "not shipped": of a pending order it is right
    report = CHECKER.check("订单 #W9300146 还未发货。", [order("pending")])
    assert not any(f.code == "record_state" for c in report.claims for f in c.facts)


def modified(status: str, key: str = "#W5199551") -> dict:
    """The order a write returns after changing its items."""
    return {"name": "modify_pending_order_items", "args": {"order_id": key}, "status": "ok",
            "output": {"order_id": key, "user_id": "u1", "items": [{"name": "Hiking Boots", "price": 253.54}],
                       "status": status}}


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a state alone after the key: no concept carried over from the sentence before ("I found …")
        ("I found the order. It's order #W9300146, and it has been pending.", [order("delivered")], True),
        ("I found the order. It's order #W9300146, and it has been delivered.", [order("delivered")], False),
        # in brackets right after the key
        ("- Smart Watch: in order #W9300146 (pending).", [order("delivered")], True),
        ("- Smart Watch: in order #W9300146 (delivered).", [order("delivered")], False),
        # quoted, with its qualifier or the sentence's mark inside the quotes
        ('Order #W9300146 contains a lamp, and its status is "pending."', [order("delivered")], True),
        ('Order #W9300146 contains a lamp, and its status is "delivered."', [order("delivered")], False),
        # under a status label with no key named: the record the run's last write returned
        ('The size was changed. The order status is now "delivered (item modified)."',
         [order("pending"), modified("pending (item modified)")], True),
        ('The size was changed. The order status is now "pending (item modified)."',
         [order("pending"), modified("pending (item modified)")], False),
        # ... but not where another record of its kind was named in the block, nor without a status label
        ("I found your charger order:\n- Order: #W9373487\n- Status: pending",
         [order("pending", "#W9373487"), modified("cancelled")], False),
        ("- 已批准：3 笔", [modified("pending")], False),
    ],
)
def test_a_state_said_in_prose_is_read_against_the_record_it_speaks_of(answer, tools, flagged):
    report = CHECKER.check(answer, tools)
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


def test_pending_review_is_under_review():
    report = CHECKER.check("Your post is under review.", [
        {"name": "publish_post", "args": {}, "status": "ok", "output": {"post_id": "mp_1", "state": "PENDING_REVIEW"}}])
    assert not any(f.verdict.flagged for c in report.claims for f in c.facts)


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # an answer written as JSON: a record's state under its status field is that record's
        ('{"order": {"order_id": "#W9300146", "status": "pending"}}', [order("delivered")], True),
        ('{"order": {"order_id": "#W9300146", "status": "delivered"}}', [order("delivered")], False),
        ('{"orders": [{"order_id": "#W1111111", "status": "delivered"}, {"order_id": "#W9300146", '
         '"order_status": "delivered (item modified)"}]}',
         [order("delivered", "#W1111111"), order("pending (item modified)")], True),
        ('{"orders": [{"order_id": "#W1111111", "status": "delivered"}, {"order_id": "#W9300146", '
         '"order_status": "pending (item modified)"}]}',
         [order("delivered", "#W1111111"), order("pending (item modified)")], False),
        # a state asked for is no state the record is in
        ('{"order_id": "#W9300146", "requested_status": "cancelled"}', [order("pending")], False),
        ('{"order_id": "#W9300146", "new_status": "cancelled"}', [order("pending")], False),
    ],
)
def test_a_state_in_a_json_answer_is_read_as_its_records(answer, tools, flagged):
    report = CHECKER.check(answer, tools)
    states = [f for c in report.claims for f in c.facts if f.code == "record_state"]
    assert bool(states) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


@pytest.mark.parametrize(
    ("answer", "status", "expected"),
    [
        # a state whose own word is negative ("rejected") is a state, not a negated one
        ("EXP-1 was rejected.", "rejected", Verdict.SUPPORTED),
        ("EXP-1 was rejected.", "approved", Verdict.CONTRADICTED),
        ("EXP-1 was not rejected.", "rejected", Verdict.CONTRADICTED),
    ],
)
def test_a_negative_state_word_said_of_the_keyed_record(answer: str, status: str, expected: Verdict) -> None:
    tools = [{"name": "get_claim", "args": {}, "status": "ok", "output": {"claim_id": "EXP-1", "status": status}}]
    facts = [f for c in FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools).claims for f in c.facts
             if f.kind.value == "status"]
    assert [f.verdict for f in facts] == [expected], [(f.text, f.verdict, f.reason) for f in facts]
