"""Per-unit amounts said as the whole: the count a call names by the unit's plural, and money said to move."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
S, C = Verdict.SUPPORTED, Verdict.CONTRADICTED
BAGS = {"name": "quote_baggage_fee", "args": {"reservation_id": "H4NQ8R", "additional_bags": 3}, "status": "ok",
        "output": {"reservation_id": "H4NQ8R", "bags_requested": 3, "free_allowance_remaining": 0,
                   "fee_per_bag": 50, "currency": "USD"}}
TRIP = {"name": "get_trip", "args": {"trip_id": "TR-7"}, "status": "ok",
        "output": {"trip_id": "TR-7", "destination": "Shanghai", "days": 4, "status": "approved"}}
PER_DIEM = {"name": "get_per_diem_rate", "args": {"city": "Shanghai"}, "status": "ok",
            "output": {"city": "Shanghai", "currency": "CNY", "meal_allowance_per_day": 180, "incidental_per_day": 50}}
COPAY = {"name": "get_benefit_quote", "args": {"rx_number": "RX-1", "qty": 3}, "status": "ok", "output": {
    "pricing": {"unit": "box", "copay_per_unit": {"amount": 35.0, "currency": "USD"}, "units": 3,
                "copay_total": {"amount": 105.0, "currency": "USD"}}}}
DEPOSIT = {"name": "get_private_dining_quote", "args": {"restaurant_id": "CV-11", "guests": 14}, "status": "ok",
           "output": {"room": "Sala Azul", "room_hire": 150.0, "deposit_per_guest": 25.0, "currency": "EUR"}}
RETURN = {"name": "get_order_details", "args": {"order_id": "#W2290455"}, "status": "ok", "output": {
    "order_id": "#W2290455", "status": "delivered",
    "lines": [{"line_id": 1, "name": "Soy Candle", "qty": 4, "unit_price": 16.75, "line_total": 67.0},
              {"line_id": 2, "name": "Candle Snuffer", "qty": 1, "unit_price": 9.0, "line_total": 9.0}],
    "order_total": 82.95}}
ADDON = {"name": "add_addon", "args": {"order_id": "EV-71044", "addon_id": "AD-LNG", "quantity": 2}, "status": "ok",
         "output": {"order_id": "EV-71044", "line": {"name": "Lounge Access", "quantity": 2, "unit_price": 45.0,
                                                     "line_total": 90.0}, "status": "added"}}


def verdict(answer: str, tools: list, said: str) -> tuple[Verdict, str]:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict, fact.reason


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected", "whole"),
    [
        # a fee per bag said as the total: times the bags the quote names
        ("The total to add them comes to $50, payable with your Visa.", [BAGS], "$50", C, "150"),
        ("The total to add them comes to $150.", [BAGS], "$150", S, ""),
        ("It's $50 per bag.", [BAGS], "$50", S, ""),
        # a rate per day said as the total: times the days another call gives
        ("这次 meal allowance 合计 ¥180。", [TRIP, PER_DIEM], "¥180", C, "720"),
        ("meal allowance 每天 ¥180。", [TRIP, PER_DIEM], "¥180", S, ""),
        # a money object's amount per unit, with the units beside it
        ("Your copay: $35.00 for all 3 boxes.", [COPAY], "$35.00", C, "105"),
        ("Your copay: $35.00 per box.", [COPAY], "$35.00", S, ""),
        # a deposit per guest said as what to pay, for the guests the quote was for
        ("To confirm, you need to pay a deposit of €25.00 now.", [DEPOSIT], "€25.00", C, "350"),
        ("The deposit is €25.00 per guest.", [DEPOSIT], "€25.00", S, ""),
    ],
)
def test_a_per_unit_amount_is_taken_for_its_count(answer, tools, said, expected, whole) -> None:
    got, reason = verdict(answer, tools, said)
    assert got == expected, reason
    assert whole in reason


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # money said to come back or be charged, done or to be, is all that moves
        ("Returning them would get you $16.75 back, refunded to your card.", [RETURN], "$16.75", C),
        ("You'll be charged $45.00 for the passes.", [ADDON], "$45.00", C),
        ("Returning them would get you $67.00 back.", [RETURN], "$67.00", S),
        # unless the claim says one unit's amount, one unit among several, or shows its working
        ("Each candle is $16.75, so returning them gets you $67.00 back.", [RETURN], "$16.75", S),
        ("Returning 1 candle would get you $16.75 back.", [RETURN], "$16.75", S),
        ("You'll be charged $45.00 a pass.", [ADDON], "$45.00", S),
        ("You'll be charged $45.00 for the first pass.", [ADDON], "$45.00", S),
        ("That's 2 passes of $45.00, so you'll be charged $90.00.", [ADDON], "$45.00", S),
    ],
)
def test_money_said_to_move_is_the_whole(answer, tools, said, expected) -> None:
    got, reason = verdict(answer, tools, said)
    assert got == expected, reason


def test_a_charge_in_a_label_line_is_a_part_of_what_the_write_recorded() -> None:
    reservation = {"name": "get_reservation_details", "args": {"reservation_id": "LM4Q8T"}, "status": "ok",
                   "output": {"reservation_id": "LM4Q8T", "passengers": [{"first_name": "Ryan"}],
                              "payment_history": [{"payment_id": "credit_card_1187", "amount": 354}]}}
    update = {"name": "update_reservation_baggages", "args": {"reservation_id": "LM4Q8T", "nonfree_baggages": 3},
              "status": "ok", "output": {"reservation_id": "LM4Q8T", "payment_history": [
                  {"payment_id": "credit_card_1187", "amount": 354},
                  {"payment_id": "credit_card_1187", "amount": 150}]}}
    policy = "Policy: each extra checked bag costs $50."
    fact = next(f for c in CHECKER.check("Charged: $50.00 to your Visa", [reservation, update], [policy]).claims
                for f in c.facts if f.text == "$50.00")
    assert fact.verdict == C and "150" in fact.reason, fact.reason
    fact = next(f for c in CHECKER.check("Charged: $150.00 to your Visa", [reservation, update], [policy]).claims
                for f in c.facts if f.text == "$150.00")
    assert fact.verdict == S, fact.reason


def test_a_refund_write_names_its_amounts_way() -> None:
    quote = {"name": "get_refund_quote", "args": {"order_id": "TKO-1"}, "status": "ok", "output": {
        "per_ticket": {"face_value": 45.0, "fees": 6.25, "refundable": 51.25}, "quantity": 3,
        "refund_total": 153.75}}
    refund = {"name": "create_refund", "args": {"order_id": "TKO-1", "amount": 153.75}, "status": "ok",
              "output": {"refund_id": "RF-30917", "status": "submitted", "amount": 153.75}}
    got, reason = verdict("Refund amount: $51.25 — the full face value plus all booking fees", [quote, refund],
                          "$51.25")
    assert got == C and "153.75" in reason and "create_refund" in reason, reason
    got, reason = verdict("Refund amount: $153.75 — the full face value plus all booking fees", [quote, refund],
                          "$153.75")
    assert got == S, reason


def test_a_multiplier_after_a_nightly_rate_counts_the_stays_nights() -> None:
    booking = {"name": "get_group_booking", "args": {"booking_id": "GB-1"}, "status": "ok", "output": {
        "booking_id": "GB-1", "check_in": "2026-12-23", "check_out": "2026-12-28",
        "rooms": [{"room_no": "1330", "nightly_rate": 299}, {"room_no": "1008", "nightly_rate": 235}]}}
    for answer, expected in (("- Room 1330: $299.00/night × 5 = $1,495.00", S),
                             ("- Room 1330: $299.00/night × 6 = $1,794.00", Verdict.UNSUPPORTED)):
        got, reason = verdict(answer, [booking], "5" if "× 5" in answer else "6")
        assert got == expected, reason


INVOICE = {"name": "get_invoice", "args": {"period": "2025-07"}, "status": "ok", "output": {
    "invoice_id": "INV-202507-11482", "lines": [
        {"description": "家庭版 月费", "quantity": 1, "unit_price": 45.0, "amount": 45.0},
        {"description": "额外席位", "quantity": 3, "unit_price": 12.0, "amount": 36.0}],
    "subtotal": 81.0, "total": 81.0}}


@pytest.mark.parametrize(
    ("answer", "said", "expected"),
    [
        # a unit price said as what a field of the claim's word holds: the line's quantity times it
        ("• 额外席位 3 个，合计 ¥12.00", "¥12.00", C),
        ("• 额外席位 3 个，每个 ¥12.00", "¥12.00", S),
    ],
)
def test_a_unit_price_said_under_a_total_word_is_times_its_quantity(answer: str, said: str, expected) -> None:
    got, reason = verdict(answer, [INVOICE], said)
    assert got == expected, reason
    if expected == C:  # the line's computation, not the invoice's total, is the evidence
        assert "3 × 12 = 36" in reason, reason
