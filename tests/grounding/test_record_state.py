"""A write's own output: the record it returns, the consequences it records, and what an answer presents."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention
S, C, U = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED


def call(name: str, output, status: str = "ok") -> dict:
    return {"name": name, "args": {}, "output": output, "status": status}


def _order(status: str, **more) -> dict:
    """A whole order record, as a write that acted on it returns it."""
    return {"order_id": "#W1", "user_id": "u1", "address": {"city": "Denver"}, "items": [{"price": 10}],
            "status": status, "payment_history": [{"transaction_type": "payment", "amount": 10}], **more}


def verdicts(answer: str, tools: list) -> list[Verdict]:
    return [f.verdict for claim in CHECKER.check(answer, tools).claims for f in claim.facts
            if f.kind.value in ("status", "action")]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the record's own state is no outcome of the write that returned it
        ("The shipping address has been updated.", [call("modify_pending_order_address", _order("pending"))], S),
        ("The address of your order has been modified.", [call("modify_pending_order_items", _order("pending"))], S),
        # a failure there still speaks of the write
        ("The shipping address has been updated.", [call("modify_pending_order_address", _order("failed"))], C),
        # a small output's bare status is the write's outcome (the seed's refund)
        ("Your refund was successful.", [call("refund_order", {"order_id": "88231", "status": "failed"})], C),
        # a write that failed with an error backs nothing
        ("The shipping address has been updated.", [call("modify_pending_order_address", "Error: order not pending",
                                                          "error")], C),
    ],
)
def test_a_records_state_is_not_the_outcome_of_the_write_that_returned_it(answer, tools, expected) -> None:
    assert verdicts(answer, tools) == [expected]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("A refund of $10 has been issued to your gift card.",
         [call("cancel_pending_order", _order("cancelled", payment_history=[
             {"transaction_type": "payment", "amount": 10}, {"transaction_type": "refund", "amount": 10}]))], S),
        # a read that shows a refund made earlier does not make one in this turn
        ("A refund of $10 has been issued to your gift card.",
         [call("get_order_details", _order("cancelled", payment_history=[
             {"transaction_type": "refund", "amount": 10}]))], U),
        # nothing in the write's output names a refund
        ("A refund of $10 has been issued to your gift card.", [call("cancel_pending_order", _order("cancelled"))], U),
    ],
)
def test_a_consequence_a_write_records_backs_its_action(answer, tools, expected) -> None:
    assert verdicts(answer, tools)[0] == expected


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("I found your order #W1. Here are the details:", [call("get_order_details", _order("pending"))], [S]),
        ("I found your order #W1. Here are the details:", [call("get_order_details", {})], [U]),
    ],
)
def test_presenting_results_speaks_of_what_was_read_not_of_the_records_status(answer, tools, expected) -> None:
    report = CHECKER.check(answer, tools)
    presenting = [f.verdict for claim in report.claims for f in claim.facts if f.text == "Here are"]
    assert presenting == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the cancellation of #W2424242 says nothing of #W1313131, which the claim names
        ("Order left unchanged: #W1313131 (still pending).", [S]),
        ("Order #W2424242 is still pending.", [C]),
    ],
)
def test_a_status_is_compared_with_the_record_the_claim_names(answer, expected) -> None:
    tools = [call("get_order_details", _order("pending", order_id="#W1313131")),
             call("cancel_pending_order", _order("cancelled", order_id="#W2424242"))]
    assert verdicts(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "adjective"),
    [
        ("There are no pending orders on your account.", "pending"),  # which records, no status claim
        ("Pending orders to be updated: #W1313131.", "Pending"),
        ("One more pending order (#W1313131) is open.", "pending"),
    ],
)
def test_an_english_status_adjective_before_its_concept_word_claims_no_status(answer, adjective) -> None:
    tools = [call("cancel_pending_order", _order("cancelled", order_id="#W1313131"))]
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts]
    assert not any(adjective in f.text for f in facts if f.kind.value == "status")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("There are two pending orders.", "pending"),  # a count of the records of that status: kept
        ("I've cancelled order #W1313131.", "cancelled"),  # a verb and its object
    ],
)
def test_a_counted_or_verbal_status_before_a_concept_word_is_kept(answer, expected) -> None:
    tools = [call("cancel_pending_order", _order("cancelled", order_id="#W1313131"))]
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts]
    assert any(expected in f.text for f in facts if f.kind.value in ("status", "action"))


def test_a_failed_write_fails_its_action_not_the_record_it_names() -> None:
    tools = [call("get_order_details", _order("pending", order_id="#W1313131")),
             call("modify_pending_order_items", "Error: new item not available", "error")]
    assert verdicts("Order #W1313131 is still pending.", tools) == [S]
    assert verdicts("The items of order #W1313131 have been modified.", tools) == [C]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the record's status value holds the very state word the answer says
        ("Both updates are complete.\n- Status: pending (no change)", [False]),
        ("The item modification went through. Status remains pending.", [False, False]),
        # another state word is still flagged
        ("The item modification went through. Status: delivered.", [False, True]),
    ],
)
def test_the_same_state_word_in_a_records_status_agrees(answer, expected) -> None:
    tools = [call("modify_pending_order_items", _order("pending (item modified)"))]
    assert [v.flagged for v in verdicts(answer, tools)] == expected


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # the record's own status field speaks, not a field whose name suggests a state
        ("The v2.4.1 deploy completed successfully.",
         [call("get_deployment", {"version": "v2.4.1", "status": "rolled_back", "active_version": "v2.4.0"})], True),
        ("The v2.4.1 deploy was rolled back.",
         [call("get_deployment", {"version": "v2.4.1", "status": "rolled_back", "active_version": "v2.4.0"})], False),
        # a status field named for its concept is one too
        ("The refund review was approved.",
         [call("get_refund", {"status": "processing", "review_status": "approved"})], False),
    ],
)
def test_a_records_status_field_outranks_fields_that_suggest_a_state(answer, tools, flagged) -> None:
    assert any(v.flagged for v in verdicts(answer, tools)) == flagged


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the run's only action failed: what the answer says was done is contradicted, whatever the tool's name
        ("Your lunch with Saffron Table is booked for 36 guests.",
         [call("get_event", {"event_id": "EV-1", "catering_order": None}),
          call("place_catering_order", "Error 409: quote Q-5523 expired", "error")], C),
        ("Your lunch with Saffron Table is booked for 36 guests.",
         [call("get_event", {"event_id": "EV-1", "catering_order": None})], U),  # no action ran at all
        # a later action that worked: the failed one contradicts nothing (no booking tool backs it either)
        ("Your lunch with Saffron Table is booked for 36 guests.",
         [call("place_catering_order", "Error 409: quote expired", "error"),
          call("place_catering_order", {"order_id": "CO-1"})], U),
        # 已从…扣款: a charge said done, after the seat update that would have charged failed
        ("已从尾号 4769 的卡扣款。", [call("update_reservation_seats", "Error: payment declined", "error")], C),
    ],
)
def test_an_action_said_done_after_every_action_call_failed_is_contradicted(answer, tools, expected) -> None:
    assert verdicts(answer, tools)[0] == expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"reservation_id": "G7AHGH", "total_baggages": 6, "payment_id": "credit_card_9346353"}, S),
        ({"reservation_id": "G7AHGH", "total_baggages": 6}, U),  # given no way to pay, it charged nothing
    ],
)
def test_a_write_given_a_payment_method_made_the_payment(args, expected) -> None:
    tools = [{"name": "update_reservation_baggages", "args": args, "status": "ok",
              "output": {"reservation_id": "G7AHGH", "total_baggages": 6}}]
    assert verdicts("本次新增费用 $150.00，已从尾号 6353 的信用卡扣款。", tools)[0] == expected


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the tool is named for the state it acts on: its output's status is the order's, however few fields it has
        ("Address updated ✅", [call("modify_pending_order_address", {"order_id": "#W1", "status": "pending",
                                                                      "address": {"city": "Denver"}})], S),
        # a tool named for no state: a small output's pending status is the write's own
        ("Your plan has been changed.", [call("change_plan", {"request_id": "RQ-1", "status": "pending"})], C),
    ],
)
def test_a_status_the_tools_name_holds_is_the_records_state(answer, tools, expected) -> None:
    assert verdicts(answer, tools) == [expected]


def _address_change(order: str, output, status: str = "ok") -> dict:
    return {"name": "modify_pending_order_address", "args": {"order_id": order, "city": "Portland"},
            "output": output, "status": status}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the same tool ran with success on the order the claim names: the other order's failure is not its status
        # (and the status that call returned is the order's state, no outcome: nothing left to compare)
        ("#W7700341 — address updated to Portland.", Verdict.UNVERIFIABLE),
        ("#W7700519 — address updated to Portland.", C),
    ],
)
def test_a_failed_call_on_another_record_is_no_status_of_the_named_one(answer: str, expected: Verdict) -> None:
    tools = [_address_change("#W7700341", {"order_id": "#W7700341", "status": "pending"}),
             _address_change("#W7700519", "Error: Non-pending order cannot be modified", "error")]
    assert verdicts(answer, tools)[0] == expected


def test_a_read_of_the_same_tool_that_asked_for_another_code_says_nothing_of_the_named_record() -> None:
    tools = [{"name": "query_waybill", "args": {"carrier": "顺丰", "waybill": "SF1438825407712"}, "status": "ok",
              "output": {"status": "已签收", "time": "2025-06-13 10:42"}},
             {"name": "query_waybill", "args": {"carrier": "中通", "waybill": "ZT7719003451288"}, "status": "ok",
              "output": {"status": "派送中", "time": "2025-06-14 08:15"}}]
    assert verdicts("顺丰 SF1438825407712：已签收。", tools) == [S]
    assert verdicts("中通 ZT7719003451288：已签收。", tools) == [C]


def test_a_read_that_asked_for_the_named_record_speaks_of_it() -> None:
    tools = [{"name": "track_package", "args": {"tracking_number": "SF1438825407712"}, "status": "ok",
              "output": {"status": "SIGNED", "time": "2025-06-13 10:42"}},
             {"name": "track_package", "args": {"tracking_number": "JDVA20918834561"}, "status": "ok",
              "output": {"status": "IN_TRANSIT", "time": "2025-06-14 03:40"}}]
    assert verdicts("顺丰 SF1438825407712 已签收。", tools) == [S]
    assert verdicts("京东 JDVA20918834561 已签收。", tools) == [C]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the write that acted on the order after the read says its state now, though its output names no order
        ("订单 DD20250310388 已取消。", S),
        ("取消状态：已取消。", S),  # control: no record named, the write's own status backs it
    ],
)
def test_a_write_on_the_named_record_says_its_state_after_the_read(answer: str, expected: Verdict) -> None:
    tools = [{"name": "get_order", "args": {"order_no": "DD20250310388"}, "status": "ok",
              "output": {"order_no": "DD20250310388", "status": "待发货", "total": 341.8}},
             {"name": "cancel_order", "args": {"order_no": "DD20250310388", "reason": "拍错了"}, "status": "ok",
              "output": {"result": "success", "order_status": "已取消"}}]
    assert verdicts(answer, tools)[0] == expected
