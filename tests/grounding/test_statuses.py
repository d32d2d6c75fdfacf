"""Completed actions said of a run: a run that only read can have done nothing, whatever the action is called."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def call(name: str, output, status: str = "ok") -> dict:
    return {"name": name, "args": {}, "output": output, "status": status}


ORDER = call("get_order_details", {"order_id": "#W4689314", "status": "return requested", "items": 1})
PROFILE = call("find_user_id_by_name_zip", "mei_ahmed_4909")
RETURN = call("return_delivered_order_items", {"order_id": "#W4689314", "status": "return requested"})


def actions(answer: str, tools: list) -> list[tuple[str, Verdict, str | None]]:
    return [(f.text, f.verdict, f.code) for claim in CHECKER.check(answer, tools).claims
            for f in claim.facts if f.kind == FactKind.ACTION]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # an action word that names no concept, after reads only: nothing that ran could have done it, even
        # where a read's record holds a state that agrees with it
        ("Your return request has been submitted.", [PROFILE, ORDER],
         [("submitted", Verdict.UNSUPPORTED, "no_tool_call")]),
        ("I'm sorry, I submitted the return request before your confirmation.", [PROFILE, ORDER],
         [("submitted", Verdict.UNSUPPORTED, "no_tool_call")]),
        ("I have generated the QR code for your website.", [],
         [("generated", Verdict.UNSUPPORTED, "no_tool_call")]),
    ],
)
def test_action_after_reads_only(answer: str, tools: list, expected: list) -> None:
    assert actions(answer, tools) == expected


def test_action_after_a_write_is_not_unbacked() -> None:
    """The return call ran: the run may have done what the answer says, so it is not flagged as unbacked."""
    [(text, verdict, _)] = actions("Your return request has been submitted.", [PROFILE, ORDER, RETURN])
    assert text == "submitted" and not verdict.flagged


def test_presenting_after_reads_is_no_action() -> None:
    """"Here are your orders" presents what was read: it claims nothing done."""
    assert all(v != Verdict.UNSUPPORTED for _, v, _ in actions("Here are the items of your order:", [ORDER]))


EXTRA_BED_FAILED = [call("add_extra_bed", "Error 409: no extra beds left", "error"),
                    call("get_booking", {"booking_id": "CD88120455", "status": "confirmed"})]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the state the record kept after the change failed: the failed call bears it out
        ("您的订单 CD88120455 保持不变，仍是已确认状态。", False),
        ("Your booking is unchanged and still confirmed.", False),
        # said done: the failed call contradicts it
        ("加床成功。", True),
        ("Your extra bed has been added.", True),
    ],
)
def test_a_state_kept_after_a_failed_change(answer: str, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, EXTRA_BED_FAILED).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


BUDGETS_DENIED = [call("list_billing_lines", {"lines": [{"id": "L1"}, {"id": "L2"}]}),
                  call("list_budgets", "PermissionDenied: missing billing.budgets.list", "error")]


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a lookup said to have failed: the run's failed call bears it out, whatever another read found
        ("I couldn't check your budget alerts because the budgets lookup was denied.", BUDGETS_DENIED, False),
        ("预算查询失败，暂时没拿到数据。", BUDGETS_DENIED, False),
        # nothing failed: the read that found the lines says otherwise
        ("I couldn't check your budget alerts because the budgets lookup was denied.", BUDGETS_DENIED[:1], True),
        # "没查到" with the failure given, and a first attempt that failed before a retry went through
        ("预算告警这次没查到（接口报错），账单明细见上。", BUDGETS_DENIED, False),
        ("第一次查询超时了，我重新查了一遍。", [call("search_hotels", "ReadTimeout", "error"),
                                  call("search_hotels", {"hotels": [{"id": "H1"}, {"id": "H2"}]})], False),
    ],
)
def test_a_failed_lookup_said_failed(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


def _transfer(status: str) -> list:
    return [call("list_payees", {"payees": [{"name": "Maria Gomez"}, {"name": "Oakwood Property"}]}),
            call("create_transfer", {"transfer_id": "TRF-88412097", "status": status, "amount": 500.0})]


@pytest.mark.parametrize(
    ("status", "flagged"),
    [
        ("held_for_review", True),  # the record the write made is still pending
        ("pending", True),
        ("completed", False),
        # the write's own record failed: "completed" is contradicted by it (a read's payee list once backed it)
        ("failed", True),
    ],
)
def test_done_said_of_the_record_a_write_made(status: str, flagged: bool) -> None:
    facts = [f for c in CHECKER.check("Transfer TRF-88412097 for $500.00 has been completed.", _transfer(status)).claims
             for f in c.facts if f.kind == FactKind.STATUS]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


def _pay(bill: str, order: str) -> dict:
    return {"name": "pay_bill", "args": {"bill_id": bill}, "status": "ok",
            "output": {"order_no": order, "status": "缴费成功", "amount": 86.4}}


BILLS_READ = call("list_bills", {"bills": [{"bill_id": "B-4101", "type": "water", "status": "paid"},
                                           {"bill_id": "B-4102", "type": "internet", "status": "paid"}]})
REMINDERS_TIMED_OUT = call("get_bill_reminders", "ReadTimeout: reminders service did not respond within 10s", "error")
WATER_PAID = _pay("W-2511-0087", "PAY202511060001837")
GAS_FAILED = {"name": "pay_bill", "args": {"bill_id": "G-2511-1901"}, "status": "error",
              "output": "E1021: 缴费通道维护中"}


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a read that failed says only that its lookup failed: the bills another read lists as paid stand
        ("Both April bills are paid.", [BILLS_READ, REMINDERS_TIMED_OUT], False),
        ("Both April bills are paid.", [call("list_bills", {"bills": [{"bill_id": "B-4101", "status": "unpaid"}]}),
                                        REMINDERS_TIMED_OUT], True),
        # the payment whose order the claim names went through; another bill's payment failed
        ("水费：缴费成功，订单号 PAY202511060001837。", [WATER_PAID, GAS_FAILED], False),
        # the failed payment is of the bill the claim names
        ("燃气费 G-2511-1901 已缴费成功。", [WATER_PAID, GAS_FAILED], True),
    ],
)
def test_a_failure_speaks_only_of_its_own_record(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


REBOOK_FAILED = call("change_booking", "409 CONFLICT: vehicle deck capacity exhausted", status="error")
MOVE_FAILED = call("update_reservation_flights", "Error: not enough seats on flight HAT271", status="error")
REFUND_FAILED = call("apply_refund", "退票申请失败：policy_locked", status="error")
BOOKING = call("get_booking", {"order_no": "YD-250611-3372", "status": "confirmed"})


@pytest.mark.parametrize(
    ("answer", "tools", "said"),
    [
        # a change, a move, a submitted request said done after the call that would have done it failed
        ("好的，已帮您改签到6月12日 21:30 的中华复兴轮。", [BOOKING, REBOOK_FAILED], "改签"),
        ("Done — both of you have been moved to HAT271.", [BOOKING, MOVE_FAILED], "moved"),
        ("已为您提交退票申请，退款将原路返回支付宝。", [BOOKING, REFUND_FAILED], "已为您提交退票"),
    ],
)
def test_an_action_said_done_after_its_call_failed_is_contradicted(answer: str, tools: list, said: str) -> None:
    assert (said, Verdict.CONTRADICTED, "tool_error") in actions(answer, tools)


@pytest.mark.parametrize(
    "answer",
    ["确认的话我就为您改签。", "确认后我为您提交价保申请。", "If you confirm, I can move both of you to HAT271."],
)
def test_an_action_offered_is_no_claim_that_it_was_done(answer: str) -> None:
    assert all(verdict != Verdict.CONTRADICTED for _, verdict, _ in actions(answer, [BOOKING, REBOOK_FAILED]))


DEPOSIT_REFUND_FAILED = call("refund_deposit", "PaymentGatewayError: card_expired (visa ending 4417). "
                                               "Refund not issued.", status="error")
UPGRADE_FAILED = call("set_shipping_method", "409 Conflict: shipment SHP-77801 already manifested; service level "
                                             "can no longer be changed", status="error")
REFUND_READ_FAILED = call("get_refund_status", {"refund_id": "RF-20250530-5581", "amount": 459.0, "status": "failed",
                                                "failure_reason": "原支付卡已注销，原路退回失败"})


@pytest.mark.parametrize(
    ("answer", "tools", "said", "code"),
    [
        # the failed call names the state only to deny it ("Refund not issued."): no backing for "issued"
        ("I've issued the refund of $300.00 to your Visa ending 4417.", [DEPOSIT_REFUND_FAILED],
         "issued the refund", "tool_error"),
        ("The toner shipment has been upgraded to next-day delivery.", [UPGRADE_FAILED], "upgraded", "tool_error"),
        # 退回 of money to a card is a refund: the refund's own record says it failed
        ("退款金额 ¥459.00，已成功退回您尾号 6617 的招商银行卡。", [REFUND_READ_FAILED], "成功退回",
         "polarity_mismatch"),
        # a rescheduled delivery after reads only: nothing that ran could have moved it
        ("周六上午还有空位，已为您改约到周六 9:00–10:00。",
         [call("list_delivery_slots", {"slots": [{"window": "09:00-10:00", "available": True}]})], "改约",
         "no_tool_call"),
    ],
)
def test_a_change_or_refund_said_done_that_did_not_happen(answer: str, tools: list, said: str, code: str) -> None:
    facts = [(f.text, f.verdict, f.code) for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert (said, Verdict.UNSUPPORTED if code == "no_tool_call" else Verdict.CONTRADICTED, code) in facts, facts


def test_a_state_word_the_output_says_plainly_still_backs_it() -> None:
    """The same word, not negated, in the acting call's text is the state the claim says."""
    issued = call("issue_refund", "Refund issued to visa ending 4417.")
    assert ("issued the refund", Verdict.SUPPORTED, "match") in actions(
        "I've issued the refund of $300.00 to your Visa ending 4417.", [issued])


RESERVATIONS = call("list_reservations", {"reservations": [
    {"confirmation": "RV-20114", "status": "confirmed"}, {"confirmation": "RV-20139", "status": "checked_in"}]})
CANCELLED = {"name": "cancel_reservation", "args": {"confirmation": "RV-20114"}, "status": "ok",
             "output": {"status": "cancelled", "confirmation": "RV-20114", "cancellation_id": "C-771203"}}
NOT_CANCELLED = {"name": "cancel_reservation", "args": {"confirmation": "RV-20139"}, "status": "error",
                 "output": "409 Conflict: reservation RV-20139 is in status 'checked_in' and cannot be cancelled"}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # a hotel's confirmation number keys its reservation: the other reservation's failed cancel is not this one's
        ("- RV-20114 (22–24 March): cancelled, cancellation ID C-771203, no fee.", False),
        ("- RV-20139 (18–21 March): cancelled.", True),
    ],
)
def test_a_confirmation_number_names_its_reservation(answer: str, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, [RESERVATIONS, CANCELLED, NOT_CANCELLED]).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


def test_a_record_named_by_a_long_value_of_its_own() -> None:
    """Two keyed records state a booking's status; the claim names the upgrade request by its room type."""
    tools = [call("get_reservation", {"confirmation": "HV-8842217", "roomType": "Deluxe King", "status": "CONFIRMED"}),
             call("get_upgrade_request", {"requestId": "UPG-30917", "requestedRoomType": "Junior Suite Ocean View",
                                          "status": "WAITLISTED"})]
    claim = CHECKER.check("Your reservation HV-8842217 is confirmed. Your upgrade to the Junior Suite Ocean View is "
                          "confirmed as well.", tools).claims[-1]
    [status] = [f for f in claim.facts if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert status.verdict == Verdict.CONTRADICTED and "WAITLISTED" in status.reason


TRANSFERS = [call("get_tickets", {"tickets": [{"ticketId": "TK-501", "holder": "王磊"},
                                              {"ticketId": "TK-502", "holder": "王磊"}]}),
             {"name": "transfer_ticket", "args": {"ticket_id": "TK-501", "to_email": "kevin@corp.example"},
              "status": "ok", "output": {"ticketId": "TK-501", "newHolder": "kevin@corp.example"}},
             {"name": "transfer_ticket", "args": {"ticket_id": "TK-502", "to_email": "kevin@corp.example"},
              "status": "error", "output": "TransferError 409: recipient already holds a ticket for this event"}]
TRANSFER_OUT = [call("get_account", {"accounts": [{"account_id": "AC-7731", "balance": 5200.0}]}),
                call("list_payees", {"payees": [{"name": "李娜", "bank": "工商银行", "last4": "4415"},
                                                {"name": "王芳", "bank": "建设银行", "last4": "0921"}]}),
                {"name": "create_transfer", "args": {"to_last4": "4415", "amount": 3000}, "status": "ok",
                 "output": {"transfer_id": "TF202503281521099", "status": "FAILED", "fail_reason": "收款账户已销户"}}]


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a success said of the record whose own write worked: another record's failed write is not its status
        ("TK-501 已经 transfer 成功，现在的 holder 是 kevin@corp.example。", TRANSFERS, False),
        ("TK-502 已经 transfer 成功。", TRANSFERS, True),
        # a read's list having entries (payees, accounts) says nothing of a transfer's success
        ("已成功转出 ¥3,000.00 给李娜（工商银行尾号 4415）。", TRANSFER_OUT, True),
        # a rule ("have to be approved") states no status
        ("The change didn't go through: name corrections have to be approved by the airline.", TRANSFERS, False),
    ],
)
def test_a_bare_success_against_the_write_of_the_record_it_names(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION) and f.concept is None]
    assert any(f.verdict.flagged for f in facts) == flagged, [(f.text, f.verdict, f.reason) for f in facts]


def test_money_sent_back_is_a_refund() -> None:
    """"has been sent back to your card" says the refund went out; the refund call failed."""
    failed = call("issue_refund", "PaymentGatewayError: card ending 4471 expired; refund not processed", status="error")
    assert ("sent back", Verdict.CONTRADICTED, "tool_error") in actions(
        "A refund of $390.00 has been sent back to your card ending 4471.", [failed])


def test_an_action_after_a_lookup_does_not_take_the_lookups_concept() -> None:
    """"查到了。…我已经帮您提交了补偿申请" after reads only: a submission nothing ran, not a search."""
    outage = call("query_outage", {"incidents": [{"ticket": "FLT-20250603-1142", "duration_hours": 49.75}]})
    assert ("帮您提交了", Verdict.UNSUPPORTED, "no_tool_call") in actions(
        "查到了：断网约 49.75 小时。我已经帮您提交了补偿申请。", [outage])


INVOICE_FOUND = {"name": "get_invoice", "args": {"reservation_id": "ZP9E1K"}, "status": "ok",
                 "output": {"invoice_id": "INV-2025-041187", "lines": [{"amount": 218.0}, {"amount": 50.0}]}}
INVOICE_MISSING = {"name": "get_invoice", "args": {"reservation_id": "WC3H5R"}, "status": "error",
                   "output": "404 Not Found: no invoice generated for reservation WC3H5R"}


@pytest.mark.parametrize(
    ("tools", "flagged"),
    [
        # one lookup found its record, a later one did not: "found one of the two" stands ("Not Found" denies it)
        ([INVOICE_FOUND, INVOICE_MISSING], False),
        ([INVOICE_MISSING], True),
    ],
)
def test_found_is_backed_by_any_lookup_that_found_something(tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check("I found one of the two invoices.", tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


RETURN_FAILED = {"name": "return_delivered_order_items", "args": {"order_id": "#W9034126"}, "status": "error",
                 "output": "Error: return window closed for order #W9034126"}
RETURN_REQUESTED = {"name": "return_delivered_order_items", "args": {"order_id": "#W9034126"}, "status": "ok",
                    "output": {"order_id": "#W9034126", "status": "return requested"}}


@pytest.mark.parametrize(
    ("tools", "flagged"),
    [
        # a submission said made (pending) when the call that would have made it raised: it went nowhere
        ([ORDER, RETURN_FAILED], True),
        # the call worked: its record's own state does not contradict "submitted"
        ([ORDER, RETURN_REQUESTED], False),
    ],
)
def test_a_submission_said_made_after_its_call_failed(tools: list, flagged: bool) -> None:
    found = actions("I've submitted the return for the Yoga Mat from #W9034126.", tools)
    assert found and any(v.flagged for _, v, _ in found) == flagged, found


def test_a_card_said_frozen_after_the_freeze_failed() -> None:
    """冻结 is a concept word: 已为您冻结 after the freeze call raised is contradicted."""
    cards = call("list_cards", {"cards": [{"card": "6228****6619", "status": "active"}]})
    failed = {"name": "freeze_card", "args": {"card": "6228****6619"}, "status": "error",
              "output": "Error: 503 Service Unavailable - card management service timeout"}
    assert ("冻结", Verdict.CONTRADICTED, "tool_error") in actions("已为您冻结尾号 6619 的借记卡。", [cards, failed])


FEE_READ = call("get_statement_fees", {"items": [{"fee_id": "F-LATE-1", "type": "LATE_PAYMENT", "amount": 50.0}]})
WAIVE_FAILED = call("waive_fee", "403 Forbidden: fee waivers above $50 require supervisor approval", "error")
REVERSE_FAILED = call("reverse_fee", "FEE_REVERSAL_FAILED: posting window closed", "error")
WAIVER_CHECK = call("check_fee_waiver_eligibility", {"eligible": True})
WAIVER_PENDING = call("submit_fee_waiver", {"request_id": "WV-0158", "status": "pending_review"})
WAIVED = call("waive_fee", {"fee_id": "F-LATE-1", "status": "waived"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a fee said waived or reversed: the waiver's own call failed, is still under review, or none ran
        ("I've waived the $50.00 late fee.", [FEE_READ, WAIVE_FAILED], True),
        ("已为您成功退还这笔 ¥50.00 逾期费。", [FEE_READ, REVERSE_FAILED], True),
        ("已为您成功减免 ¥50.00。", [FEE_READ, WAIVER_PENDING], True),
        ("You're eligible, and I've reversed the $50.00 fee.", [FEE_READ, WAIVER_CHECK], True),
        # the eligibility check ran, the waiver's own write failed
        ("已为您成功免除这 50 元滞纳金。", [FEE_READ, WAIVER_CHECK, call("submit_waiver_request", "WaiverService 503",
                                                                     "error")], True),
        # the waiver that went through, and a waiver only offered
        ("I've waived the $50.00 late fee.", [FEE_READ, WAIVED], False),
        ("You're eligible for a courtesy waiver; shall I waive the $50.00 fee?", [FEE_READ, WAIVER_CHECK], False),
    ],
)
def test_a_fee_said_waived_is_checked_against_the_waiver(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert any(f.verdict.flagged for f in facts) == flagged, facts


CARD_ORDERED = {"name": "order_replacement_card", "args": {"card_id": "CC-9001"}, "status": "ok",
                "output": {"order_id": "CO-9001-R", "new_last4": "6120", "eta": "2025-11-19"}}
DEBIT_ORDER_FAILED = {"name": "order_replacement_card", "args": {"card_id": "DC-3356"}, "status": "error",
                      "output": "409 CONFLICT: card DC-3356 is LOCKED"}


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # the order of the card the claim names by its new last four went through; the other card's failed
        ("I've ordered a replacement credit card (ending 6120, arriving around Nov 19).",
         [CARD_ORDERED, DEBIT_ORDER_FAILED], False),
        # the only order failed
        ("I've also ordered a replacement card, which should arrive in 5–7 business days.", [DEBIT_ORDER_FAILED], True),
    ],
)
def test_a_failure_of_the_same_tool_on_another_record_leaves_the_named_one(answer: str, tools: list,
                                                                          flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.kind == FactKind.ACTION]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


LINES = call("get_account_lines", {"lines": [{"msisdn": "3125550102", "status": "active"},
                                            {"msisdn": "3125550116", "status": "suspended"}]})


@pytest.mark.parametrize(
    ("tools", "flagged"),
    [
        ([LINES, call("resume_line", "409 Conflict: line 3125550116 has a pending port-out; resume blocked", "error")],
         True),
        ([LINES, call("resume_line", {"msisdn": "3125550116", "status": "active"})], False),
    ],
)
def test_a_line_said_resumed_is_checked_against_the_resume(tools: list, flagged: bool) -> None:
    facts = actions("Done — your line ending 0116 has been resumed.", tools)
    assert facts and any(v.flagged for _, v, _ in facts) == flagged, facts


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # money said paid out while the payment's own record is still processing
        ("赔款 7,350.00 元已经打到您尾号 4417 的招商银行卡上了。",
         [call("get_payment", {"payments": [{"pay_id": "PY-1", "amount": 7350.0, "status": "处理中"}]})], True),
        ("赔款 7,350.00 元已经打到您尾号 4417 的招商银行卡上了。",
         [call("get_payment", {"payments": [{"pay_id": "PY-1", "amount": 7350.0, "status": "已支付"}]})], False),
    ],
)
def test_money_said_paid_out_against_the_payments_record(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict.flagged for f in facts) == flagged, facts


RESERVATION = call("get_reservation", {"confirmation_no": "HR-30922", "rooms": [
    {"line": 1, "room_type_name": "Deluxe King", "nightly_rate": 198.0},
    {"line": 2, "room_type_name": "Ocean View Suite", "nightly_rate": 365.0}]})
LINE_1_MOVED = {"name": "modify_room", "args": {"confirmation_no": "HR-30922", "line": 1}, "status": "ok",
                "output": {"result": "MODIFIED", "line": 1}}
LINE_2_FAILED = {"name": "modify_room", "args": {"confirmation_no": "HR-30922", "line": 2}, "status": "error",
                 "output": "InventoryError: NO_INVENTORY for room_type OVS; line 2 left unchanged"}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the named room's own change failed; the other room's went through
        ("The Ocean View Suite has been moved to the same dates as well.", True),
        ("I've moved the Deluxe King to October 3–6.", False),
    ],
)
def test_a_success_said_of_the_record_whose_own_call_failed(answer: str, flagged: bool) -> None:
    facts = actions(answer, [RESERVATION, LINE_1_MOVED, LINE_2_FAILED])
    assert facts and any(v.flagged for _, v, _ in facts) == flagged, facts


MODIFY = call("modify_pending_order_items", {"order_id": "#W4776164", "status": "pending (item modified)"})
VALID = call("validate_claim", {"valid": True})
SUBMIT_FAILED = call("submit_expense_claim", "WorkflowError: no approval route configured", "error")
POLICY = call("get_policy", {"policy_id": "POL-7781203", "status": "active"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # an act said submitted, where the run's last write left its record already done: borne out
        ("Your change has been submitted.", [MODIFY], False),
        ("All set—your combined modification has been submitted successfully.", [MODIFY], False),
        ("修改已为您提交。", [MODIFY], False),
        # the last write failed: a read's or an earlier check's positive state says nothing of the submission
        ("Done — claim EXP-2025-06088 has been submitted.", [POLICY, VALID, SUBMIT_FAILED], True),
        ("I've submitted the claim.", [POLICY, call("submit_claim", "ClaimSubmissionError 422", "error")], True),
    ],
)
def test_submitted_act_and_a_record_already_done(answer: str, tools: list, flagged: bool) -> None:
    assert any(f.verdict.flagged for c in CHECKER.check(answer, tools).claims for f in c.facts) is flagged


_UNSUBSCRIBED = call("unsubscribe_vas", {"result": "success", "effective_at": "2025-03-14T10:41:05+08:00"})
_CREDIT_FAILED = call("issue_credit", "CREDIT_LIMIT_EXCEEDED: 单笔退费超过坐席权限，需提交主管审批", "error")
_MODIFY_FAILED = call("modify_pending_order_items", "Error: payment method gift_card_1 has not enough balance", "error")


def test_an_action_whose_tool_failed_has_the_failed_calls_output_as_evidence() -> None:
    answer = "已经帮您把彩铃包退订了（今天 10:41 生效），20 元也已经退回到您的话费账户里。"
    report = FactChecker().check(answer, [_UNSUBSCRIBED, _CREDIT_FAILED])
    failed = [f for c in report.flagged for f in c.facts if f.code == "tool_error"]
    assert failed and failed[0].evidence and failed[0].evidence[0].tool_name == "issue_credit", report.claims


def test_a_state_a_record_becomes_is_no_state_it_is_in() -> None:
    answer = "After applying, the order status becomes 'pending (items modified)' and no further change is possible."
    facts = [f for c in CHECKER.check(answer, [_MODIFY_FAILED]).claims for f in c.facts]
    assert not any(f.verdict == Verdict.CONTRADICTED for f in facts), [(f.text, f.verdict, f.reason) for f in facts]


@pytest.mark.parametrize(
    ("answer", "output", "strength"),
    [
        # a status value that says it is not done yet: its concept word (payment) says no state of its own
        ("已为可欣报名成功，报名号 EN-902117。", {"enrollment_id": "EN-902117", "status": "pending_payment"},
         "not-done-field"),
        ("Your exchange is confirmed.", {"exchange_id": "EX-1", "status": "exchange pending review"},
         "not-done-field"),
        # an order said made whose status is the payment's: the value speaks of another concept than the claim's
        ("订单已经帮您生成了（订单号 QF-0557），需要在 6 月 18 日前完成支付。",
         {"order_id": "QF-0557", "status": "pending_payment"}, "record-field"),
        # a value naming another concept beside the claim's own still speaks of the claim's (入账 through a payment
        # system's name; the stock an exchange waits on)
        ("目前状态显示已经入账成功，钱已经到对方账户了。",
         {"transfer_id": "T-1", "status": "PROCESSING", "status_desc": "已提交人行大额支付系统，等待收款行入账"},
         "not-done-field"),
        ("仓库已确认库存，白色新机已于今日寄出。",
         {"exchange_id": "EX-2", "status_desc": "换货单已提交，等待仓库确认库存"}, "not-done-field"),
        # a write's own message that says only that it waits or failed
        ("已帮您提交改约到 8月13日，改约成功，站点会按新时间派送。",
         {"request_id": "RQ-7", "message": "改约请求已提交，等待站点确认，结果将在30分钟内短信通知"}, "not-done-field"),
        ("It has been approved and is already available in your account.",
         {"case_id": "C-9", "message": "Issuer declined credit: account closed"}, "not-done-field"),
    ],
)
def test_a_pending_status_value_against_a_claim_it_was_done(answer: str, output: dict, strength: str) -> None:
    facts = [f for c in CHECKER.check(answer, [call("create_record", output)]).claims for f in c.facts
             if f.verdict == Verdict.CONTRADICTED]
    assert [f.strength for f in facts] == [strength], [(f.text, f.strength, f.reason) for f in facts]


_TRANSFERS = call("list_transfers", [
    {"txn_id": "TR0087321", "amount": 50000.0, "fee": 0.0, "status": "PENDING_REVIEW",
     "expected": "复核通过后 2 小时内到账"},
    {"txn_id": "TR0081455", "amount": 2000.0, "fee": 0.0, "status": "SUCCESS"}])
_BALANCE = call("get_balance", {"available": 18342.66, "frozen": 50000.0})
_REFUNDS = call("get_refund_status", {"refunds": [
    {"refund_id": "RF-3391", "amount": 1860.0, "status": "processing", "expected_by": "2025-08-18"},
    {"refund_id": "RF-3392", "amount": 100.0, "status": "completed"}]})
_ITEMS = call("get_order", {"items": [{"name": "Sneakers", "price": 130.12}, {"name": "Sunglasses", "price": 46.8}]})
_LISTING = call("get_listing", {"listing_id": "RL-441208", "status": "pending_review"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # the one list item that holds the amount the claim gives is still pending: its money has not arrived
        ("2. 11 月 20 日 16:42，50,000 元，跨行实时，手续费 0 元，已于昨天下午到账。", [_TRANSFERS, _BALANCE], True),
        ("Your $50,000.00 transfer has been posted to her account.", [_TRANSFERS, _BALANCE], True),
        # the record of the amount arrived; an amount every item holds (a fee of 0) names none of them
        ("1. 11 月 20 日 09:12，2,000 元，手续费 0 元，已到账；", [_TRANSFERS, _BALANCE], False),
        # named by its key, a status label's colon between them
        ("票款退款：¥1,860（退款单 RF-3391），状态：已到账", [_REFUNDS], True),
        ("税费退款：¥100（退款单 RF-3392），状态：已到账", [_REFUNDS], False),
        ("Your listing RL-441208 is now live on the marketplace.", [_LISTING], True),
        # a sum's amount names no record; the items' prices are no refunds
        ("合计退款 ¥1,960，已到账 ¥100。", [_REFUNDS], False),
        ("已到账 $46.80，还在途 $130.12。", [_ITEMS], False),
    ],
)
def test_a_completion_said_of_the_record_a_key_or_an_amount_names(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) is flagged, \
        [(f.text, f.verdict, f.reason) for f in facts]


@pytest.mark.parametrize(
    ("answer", "output", "flagged"),
    [
        # a value awaiting another's review or confirmation is pending (lexicon: 待商家审核, 待确认, 待复核 …)
        ("订单 YX2506 已成功取消，取消单号 QX0044。", {"cancel_id": "QX0044", "status": "待商家审核"}, True),
        ("订单 YX2506 已成功取消，取消单号 QX0044。", {"cancel_id": "QX0044", "status": "已取消"}, False),
        ("订单 YX2506 的取消申请已提交，等待商家审核。", {"cancel_id": "QX0044", "status": "待商家审核"}, False),
    ],
)
def test_a_state_awaiting_another_party(answer: str, output: dict, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, [call("cancel_order", output)]).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) is flagged, \
        [(f.text, f.verdict, f.reason) for f in facts]


MODIFY_REFUSED = call("modify_order", {"success": False, "code": "PREPAID_NOT_MODIFIABLE",
                                       "message": "预付订单不支持直接修改日期，请联系酒店前台办理续住"})
MODIFY_DONE = call("modify_order", {"success": True, "order_id": "HT88021547", "check_out": "2025-11-11"})
CHANGE_UNPAID = call("change_flight", {"change_id": "CHG-90417", "status": "PAYMENT_FAILED", "fare_difference": 240.0,
                                       "message": "银行卡扣款失败：发卡行拒绝，原航班座位仍保留"})
CHANGE_PAID = call("change_flight", {"change_id": "CHG-90417", "status": "TICKETED", "fare_difference": 240.0})


@pytest.mark.parametrize(
    ("answer", "tools", "verdict"),
    [
        # the write returned, and its own outcome field says it did not go through
        ("已为您成功修改退房日期。", [MODIFY_REFUSED], Verdict.CONTRADICTED),
        ("I've switched the check-out date to November 11.", [MODIFY_REFUSED], Verdict.CONTRADICTED),
        ("已为您成功修改退房日期。", [MODIFY_DONE], Verdict.SUPPORTED),
        # its own `status` names the failure (`PAYMENT_FAILED`), whatever came before the word
        ("已为您改签成功：HU7605 改为 11 月 22 日同一班次。", [CHANGE_UNPAID], Verdict.CONTRADICTED),
        ("Your flight change went through: HU7605 on November 22.", [CHANGE_UNPAID], Verdict.CONTRADICTED),
        ("已为您改签成功：HU7605 改为 11 月 22 日同一班次。", [CHANGE_PAID], Verdict.SUPPORTED),
    ],
)
def test_a_write_whose_output_says_it_failed_backs_no_success(answer: str, tools: list, verdict: Verdict) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and facts[0].verdict == verdict, [(f.text, f.verdict, f.reason) for f in facts]


REDEEM_FAILED = call("redeem_points", "Error: reward VCH-10 is out of stock for region US", "error")
UNLOCK_FAILED = call("unlock_mail_account", "PermissionDenied: accounts locked for suspicious_sign_in need review",
                     "error")
SUBMIT_FAILED = call("submit_refund", {"result": "FAILED", "code": "TKT_STATUS_CHECKED_IN"})
MEMBER = call("get_member", {"member_id": "LM87760303", "points_balance": 3427})
EMAILED = call("send_email", {"message_id": "m-1", "queued": True})


def done_verdicts(answer: str, tools: list) -> list[tuple[Verdict, str | None]]:
    return [(f.verdict, f.code) for claim in CHECKER.check(answer, tools).claims for f in claim.facts
            if f.concept == "done"]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # an action the agent says it did, when every action call of the run failed: whatever its verb
        ("I've redeemed 1,000 points for the $10 voucher.", [MEMBER, REDEEM_FAILED],
         [(Verdict.CONTRADICTED, "tool_error")]),
        ("已经帮您解锁了。", [UNLOCK_FAILED], [(Verdict.CONTRADICTED, "tool_error")]),
        ("好的，退票申请提交成功。", [SUBMIT_FAILED], [(Verdict.CONTRADICTED, "tool_error")]),  # result: FAILED
        # beside an action call that went through, only a verb that names the failed write's tool is contradicted
        ("I've redeemed 1,000 points for the $10 voucher.", [REDEEM_FAILED, EMAILED],
         [(Verdict.CONTRADICTED, "tool_error")]),
        # otherwise which action it was, the concept checks tell; this says nothing
        ("I've emailed you the voucher terms.", [REDEEM_FAILED, EMAILED], []),
        # no action said done: a look-up, a denial, a question, a hedge
        ("I've checked your account: the reward is out of stock.", [MEMBER, REDEEM_FAILED], []),
        ("已为您查到积分余额 3427。", [MEMBER, REDEEM_FAILED], []),
        ("抱歉，退票申请没有提交成功。", [SUBMIT_FAILED], []),
        ("退票申请提交成功了吗？", [SUBMIT_FAILED], []),
        ("如果您同意，我再帮您重新提交。", [SUBMIT_FAILED], []),
        ("I have two options for you.", [REDEEM_FAILED], []),
    ],
)
def test_action_said_done_after_every_action_failed(answer: str, tools: list, expected: list) -> None:
    assert done_verdicts(answer, tools) == expected


BOOKING = call("get_booking", {"booking_id": "HB-3390215", "status": "confirmed"})
MODIFY_PENDING = call("modify_booking", {"request_id": "MR-55012", "status": "pending_hotel_confirmation"})
MODIFY_DONE = call("modify_booking", {"request_id": "MR-55012", "status": "confirmed"})
WAITLISTED = call("update_reservation_flights", {"status": "waitlisted", "waitlist_position": 3})
QUEUED_MAIL = call("send_confirmation_email", {"status": "queued"})


def flagged_states(answer: str, tools: list) -> list[str]:
    return [f.text for claim in CHECKER.check(answer, tools).claims for f in claim.facts
            if f.kind == FactKind.STATUS and f.verdict == Verdict.CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the run's one change came back pending: said confirmed, it is contradicted, whatever a read before it says
        ("酒店已确认，新的入住日期即时生效。", [BOOKING, MODIFY_PENDING], ["已确认"]),
        ("You're now confirmed on HAT547.", [WAITLISTED], ["confirmed"]),
        ("Good news — your extra night is confirmed.", [BOOKING, MODIFY_PENDING, QUEUED_MAIL], ["confirmed"]),
        # the change went through; a state said to stay; a finding, not the change's state
        ("酒店已确认，新的入住日期即时生效。", [BOOKING, MODIFY_DONE], []),
        ("Your original booking is still confirmed until the hotel replies.", [BOOKING, MODIFY_PENDING], []),
        ("Finding: duplicate confirmed.", [BOOKING, MODIFY_PENDING], []),
    ],
)
def test_confirmed_after_a_change_that_came_back_pending(answer: str, tools: list, expected: list) -> None:
    assert flagged_states(answer, tools) == expected


RENTAL = call("get_rental", {"confirmation": "RW-88213507", "status": "confirmed", "base_total": 389.5})
EXTRAS = call("add_extras", {"results": [
    {"code": "ADDL_DRIVER", "status": "added", "total": 65.0},
    {"code": "BOOSTER", "status": "waitlisted", "reason": "no booster seats available"}], "new_total": 454.5})


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the clause names one entry of the write's list by a text it holds: that entry's own state decides
        ("- Child booster seat: confirmed, $11.99/day", ["confirmed"]),
        ("- Additional driver (ADDL_DRIVER): confirmed, $65.00", []),
        # no entry named: other checks speak
        ("Your rental is confirmed.", []),
    ],
)
def test_an_entry_of_a_write_said_done(answer: str, expected: list) -> None:
    assert flagged_states(answer, [RENTAL, EXTRAS]) == expected


def read(name: str, args: dict, output) -> dict:
    return {"name": name, "args": args, "output": output, "status": "ok"}



def test_a_failure_said_is_no_status_of_the_record_read_in_detail() -> None:
    """"I couldn't pull live tracking" speaks of the lookup that failed, not of the shipment read after it."""
    tools = [read("get_order", {"order_id": "100-4482917"}, {"shipments": [{"shipment_id": "SH-3"}]}),
             {"name": "track_package", "args": {}, "output": "503 Service Unavailable", "status": "error"},
             read("get_shipment_status", {"shipment_id": "SH-3"}, {"shipment_id": "SH-3",
                                                                    "warehouse_status": "label_created"})]
    report = CHECKER.check("I couldn't pull live tracking just now (the service timed out).", tools)
    assert not any(f.verdict == Verdict.CONTRADICTED for c in report.claims for f in c.facts)


TICKET = read("get_order", {"order_no": "FL20250603118842"},
              {"order_no": "FL20250603118842", "flight": "MU5401", "total_paid": 1430.0})
REFUND_FAILED = read("submit_refund", {"order_no": "FL20250603118842"},
                     {"result": "FAILED", "ticket_no": "TK-0611-07732", "status": "转人工"})
REFUND_OTHER = read("submit_refund", {"order_no": "FL20250601000001"},
                    {"result": "FAILED", "ticket_no": "TK-0611-07733"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # the claim names the order by its flight; the refund's write names the order: its failure speaks of it
        ("MU5401 的退票已为您成功办理。", [TICKET, REFUND_FAILED], True),
        # a write on another order says nothing of the one the claim names
        ("MU5401 的退票已为您成功办理。", [TICKET, REFUND_OTHER], False),
    ],
)
def test_a_write_on_the_record_holding_the_named_value_speaks_of_it(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts if f.kind == FactKind.STATUS]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged


UNLOCKED = read("unlock_account", {"username": "zw"}, {"result": "success", "status": "active"})


@pytest.mark.parametrize(
    ("output", "status", "flagged"),
    [
        # a requirement in the error's text is a condition of the act, no state of it: the reset failed
        ("MFAVerificationRequired: 重置密码需用户在 Authenticator 中完成二次验证", "error", True),
        ("MFAVerificationRequired: the user must complete a second factor first", "error", True),
        ({"result": "success", "message": "重置完成，临时密码已发送"}, "ok", False),
    ],
)
def test_a_requirement_in_a_tools_text_states_nothing_done(output, status: str, flagged: bool) -> None:
    tools = [UNLOCKED, {"name": "reset_password", "args": {"username": "zw"}, "output": output, "status": status}]
    facts = [f for claim in CHECKER.check("已经帮你解锁了，密码也已重置。", tools).claims for f in claim.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION) and "重置" in f.text]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged


CLAIM_FILED = call("submit_missing_item_claim", {"claim_id": "CLM-90317", "status": "pending_review",
                                                 "requested_amount": 18.73})
CLAIM_PAID = call("submit_missing_item_claim", {"claim_id": "CLM-90317", "status": "approved",
                                                "requested_amount": 18.73})
CANCEL_PENDING = call("cancel_reservation", {"res_id": "HZ-88031", "status": "CANCEL_PENDING", "refund": 1376.0})
TRANSFER_READ = call("get_transfer", {"transfer_id": "TR876033845", "status": "failed"})
TRANSFER_NEW = call("create_transfer", {"transfer_id": "TR878046035", "status": "processing"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # no refund tool ran, and the run's one change waits on a decision: the outcome said done is what it waits for
        ("The refund has been issued to your Visa ending 4417.", [CLAIM_FILED], True),
        ("房费 ¥1,376 已原路退回，请留意账户变动。", [CANCEL_PENDING], True),
        # the change went through; a rule, not a perfect; the user's own act; a record the change does not hold
        ("The refund has been issued to your Visa ending 4417.", [CLAIM_PAID], False),
        ("Refunds are sent back to the selected payment method.", [CLAIM_FILED], False),
        ("您 11 月 21 日已经退款过一次。", [CLAIM_FILED], False),
        ("转账 TR876033845 没有成功，款项已退回您的账户。", [TRANSFER_READ, TRANSFER_NEW], False),
    ],
)
def test_an_outcome_said_done_while_the_one_change_is_pending(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts
             if f.kind == FactKind.ACTION and f.concept == "refund"]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged


TRACE_FAILED = call("get_refund_trace", "503 Service Unavailable: payments-trace did not respond", "error")
INVENTORY_FAILED = call("get_inventory", "ReadTimeout: inventory service did not respond", "error")
REFUND_FAILED = call("issue_refund", "RefundError: original card closed", "error")


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a read that failed says its lookup failed, no state of the record, alone or beside other reads
        ("The refund of $389.70 was issued on Feb 27 to your Mastercard ending 4336.", [TRACE_FAILED], False),
        ("Two other colors are in stock: navy and white.", [INVENTORY_FAILED], False),
        # a write that failed still contradicts its act said done
        ("The refund of $389.70 has been issued to your Mastercard.", [REFUND_FAILED], True),
    ],
)
def test_a_read_that_failed_states_nothing_of_the_record(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts
             if f.kind in (FactKind.STATUS, FactKind.ACTION)]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged


SERVICE_STARTED = call("start_service", {"request_id": "SR-2210", "status": "scheduled"})
CONFIRMATION_FAILED = call("send_confirmation_email", "SMTPError: mailbox unavailable", "error")
START_FAILED = call("start_service", "Error 409: address not serviceable", "error")


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # a confirmation notice that failed speaks of the notice, not of the request it confirms
        ("Yes, your start-service request went through.", [SERVICE_STARTED, CONFIRMATION_FAILED], False),
        # the request itself failed
        ("Yes, your start-service request went through.", [START_FAILED], True),
    ],
)
def test_a_failed_notice_says_nothing_of_the_request(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for claim in CHECKER.check(answer, tools).claims for f in claim.facts if f.kind == FactKind.STATUS]
    assert facts and any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged


def awaited_verdicts(answer: str, tools: list) -> list[tuple[str, Verdict]]:
    return [(f.text, f.verdict) for c in CHECKER.check(answer, tools).claims for f in c.facts
            if f.kind in (FactKind.STATUS, FactKind.ACTION)]


@pytest.mark.parametrize(
    ("answer", "output", "flagged"),
    [
        # the run's one record is still waiting for what the answer says was done: the awaited word is the claim's
        ("This has been approved by Dana Whitfield, so you're all set.",
         {"request_id": "LR-4410", "status": "Pending manager approval"}, True),
        ("Status: confirmed by the vendor for Friday, October 24.",
         {"order_id": "CAT-2291", "status": "AWAITING_VENDOR_CONFIRMATION"}, True),
        ("上门安装时间已确认，师傅明天上午到。", {"order_id": "AZ-3018", "status": "等待门店确认"}, True),
        # the record is in the state said, or waits for something else, or the answer says what happens once it is
        ("This has been approved by Dana Whitfield, so you're all set.",
         {"request_id": "LR-4410", "status": "approved"}, False),
        ("Your refund has been approved.", {"refund_id": "RF-88", "status": "pending_payout"}, False),
        ("Until it's approved, your booking still shows a July 15 return.",
         {"request_id": "CH-1", "status": "pending_approval"}, False),
    ],
)
def test_a_state_the_one_record_still_awaits(answer: str, output: dict, flagged: bool) -> None:
    facts = awaited_verdicts(answer, [call("get_request", output)])
    assert any(v == Verdict.CONTRADICTED for _, v in facts) is flagged, facts


def test_a_state_awaited_by_one_of_several_records_is_left_to_the_named_record() -> None:
    # EXP-2 waits for approval; the answer speaks of EXP-1, which was approved
    tools = [call("list_expenses", {"expenses": [{"id": "EXP-1", "status": "approved"},
                                                 {"id": "EXP-2", "status": "pending_approval"}]})]
    facts = awaited_verdicts("EXP-1 has been approved.", tools)
    assert facts and all(v != Verdict.CONTRADICTED for _, v in facts), facts


REFUND_FAILED = call("create_refund", {"order_id": "JD55012345", "refund_id": "RF-5521", "status": "FAILED"})
TICKET = call("create_ticket", {"order_id": "JD55012345", "ticket_id": "TK-7741", "queue": "退款异常"})
REFUND_READ = call("get_refund", {"order_id": "JD55012345", "refund_id": "RF-5521", "refund_status": "已退款"})
ORDER_READ = call("get_order", {"order_id": "JD55012345", "status": "已签收", "paid": 1299.0})
REFUND_DONE = call("create_refund", {"order_id": "JD55012345", "refund_id": "RF-5521", "status": "SUCCESS"})
REFUND_ERROR = call("create_refund", {"error": "CARD_CLOSED", "message": "Refund failed: the card 6021 is closed"},
                    status="error")


@pytest.mark.parametrize(
    ("tools", "evidence", "contradicted"),
    [
        # the refund's own status field, not a later ticket's queue that names the refund in other words
        ([ORDER_READ, REFUND_FAILED], "FAILED", True),
        ([ORDER_READ, REFUND_FAILED, TICKET], "FAILED", True),
        # controls: a later call's status field says it now; so does a later call's error
        ([ORDER_READ, REFUND_FAILED, REFUND_READ], "已退款", False),
        ([ORDER_READ, REFUND_DONE, REFUND_ERROR], "Refund failed: the card 6021 is closed", True),
    ],
)
def test_a_status_field_speaks_over_a_later_calls_other_words(tools: list, evidence: str, contradicted: bool) -> None:
    report = CHECKER.check("订单 JD55012345 的退款 1,299.00 元已成功原路退回您的信用卡。", tools)
    fact = next(f for c in report.claims for f in c.facts if f.kind in (FactKind.STATUS, FactKind.ACTION))
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, (fact.verdict, fact.reason)
    assert fact.evidence and fact.evidence[0].text == evidence, fact.evidence
    if contradicted:
        assert fact.confidence is not None and fact.confidence >= 0.8, fact.confidence


_REFUND_READS = [call("get_return", {"return_id": "RT-5512", "refund_status": "pending"}),
                 call("get_order", {"order_id": "DD-8831", "refund_status": "completed"})]
_REFUND_FAILED = call("issue_refund", {"return_id": "RT-5512", "result": "failed", "message": "account restricted"})
_REFUND_DONE = call("issue_refund", {"return_id": "RT-5512", "result": "succeeded"})


@pytest.mark.parametrize(
    ("answer", "write", "contradicted"),
    [
        # the reads state refunds of two records the claim does not name; the act's own call failed
        ("I've just successfully refunded $399.00 to your WeChat Pay.", _REFUND_FAILED, True),
        ("刚刚已为您成功退款 399.00 元，原路退回微信支付。", _REFUND_FAILED, True),
        ("The refund has been completed successfully.", _REFUND_FAILED, True),
        # the act went through, or the answer says it failed: the reads' other records say nothing of it
        ("I've just successfully refunded $399.00 to your WeChat Pay.", _REFUND_DONE, False),
        ("The refund could not be issued: your account is restricted.", _REFUND_FAILED, False),
    ],
)
def test_a_failed_write_contradicts_its_act_said_done_among_other_records(answer, write, contradicted) -> None:
    facts = [f for claim in CHECKER.check(answer, [*_REFUND_READS, write]).claims for f in claim.facts
             if f.kind in (FactKind.ACTION, FactKind.STATUS) and f.concept == "refund"]
    assert facts
    assert any(f.verdict == Verdict.CONTRADICTED for f in facts) == contradicted, [(f.text, f.reason) for f in facts]


ONBOARDING = [{"name": "get_onboarding_tasks", "args": {"employee_id": "EMP-11802"}, "status": "ok", "output": {
    "employee_id": "EMP-11802", "tasks": [
        {"id": "T4", "task": "Laptop ordered", "owner": "IT", "status": "done"},
        {"id": "T5", "task": "Laptop shipped", "owner": "IT", "status": "pending"}]}}]
CONTACT = [{"name": "create_contact", "args": {"name": "约翰"}, "status": "ok",
            "output": {"message": "已经成功为约翰创建了联系人。"}}]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # a task's name ("Laptop shipped") is prose naming the thing, no state of it: "not shipped" is not denied
        ("The laptop was ordered but hasn't shipped yet.", ONBOARDING, []),
        # a write's own message saying it was done denies a claim that it was not
        ("联系人没有创建成功。", CONTACT, [("创建成功", "own-text")]),
    ],
)
def test_a_status_said_not_done_against_a_tools_prose(answer: str, tools: list, expected: list) -> None:
    report = CHECKER.check(answer, tools)
    assert [(f.text, f.strength) for c in report.claims for f in c.facts
            if f.kind in (FactKind.STATUS, FactKind.ACTION) and f.verdict == Verdict.CONTRADICTED] == expected
