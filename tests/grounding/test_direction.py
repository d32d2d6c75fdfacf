"""Which way money moved: a charge said of a refund, or the reverse, against the records."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention
S, C = Verdict.SUPPORTED, Verdict.CONTRADICTED

MODIFIED = {"name": "modify_pending_order_items", "args": {}, "status": "ok", "output": {
    "order_id": "#W1", "status": "pending (item modified)", "payment_history": [
        {"transaction_type": "payment", "amount": 1288.65, "payment_method_id": "paypal_1"},
        {"transaction_type": "refund", "amount": 30.78, "payment_method_id": "paypal_1"}]}}
CANCELLED = {"name": "cancel_reservation", "args": {}, "status": "ok", "output": {
    "payment_history": [{"payment_id": "gift_card_1", "amount": 169}, {"payment_id": "gift_card_1", "amount": -169}]}}
PAID = {"name": "get_order_details", "args": {}, "status": "ok", "output": {
    "payment_history": [{"transaction_type": "payment", "amount": 500.0}]}}
EXCHANGED = {"name": "exchange_delivered_order_items", "args": {}, "status": "ok", "output": {
    "status": "exchange requested", "exchange_price_difference": -25.5}}
CREDIT = {"name": "list_transactions", "args": {}, "status": "ok", "output": {"transactions": [
    {"description": "SKYWAYS AIRLINES REFUND", "amount": 1200.0, "type": "credit"}]}}
PRORATED = {"name": "change_plan", "args": {}, "status": "ok", "output": {
    "plan": "Starter", "days_remaining": 14, "proration": {"direction": "credit", "amount": 14.0}}}
REFUND_FIELD = {"name": "exchange_items", "args": {}, "status": "ok", "output": {"refund_amount": 12.5}}
QUOTED = {"name": "quote_change", "args": {}, "status": "ok", "output": {"total_due": 0.0, "total_credit": 62.0}}
RETURN_FEE = {"name": "get_return", "args": {}, "status": "ok", "output": {"return": {"return_fee": 25.0}}}
CARDS = {"name": "get_accounts", "args": {}, "status": "ok", "output": {"accounts": [
    {"account_id": "CC-3310", "type": "credit", "current_balance": 864.2, "credit_limit": 5000.0,
     "available_credit": 4135.8}]}}
CLOSED = {"name": "close_account", "args": {}, "status": "ok", "output": {"final_balance": -86.75}}
REFUND_FEE = {"name": "refund_ticket", "args": {}, "status": "ok",
              "output": {"result": "success", "refund_fee": 65.5, "refund_amount": 262.0}}
CARD_PURCHASES = {"name": "list_card_transactions", "args": {}, "status": "ok", "output": [
    {"id": "TX-1", "merchant": "SHELL", "amount": -48.12}, {"id": "TX-2", "merchant": "WHOLEFDS", "amount": -86.47}]}
REFUND_AMONG_PURCHASES = {"name": "list_card_transactions", "args": {}, "status": "ok", "output": [
    {"id": "TX-1", "merchant": "SHELL OIL", "amount": 48.12}, {"id": "TX-2", "merchant": "WHOLEFDS", "amount": -86.47}]}
LEDGER = {"name": "get_account_ledger", "args": {}, "status": "ok", "output": {"credits": [
    {"desc": "Payment - card", "amount": -1200.0}]}}
REFUND_LEDGER = {"name": "get_account_ledger", "args": {}, "status": "ok", "output": {"credits": [
    {"desc": "Refund - lab fee", "amount": 75.0}]}}
CHARGES = {"name": "get_account_ledger", "args": {}, "status": "ok", "output": {"charges": [
    {"desc": "Tuition (15 credits)", "amount": 6840.0}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("A charge of $30.78 has been processed to your PayPal account.", [MODIFIED], C),
        ("A refund of $30.78 has been issued to your PayPal account.", [MODIFIED], S),
        ("我们已向您退款 $1288.65。", [MODIFIED], C),
        ("The $1288.65 was charged to PayPal.", [MODIFIED], S),
        ("You were charged $12.50 for the exchange.", [REFUND_FIELD], C),
        # the amount was paid and paid back: either way is said by a record
        ("You were refunded $169.", [CANCELLED], S),
        # what a cancellation is to do is no record's direction yet
        ("You will be refunded $500.00 once the cancellation goes through.", [PAID], S),
        # after the write that recorded it, "will be charged" speaks of what the record says
        ("The price difference of $25.50 will be charged to your card.", [EXCHANGED], C),
        ("SkyWays: the $1,200.00 was charged to your account.", [CREDIT], C),
        # a field named a credit is money back; a return's fee is no credit
        ("You'd owe $62.00 in total.", [QUOTED], C),
        ("You'll get a $62.00 credit.", [QUOTED], S),
        ("A return fee of $25.00 will be deducted.", [RETURN_FEE], S),
        # the fee kept on a refund is no money paid back
        ("已收取退票手续费 65.5 元。", [REFUND_FEE], S),
        ("退款 262 元已原路退回。", [REFUND_FEE], S),
        # what stands on a credit card account moved no way, whatever its `type: credit` says
        ("You owe $864.20 on this card.", [CARDS], S),
        # a balance's sign still says the account owes the user
        ("That leaves a balance of $86.75 that you owe.", [CLOSED], C),
        # an amount of money is no count or measure of the record: the proration's 14.00 is a credit
        ("按剩余天数计算，需补缴差价 $14.00。", [PRORATED], C),
        # a list whose every amount is negative writes them all so: its sign marks no refund among charges
        ("There are two $86.47 charges from Whole Foods.", [CARD_PURCHASES], S),
        ("There is a $86.47 charge from Whole Foods.", [REFUND_AMONG_PURCHASES], C),
        # a record's text says its way by its first word: the user's payment, a refund; not a course's credits
        ("Your card payment of $1,200.00 has posted.", [LEDGER], S),
        ("You were charged $75.00 for the lab.", [REFUND_LEDGER], C),
        ("Tuition of $6,840.00 was billed to your account.", [CHARGES], S),
    ],
)
def test_an_amount_said_to_move_the_other_way_than_its_records_is_contradicted(answer, tools, expected):
    numbers = [f.verdict for claim in CHECKER.check(answer, tools).claims for f in claim.facts
               if f.kind.value == "number"]
    assert numbers == [expected]


def test_a_number_a_calculator_returned_backs_the_claim_whatever_its_field():
    tools = [{"name": "get_order_details", "args": {}, "status": "ok",
              "output": {"items": [{"price": 622.12}, {"price": 473.43}], "payment_history": [{"amount": 2623.69}]}},
             {"name": "calculate", "args": {"expression": "622.12 + 473.43 + 30.49"}, "status": "ok",
              "output": "1126.04"}]
    report = CHECKER.check("The total refund amount of $1,126.04 will be credited to PayPal.", tools)
    assert [f.verdict for c in report.claims for f in c.facts if f.kind.value == "number"] == [S]
    # a number inside a longer output is no computed result
    tools[1]["output"] = "refund amount: 30 USD, order amount 1126.04 USD"
    report = CHECKER.check("The total refund amount of $1,126.04 will be credited to PayPal.", tools)
    assert [f.verdict for c in report.claims for f in c.facts if f.kind.value == "number"] != [S]


_HISTORY = [{"payment_id": "certificate_1", "amount": 250}, {"payment_id": "credit_card_2", "amount": 1308.0}]
_READ = {"name": "get_reservation_details", "args": {"reservation_id": "R1"},
         "output": {"reservation_id": "R1", "payment_history": _HISTORY}}
_CANCEL = {"name": "cancel_reservation", "args": {"reservation_id": "R1"},
           "output": {"reservation_id": "R1", "payment_history": [*_HISTORY, {"payment_id": "certificate_1",
                                                                              "amount": -250},
                                                                  {"payment_id": "credit_card_2", "amount": -1308.0}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "verdict"),
    [
        # the write added -1308: the money went back, whatever the booking's own payment of 1308 said
        ("Your Visa has been charged $1,308.00.", [_READ, _CANCEL], "contradicted"),
        ("Your Visa has been refunded $1,308.00.", [_READ, _CANCEL], "supported"),
        # no write yet: a refund of the amount paid is what a cancellation would give back
        ("Option A: cancel the booking. Refund amount: $1,308.00 to your Visa.", [_READ], "supported"),
        ("If you cancel, $1,308.00 will be refunded to your Visa.", [_READ], "supported"),
    ],
)
def test_the_entries_a_write_added_say_which_way_the_money_went(answer, tools, verdict) -> None:
    from factcheck import check

    report = check(answer, tools)
    amount = next(f for c in report.claims for f in c.facts if f.text == "$1,308.00")
    assert amount.verdict.value == verdict


def test_of_two_ways_said_the_word_nearest_the_amount_is_its_way() -> None:
    from factcheck import check

    transfer = {"name": "get_transfer", "args": {"transfer_id": "T1"}, "output": {
        "transfer_id": "T1", "amount": 2800.0, "status": "returned",
        "return": {"return_fee": 25.0, "credited_amount": 2775.0, "credited_to": "****1011"}}}
    report = check("转账已被退回，退回时银行又从您的账户扣除了 ¥2,775.00。", [transfer])
    amount = next(f for c in report.claims for f in c.facts if f.text == "¥2,775.00")
    assert amount.verdict.value == "contradicted" and amount.code == "wrong_direction"


_ORDER = {"name": "get_order_details", "args": {"order_id": "#W1"}, "status": "ok", "output": {
    "order_id": "#W1", "items": [{"name": "Desk Lamp", "product_id": "681", "item_id": "919", "price": 153.23},
                                 {"name": "Notebook", "product_id": "702", "item_id": "920", "price": 12.0}]}}
_LAMPS = {"name": "get_product_details", "args": {"product_id": "681"}, "status": "ok", "output": {
    "name": "Desk Lamp", "product_id": "681", "variants": {
        "532": {"item_id": "532", "available": True, "price": 135.24},
        "908": {"item_id": "908", "available": True, "price": 164.28}}}}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the ordered lamp (153.23) swapped for a cheaper variant (135.24): the 17.99 comes back
        ("A charge of $17.99 will be applied to your gift card.", C),
        ("A refund of $17.99 will go to your gift card.", S),
        # a dearer variant (164.28): the 11.05 is paid, whatever the tense
        ("You will be refunded $11.05 for the brighter one.", C),
        ("You'll be charged $11.05 for the brighter one.", S),
        # another product's price (the notebook's 12.00) is no side of the lamp's swap: 164.28 − 12.00 says nothing
        ("You'll be refunded $152.28.", S),
    ],
)
def test_a_price_difference_moves_the_way_the_ordered_item_and_its_option_say(answer, expected) -> None:
    numbers = [f for c in CHECKER.check(answer, [_ORDER, _LAMPS]).claims for f in c.facts
               if f.kind.value == "number"]
    assert numbers[0].verdict == expected, numbers
    if expected == C:
        assert numbers[0].code == "wrong_direction" and "the ordered item's 153.23" in numbers[0].reason


INVOICE = {"name": "get_invoice", "args": {}, "status": "ok", "output": {
    "subtotal": 3272.22, "adjustments": [{"type": "credit", "reason": "SLA credit", "amount": -120.0}],
    "tax": 252.18, "total": 3404.4}}
BILL = {"name": "get_bill", "args": {}, "status": "ok", "output": {
    "lines": [{"amount": 392.0}], "adjustments": [{"type": "credit", "amount": -25.0}], "amount_due": 367.0}}
PREPAID = {"name": "get_booking", "args": {}, "status": "ok", "output": {
    "rate_plan": "Advance Purchase", "refundable": False, "total_charged": 5280.0}}
REFUND_DUE = {"name": "get_claim", "args": {}, "status": "ok", "output": {
    "deposit": 8000.0, "self_pay": 5919.5, "refund_due": 2080.5, "refunded_at": "2025-08-19"}}
TICKET_REFUND = {"name": "refund_ticket", "args": {}, "status": "ok", "output": {
    "type": "refund", "fare": 2180.0, "cancellation_fee": 436.0, "amount": 1744.0}}


@pytest.mark.parametrize(
    ("answer", "tools"),
    [
        # an amount taken off a bill is no charge of the user
        ("扣除 SLA 赔付抵扣 $120.00、加税 $252.18 后，应付 $3,404.40。", [INVOICE]),
        ("本月账单应付 ¥367.00（已扣除忠诚度优惠 ¥25）。", [BILL]),
        # a direction word denied says nothing of the other way
        ("不可退款，取消的话已付的 ¥5,280 无法退回。", [PREPAID]),
        # a deduction closed by 后 before the amount: the amount is what is left, not what was taken
        ("您交了 8,000 元押金，扣除自付部分后应退 2,080.50 元，已于 8 月 19 日退回。", [REFUND_DUE]),
        # a fee is money kept, whatever way its record moved
        ("可退 1,744 元：票价 2,180 元，再扣除退票手续费 436.00 元。", [TICKET_REFUND]),
    ],
)
def test_a_deduction_from_a_bill_or_a_denied_direction_is_no_wrong_direction(answer, tools) -> None:
    codes = [f.code for claim in CHECKER.check(answer, tools).claims for f in claim.facts]
    assert "wrong_direction" not in codes


def test_a_deduction_word_still_charges_what_is_taken_from_the_user() -> None:
    refunded = {"name": "get_refund", "args": {}, "status": "ok", "output": {
        "transaction_type": "refund", "amount": 45.0}}
    codes = [f.code for claim in CHECKER.check("银行从您的账户扣除了 ¥45.00。", [refunded]).claims for f in claim.facts]
    assert "wrong_direction" in codes


_KETTLE_BOOTS = [{"name": "Kettle", "item_id": "1", "price": 45.39}, {"name": "Boots", "item_id": "2", "price": 208.15}]
_PAID = {"transaction_type": "payment", "amount": 253.54, "payment_method_id": "gift_card_1"}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a refund said as one item's price, where the cancellation recorded the whole refund
        ("Refund: $45.39 to your gift card.", Verdict.CONTRADICTED),
        ("Refund: $253.54 to your gift card.", Verdict.SUPPORTED),
        ("The Kettle was $45.39.", Verdict.SUPPORTED),  # a price said as a price
    ],
)
def test_one_items_price_is_no_refund_a_write_recorded_for_all(answer, expected) -> None:
    order = {"order_id": "#W1", "status": "pending", "items": _KETTLE_BOOTS, "payment_history": [_PAID]}
    cancelled = {**order, "status": "cancelled", "payment_history": [
        _PAID, {"transaction_type": "refund", "amount": 253.54, "payment_method_id": "gift_card_1"}]}
    calls = [{"name": "get_order_details", "args": {"order_id": "#W1"}, "output": order},
             {"name": "cancel_pending_order", "args": {"order_id": "#W1"}, "output": cancelled}]
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, calls)
    fact = next(f for c in report.claims for f in c.facts if f.kind.value == "number")
    assert fact.verdict == expected, fact


RESERVATION_READ = {"name": "get_reservation_details", "args": {"reservation_id": "H8Q05L"}, "status": "ok",
                    "output": {"reservation_id": "H8Q05L", "passengers": [{"n": "A"}, {"n": "B"}],
                               "flights": [{"flight_number": "HAT217", "price": 118}],
                               "payment_history": [{"payment_id": "credit_card_1", "amount": 236}]}}
CHANGED = {"name": "update_reservation_flights", "args": {"reservation_id": "H8Q05L"}, "status": "ok",
           "output": {"reservation_id": "H8Q05L", "passengers": [{"n": "A"}, {"n": "B"}],
                      "flights": [{"flight_number": "HAT217", "price": 152}],
                      "payment_history": [{"payment_id": "credit_card_1", "amount": 236},
                                          {"payment_id": "credit_card_1", "amount": 68}]}}


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # one traveller's difference said as what was charged: the change recorded one payment for both
        ("The new fare is $152 versus $118, so I charged the $34 difference to your Mastercard.", True),
        ("The new fare is $152 versus $118, so I charged the $68 difference to your Mastercard.", False),
        ("The new fare is $152 versus $118, so I charged the $34 difference per person, $68 in all.", False),
    ],
)
def test_a_charge_said_as_one_part_of_what_the_write_recorded(answer: str, flagged: bool) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, [RESERVATION_READ, CHANGED])
    said = [f for c in report.claims for f in c.facts if f.text in ("$34", "$68")]
    assert any(f.verdict.flagged and f.code == "recomputed" for f in said) == flagged, said
