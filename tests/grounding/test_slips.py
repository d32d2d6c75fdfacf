"""A total the answer works out itself, off by one slipped digit from what its own amounts come to."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
LINES = {"name": "get_return", "args": {}, "status": "ok", "output": {"lines": [
    {"sku": "A-1", "amount": 49.98}, {"sku": "B-2", "amount": 12.5}, {"sku": "C-3", "amount": 8.75}]}}
CARD = {"name": "get_gift_card", "args": {}, "status": "ok", "output": {"initial": 100.0, "uses": [
    {"order": "ORD-1", "amount": 38.85}, {"order": "ORD-2", "amount": 32.6}]}}
FARES = {"name": "price_itinerary", "args": {}, "status": "ok", "output": {"fares": [
    {"seg": "CAN-BKK", "fare": 1280}, {"seg": "BKK-CAN", "fare": 1460}]}}
TICKETS = {"name": "quote", "args": {}, "status": "ok", "output": {"price": 2720, "fee": 10}}
DEDUCTIBLE = {"name": "get_patient_account", "args": {}, "status": "ok",
              "output": {"deductible": {"annual": 2000.0, "met": 1620.45}}}

OVERTIME = {"name": "get_payslips", "args": {}, "status": "ok",
            "output": {"payslips": [{"month": "2025-05", "overtime_pay": 1931.16},
                                    {"month": "2025-06", "overtime_pay": 2344.98}]}}


def verdict(answer: str, tools: list, said: str) -> Verdict:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # the amounts listed before the total, added up, miss it by one digit
        ("The lines are $49.98, $12.50 and $8.75. Refund total: $73.23.", [LINES], "$73.23", Verdict.CONTRADICTED),
        ("The lines are $49.98, $12.50 and $8.75. Refund total: $71.23.", [LINES], "$71.23", Verdict.SUPPORTED),
        # taken away from the amount before them
        ("It started at $100.00; you spent $38.85 and $32.60. That leaves $29.55 on the card.", [CARD], "$29.55",
         Verdict.CONTRADICTED),
        ("It started at $100.00; you spent $38.85 and $32.60. That leaves $28.55 on the card.", [CARD], "$28.55",
         Verdict.UNSUPPORTED),
        # a line's own total, in the lines of a list
        ("- 去程：1,280 元\n- 回程：1,460 元\n两段合计 2,470 元。", [FARES], "2,470 元", Verdict.CONTRADICTED),
        # a difference said with 多了 (lexicon working_cues), two digits next to each other swapped
        ("5 月加班费 1,931.16 元，6 月 2,344.98 元，6 月多了 431.82 元。", [OVERTIME], "431.82 元",
         Verdict.CONTRADICTED),
        ("5 月加班费 1,931.16 元，6 月 2,344.98 元，6 月多了 413.82 元。", [OVERTIME], "413.82 元", Verdict.SUPPORTED),
        # the cue after the amount, in its clause ("… remains", "… in total"); the whole said after the part
        ("You've met $1,620.45 of your $2,000.00 deductible, so only $479.55 remains.", [DEDUCTIBLE], "$479.55",
         Verdict.CONTRADICTED),
        ("You've met $1,620.45 of your $2,000.00 deductible, so only $379.55 remains.", [DEDUCTIBLE], "$379.55",
         Verdict.SUPPORTED),
        ("The lines are $49.98, $12.50 and $8.75. That's $73.23 back to you in total.", [LINES], "$73.23",
         Verdict.CONTRADICTED),
        # a round amount one digit off is no evidence: ¥2,720 + ¥10 and ¥2,760 may be worked out otherwise
        ("4 张票价 ¥2,720，加每张 ¥10 服务费，合计 ¥2,760。", [TICKETS], "¥2,760", Verdict.UNSUPPORTED),
    ],
)
def test_a_total_one_digit_off_what_the_answers_amounts_come_to(answer: str, tools: list, said: str,
                                                                  expected: Verdict) -> None:
    assert verdict(answer, tools, said) == expected


def test_a_slip_of_one_is_no_fee_left_out() -> None:
    card = {"name": "get_gift_card", "args": {}, "status": "ok", "output": {
        "initial": 100.0, "uses": [{"amount": 38.85}, {"amount": 32.6}], "fees": {"amount": 1.0}}}
    answer = "It started at $100.00; you spent $38.85 and $32.60. That leaves $29.55 on the card."
    assert verdict(answer, [card], "$29.55") == Verdict.CONTRADICTED


QUOTES = {"name": "get_freight_quote", "args": {}, "status": "ok",
          "output": {"quotes": [{"carrier": "德邦", "fee": 182.4}, {"carrier": "顺丰", "fee": 205.2}]}}
BILL = {"name": "get_account", "args": {}, "status": "ok", "output": {"balance_due": 312.4, "last_paid": 198.75}}
PAYMENT = {"name": "make_payment", "args": {"amount": 150.0}, "status": "ok",
           "output": {"payment_id": "PAY-66120", "status": "scheduled", "amount": 150.0}}
ACCOUNT = {"name": "get_student_account", "args": {}, "status": "ok", "output": {
    "charges": [{"item": "tuition", "amount": 14250.0}, {"item": "activity", "amount": 185.0},
                {"item": "technology", "amount": 210.0}, {"item": "housing", "amount": 4860.0}],
    "total_charges": 19505.0, "aid": [{"item": "scholarship", "amount": 6000.0}, {"item": "loan", "amount": 3464.0},
                                      {"item": "payment", "amount": 2500.0}], "total_aid": 11964.0}}
PLANS = {"name": "list_plans", "args": {}, "status": "ok", "output": {"plans": [
    {"plan": "Basic", "price": 444.0}, {"plan": "Plus", "price": 12.0}, {"plan": "Family", "price": 532.0}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # two amounts of the lines just before it, one taken from the other, miss it by one digit (no cue needed)
        ("- 德邦：182.40 元\n- 顺丰：205.20 元\n- 价差：德邦便宜 32.80 元。", [QUOTES], "32.80 元",
         Verdict.CONTRADICTED),
        ("- 德邦：182.40 元\n- 顺丰：205.20 元\n- 价差：德邦便宜 22.80 元。", [QUOTES], "22.80 元", Verdict.SUPPORTED),
        # an amount between its two parts: the payment before it, the bill after it
        ("Payment of $150.00 submitted. Once it posts, you'll still owe $172.40. June's bill was $312.40.",
         [BILL, PAYMENT], "$172.40", Verdict.CONTRADICTED),
        # the first amount of a claim nearby, beyond the four amounts nearest it (a breakdown's parts come between)
        ("Total charges: $19,505.00 (tuition $14,250.00, activity fee $185.00, technology fee $210.00, housing "
         "$4,860.00)\nAid applied: $11,964.00 (scholarship $6,000.00, loan $3,464.00, payment $2,500.00)\n"
         "Remaining balance: $7,451.00", [ACCOUNT], "$7,451.00", Verdict.CONTRADICTED),
        # a claim that multiplies or shows its working is no pair's: "each", "per", "=", "× 2"
        ("Payment of $150.00 submitted. Once it posts, you'll still owe $172.40 each. June's bill was $312.40.",
         [BILL, PAYMENT], "$172.40", Verdict.UNSUPPORTED),
        ("- 德邦：182.40 元\n- 顺丰：205.20 元\n- 价差：205.20 − 182.40 = 32.80 元。", [QUOTES], "32.80 元",
         Verdict.CONTRADICTED),
        # amounts farther than two claims away are another part of the answer
        ("德邦 182.40 元。顺丰 205.20 元。都含税。都上门取件。都可开票。德邦便宜 32.80 元。", [QUOTES], "32.80 元",
         Verdict.UNSUPPORTED),
        # an amount that some amounts near it come to exactly is a working not shown, not a slip
        ("Basic is $444.00 and Plus $12.00. With the $9.00 setup fee you pay $465.00.", [PLANS], "$465.00",
         Verdict.UNSUPPORTED),
        ("Basic is $444.00 and Plus $12.00. With both you pay $465.00.", [PLANS], "$465.00", Verdict.CONTRADICTED),
        # a table's row is checked against its own cells only
        ("| plan | price |\n|---|---|\n| Basic | $444.00 |\n| Plus | $12.00 |\n| Family | $532.00 |\n"
         "| Mine | $423.00 |", [PLANS], "$423.00", Verdict.UNSUPPORTED),
    ],
)
def test_an_amount_one_digit_off_two_of_the_answers_amounts_nearby(answer: str, tools: list, said: str,
                                                                    expected: Verdict) -> None:
    assert verdict(answer, tools, said) == expected
