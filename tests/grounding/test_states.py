"""A record's state said of the record the answer names by its key, against the record's status field."""

import pytest

from factcheck import CheckerConfig, FactChecker

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
        # two records named: no one record's state
        ("Orders #W9300146 and #W1111111 are delivered.", [order("pending"), order("delivered", "#W1111111")],
         False),
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
