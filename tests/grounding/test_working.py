"""The answer's own working: stated differences, written-out arithmetic and what is left, recomputed."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict, check

PAY = [{"name": "get_pay_stubs", "args": {}, "output": [{"date": "2026-11-14", "net_pay": 3212.44, "ot_pay": 300},
                                                         {"date": "2026-11-30", "net_pay": 3049.26}]}]
OFFERS = [{"name": "get_offers", "args": {}, "output": {"offers": [{"id": "OF1", "price": 79.0, "fee": 6.5},
                                                                   {"id": "OF2", "price": 480, "fee": 32}]}}]


def _verdict(answer: str, tools: list, text: str) -> tuple[str, str | None]:
    fact = next(f for c in check(answer, tools).claims for f in c.facts if f.text == text)
    return fact.verdict.value, fact.code


@pytest.mark.parametrize(
    ("answer", "text", "expected"),
    [
        ("Your Nov 30 net pay was $3,049.26, which is $163.18 less than the $3,212.44 you got on Nov 14.",
         "$163.18", ("supported", "derived")),
        ("Your Nov 30 net pay was $3,049.26, which is $300.00 less than the $3,212.44 you got on Nov 14.",
         "$300.00", ("contradicted", "recomputed")),  # 300 is a tool's number, but not this difference
        ("Your Nov 30 net pay was $3,049.26, which is $163.18 more than the $3,212.44 you got on Nov 14.",
         "$163.18", ("contradicted", "recomputed")),  # the right size, the wrong way round
        ("您 11 月 30 日的实发 $3,212.44，比 11 月 14 日的 $3,049.26 多了 $163.18。", "$163.18",
         ("supported", "derived")),
        ("您 11 月 30 日的实发 $3,212.44，比 11 月 14 日的 $3,049.26 多了 $300.00。", "$300.00",
         ("contradicted", "recomputed")),
    ],
)
def test_a_stated_difference_is_recomputed_from_the_two_amounts(answer, text, expected) -> None:
    assert _verdict(answer, PAY, text) == expected


FARES = [{"name": "search_flights", "args": {}, "output": [{"flight": "HAT203", "price": 162, "seats": 0},
                                                           {"flight": "HAT140", "price": 171, "seats": 4},
                                                           {"flight": "HAT112", "price": 186, "seats": 7}]}]


@pytest.mark.parametrize(
    ("answer", "text", "expected"),
    [
        # a difference stated before is no subject of the next comparison: the option's own price is
        ("HAT140 is $171, $9 more than the sold-out HAT203 and $15 less than the 06:00 HAT112 ($186).", "$15",
         ("supported", "derived")),
        ("HAT140 is $171, $9 more than the sold-out HAT203 and $25 less than the 06:00 HAT112 ($186).", "$25",
         ("contradicted", "recomputed")),
        # in its own sentence, only a difference stands before it: nothing to recompute from
        ("HAT140 is $171. That's $9 more than the sold-out HAT203 and $25 less than the 06:00 HAT112 ($186).", "$25",
         ("unsupported", "not_found")),
        # 比 compares with the amount nearest its comparative, in its own clause
        ("HAT140 ¥171，比按 HAT112 ¥186 算的 ¥162 贵 ¥9。", "¥9", ("supported", "derived")),
        ("HAT140 ¥171，比 HAT203 的 ¥162 贵 ¥9，但比 HAT112 的 ¥186 便宜 ¥15。", "¥15", ("supported", "derived")),
        ("HAT140 ¥1,710，比 HAT112 的 ¥1,860 便宜 ¥250。", "¥250", ("unsupported", "not_found")),
    ],
)
def test_the_amounts_a_difference_is_between(answer, text, expected) -> None:
    assert _verdict(answer, FARES, text) == expected


@pytest.mark.parametrize(
    ("answer", "text", "expected"),
    [
        ("Section 104, Row F (OF1): $79.00 + $6.50 fee = $85.50 per ticket.", "$85.50", ("supported", "derived")),
        ("Section 104, Row F (OF1): $79.00 + $6.50 fee = $86.50 per ticket.", "$86.50",
         ("contradicted", "recomputed")),
        ("退款金额 ¥960.00（票面 ¥480.00 × 2，手续费不退）。", "¥960.00", ("supported", "derived")),
        ("12 seats x $72 = $846.", "$846", ("contradicted", "recomputed")),  # 12 × 72 = 864
        ("The ticket is $79.00 (OF1).", "$79.00", ("supported", "match")),  # a bracket with no expression
        # a rate written with its unit's denominator is one operand ("2.40 元/kg", "$2.40/kg")
        ("143.2 kg × 2.40 元/kg = 334.68 元", "334.68 元", ("contradicted", "recomputed")),
        ("143.2 kg × $2.40/kg = $334.68", "$334.68", ("contradicted", "recomputed")),
    ],
)
def test_written_arithmetic_must_come_to_its_result(answer, text, expected) -> None:
    assert _verdict(answer, OFFERS, text) == expected


BILL = [{"name": "get_quote", "args": {}, "output": {"subtotal": 3560, "tax_rate": 0.06, "service_rate": 0.1,
                                                      "min_spend": 815, "clicks": 1167, "sends": 8752}}]


@pytest.mark.parametrize(
    ("answer", "text", "expected"),
    [
        # a percentage added is a share of what comes before it: 3,560 × 1.06
        ("Subtotal ¥3,560 + 6% tax = ¥3,773.60", "¥3,773.60", ("supported", "derived")),
        ("Subtotal ¥3,560 + 6% tax = ¥3,780.00", "¥3,780.00", ("contradicted", "recomputed")),
        ("The bill will be $815.00 + 10% service = $896.50.", "$896.50", ("supported", "derived")),
        # a ratio written as a percentage
        ("Click-to-open: ≈ 13.3%（1,167 / 8,752）", "13.3%", ("supported", "derived")),
        ("Click-to-open: ≈ 15.3%（1,167 / 8,752）", "15.3%", ("contradicted", "recomputed")),
    ],
)
def test_percentages_in_written_arithmetic_are_shares_and_ratios(answer, text, expected) -> None:
    assert _verdict(answer, BILL, text) == expected


@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("- Room 1412: $416.50 (2 nights + $18.50 minibar)", "$416.50"),  # nights and dollars are no one sum
        ("- Total paid: $2,034 (gift card $501 + credit card ending 5345 $1,533)", "$2,034"),
        ("Leah has 120.5 approved hours across weeks 45–47 (38.5 + 42 + 40).", "47"),  # a range's end
        ("Reimbursement: $1,038.25 (the two taxis $68.40 + $71.10, the hotel $898.75)", "$1,038.25"),  # goes on
        ("通过: 4（101 / 102 / 104 / 106）", "4"),  # slashes between three numbers list them
        # a part's count before the first operand, or each unit's amount summed: the count is not written
        ("- Wine glasses: 4 of 6 × $12.50 = $50.00", "$50.00"),
        ("- Regular: 91/96 paid × €499 = €45,409", "€45,409"),
        ("- Orchestra, seats 101–104: $189.00 + $14.50 fee each = $814.00 total", "$814.00"),
        ("共 2 张，合计 SGD 552.00（每张 268 + 8 booking fee）。", "SGD 552.00"),
    ],
)
def test_what_is_not_one_expression_is_not_recomputed(answer, text) -> None:
    assert _verdict(answer, BILL, text)[1] != "recomputed"


CART = [{"name": "get_order", "args": {}, "output": {"items": [
    {"name": "Mechanical Keyboard", "price": 268.0}, {"name": "Mouse Pad", "price": 25.0, "qty": 2}],
    "unit_prices": {"compressor": 980, "refrigerant_per_jin": 60}}}]


@pytest.mark.parametrize(
    ("answer", "text", "flagged"),
    [
        # a count before an amount that is the line's: the working is read so, not contradicted
        ("Order total $318.00 (Mechanical Keyboard $268.00 + 2 × Mouse Pad $50.00).", "$318.00", False),
        # "=" closes the last product only
        ("压缩机 980 元 + 冷媒 3 斤 × 60 元 = 180 元，另加工时。", "180 元", False),
        # a sum with a part left out is no other reading
        ("Order total $293.00 (Mechanical Keyboard $268.00 + Mouse Pad $25.00 + Mouse Pad $25.00).", "$293.00",
         True),
    ],
)
def test_working_read_more_than_one_way(answer: str, text: str, flagged: bool) -> None:
    verdict, _ = _verdict(answer, CART, text)
    assert (verdict == "contradicted") is flagged



DEPOSIT = [{"name": "get_booking", "args": {}, "output": {"room_total": 10812.0, "status": "confirmed"}}]


@pytest.mark.parametrize(
    ("answer", "text", "expected"),
    [
        # what is left, after a working cue, is the difference of the claim's own two amounts before it (the deposit
        # no tool gives is flagged on its own, not twice)
        ("总计 ¥10,812.00，已付订金 ¥1,220.00，还需支付 ¥9,592.00。", "¥9,592.00", "supported"),
        ("Total $10,812.00, deposit paid $1,220.00, leaving $9,592.00.", "$9,592.00", "supported"),
        ("总计 ¥10,812.00，已付订金 ¥1,220.00，还需支付 ¥9,592.00。", "¥1,220.00", "unsupported"),
        # no two amounts before it come to it, or no cue stands beside it
        ("总计 ¥10,812.00，已付订金 ¥1,220.00，还需支付 ¥9,500.00。", "¥9,500.00", "unsupported"),
        ("总计 ¥10,812.00，已付订金 ¥1,220.00，另有 ¥9,592.00 待定。", "¥9,592.00", "unsupported"),
    ],
)
def test_what_is_left_of_the_claims_own_amounts(answer, text, expected) -> None:
    assert _verdict(answer, DEPOSIT, text)[0] == expected


@pytest.mark.parametrize(
    ("answer", "text", "flagged"),
    [
        # the label before written working names its result, not each operand
        ("费用：US$62 × 7 天 = US$434，加 one-way fee US$150，合计 US$584", "US$62", False),
        ("Total: 4,956.75 + 3,492.44 + 340.00 = SEK 8,789.19", "4,956.75", False),
        # a number said alone under the label is still compared with the field
        ("Total: SEK 7,250.00", "7,250.00", True),
    ],
)
def test_an_operand_of_written_working_is_not_the_labels_value(answer: str, text: str, flagged: bool) -> None:
    tools = [{"name": "quote", "args": {}, "output": {"daily_rate": 62, "one_way_fee": 150, "total": 8789.19}}]
    fact = next(f for c in check(answer, tools).claims for f in c.facts if f.text == text)
    assert (fact.verdict.flagged and fact.code == "value_mismatch") == flagged, (fact.verdict, fact.reason)


def test_a_product_that_writes_its_counts_after_each_units_word_is_one_expression() -> None:
    tax = [{"name": "get_quote", "args": {}, "output": {"tax_per_night": 200, "guests": 2, "nights": 5}}]
    assert _verdict("住宿税 ¥2,000（每人每晚 ¥200 × 2 × 5）", tax, "¥2,000") == ("supported", "derived")
    assert _verdict("住宿税 ¥2,400（每人每晚 ¥200 × 2 × 5）", tax, "¥2,400") == ("contradicted", "recomputed")


# what is left, said beside the whole and the part used, is the whole less the part
_CHECKER = FactChecker(CheckerConfig(min_confidence=0))
_DATA = {"name": "query_package_usage", "args": {}, "status": "ok",
        "output": {"plan_gb": 30, "used_gb": 24.6, "valid_until": "2025-11-30"}}
_LOAN = {"name": "get_loan", "args": {}, "status": "ok",
        "output": {"term_months": 36, "paid_installments": 14, "monthly_payment": 3562.41}}
_CLAIM = {"name": "get_claim", "args": {}, "status": "ok",
         "output": {"billed": 255.0, "allowed": 180.0, "insurer_paid": 100.0, "adjustment": 75.0}}
_LEAVE = {"name": "get_leave_balances", "args": {"emp_ids": ["E-3312", "E-3325"]}, "status": "ok",
          "output": [{"emp_id": "E-3312", "annual_total": 10, "used": 3, "remaining": 7},
                     {"emp_id": "E-3325", "annual_total": 12, "used": 11.5, "remaining": 0.5}]}
_REQUESTS = {"name": "get_leave_requests", "args": {"status": "pending"}, "status": "ok",
             "output": [{"request_id": "LV-044", "days": 1, "status": "pending"}]}


def _left_verdict(answer: str, tools: list, said: str) -> Verdict:
    fact = next(f for c in _CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        ("• 通用流量：共 30GB，已用 24.6GB，剩余 6.4GB", [_DATA], "6.4", Verdict.CONTRADICTED),
        ("- 36 期中已还 14 期，剩余 24 期", [_LOAN], "24", Verdict.CONTRADICTED),
        ("- 36 期中已还 14 期，剩余 22 期", [_LOAN], "22", Verdict.SUPPORTED),
        # no whole before the part used: "the remaining" is what the bill less the allowed amount leaves
        ("Of the $255.00 billed, they allowed $180.00 and paid $100.00, and the remaining $75.00 was written off.",
         [_CLAIM], "$75.00", Verdict.SUPPORTED),
        # days: the unit is the concept of all three; 全年 is the whole, 剩余 says what is left
        ("- 陈昊：全年 10 天，已休 3 天，剩余 0.5 天", [_LEAVE], "0.5", Verdict.CONTRADICTED),
        ("- 林佳怡：全年 12 天，已休 11.5 天，剩余 0.5 天", [_LEAVE], "0.5", Verdict.SUPPORTED),
        ("You have an annual entitlement of 12 days, have used 11.5 days and have 7 days remaining.", [_LEAVE],
         "7", Verdict.CONTRADICTED),
        # a third part the facts do not hold stands between the part used and what is left: not one step
        ("您今年一共有十二天年假，已经休了 3 天，另有一天还在审批中，批下来之后还剩 8 天。", [_LEAVE, _REQUESTS], "8",
         Verdict.SUPPORTED),
    ],
)
def test_what_is_left_beside_the_whole_and_the_part_used(answer: str, tools: list, said: str,
                                                         expected: Verdict) -> None:
    assert _left_verdict(answer, tools, said) == expected
