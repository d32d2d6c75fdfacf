"""An amount a field names per unit, said as the whole a field of the same name without the unit gives."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
REFUND = {"name": "calculate_refund", "args": {}, "status": "ok", "output": {
    "lines": [{"sku": "YB-EVA", "qty": 3, "unit_price": "89.00", "refund_per_unit": "71.20"}],
    "subtotal": "267.00", "refund_total": "213.60"}}
COVERAGE = {"name": "get_drug_coverage", "args": {}, "status": "ok",
            "output": {"drug": "Acarbose 50mg", "unit_price_per_box": 38.4, "self_pay_per_box": 9.6}}
QUOTE = {"name": "quote_prescription", "args": {}, "status": "ok",
         "output": {"boxes": 9, "total": 345.6, "fund_pay": 259.2, "self_pay": 86.4}}
INSTALMENTS = {"name": "quote_instalments", "args": {}, "status": "ok", "output": {"quotes": [
    {"tenor": 3, "fee_per_period": 90.0, "total_fee": 270.0},
    {"tenor": 6, "fee_per_period": 84.0, "total_fee": 504.0}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # one unit's amount said as what the whole comes to: the whole the same-named field gives
        ("扣除重新上架费后，将退给买家 71.20 元。", [REFUND], "71.20 元", Verdict.CONTRADICTED),
        ("医保报销 75%，您自己只需要付 9.60 元。", [COVERAGE, QUOTE], "9.60 元", Verdict.CONTRADICTED),
        ("3 期的手续费共 90.00 元。", [INSTALMENTS], "90.00 元", Verdict.CONTRADICTED),
        # the whole, or the amount said per unit (a word before it, a slash after it, a table's row)
        ("扣除重新上架费后，将退给买家 213.60 元。", [REFUND], "213.60 元", Verdict.SUPPORTED),
        ("每个退 71.20 元，3 个共 213.60 元。", [REFUND], "71.20 元", Verdict.SUPPORTED),
        ("- 每期手续费：90.00 元", [INSTALMENTS], "90.00 元", Verdict.SUPPORTED),
        ("自付 9.60 元/盒。", [COVERAGE, QUOTE], "9.60 元", Verdict.SUPPORTED),
        ("| Acarbose | 9.60 元 |", [COVERAGE, QUOTE], "9.60 元", Verdict.SUPPORTED),
    ],
)
def test_a_per_unit_field_said_as_the_whole(answer: str, tools: list, said: str, expected: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert fact.verdict == expected, fact
    if expected == Verdict.CONTRADICTED:
        assert fact.code == "recomputed" and "×" in fact.reason, fact.reason


def test_a_price_per_traveller_for_the_party_is_multiplied() -> None:
    plans = {"name": "quote_travel_plans", "args": {}, "status": "ok", "output": {"travellers": 3, "plans": [
        {"plan": "Essential", "premium_per_traveller": 48.0}, {"plan": "Preferred", "premium_per_traveller": 71.5}]}}
    fact = next(f for c in CHECKER.check("Essential comes to $48.00 for all three of you.", [plans]).claims
                for f in c.facts if f.text == "$48.00")
    assert fact.verdict == Verdict.CONTRADICTED and "144" in fact.reason, fact


TICKETS = {"name": "get_event_pricing", "args": {}, "status": "ok", "output": {
    "event": "Hadestown", "pricing_rules": {"service_fee_per_ticket": 6.75}, "order_fee": 4.0}}


@pytest.mark.parametrize(
    ("answer", "verdict", "code"),
    [
        # a whole number of times one unit's value: the count is not checked, the field gives no evidence against it
        ("- Service fees: $33.75", Verdict.UNSUPPORTED, "not_found"),
        ("Service fees: $33.75 for 5 tickets.", Verdict.UNSUPPORTED, "not_found"),
        # the claim's own count is another number of times: the field's value times it is what the claim should say
        ("Service fees: $33.75 for 4 tickets.", Verdict.CONTRADICTED, "value_mismatch"),
        # no whole number of times
        ("- Service fees: $33.80", Verdict.CONTRADICTED, "value_mismatch"),
    ],
)
def test_a_whole_number_of_units_is_no_other_value_of_the_units_field(answer, verdict, code):
    fact = next(f for c in CHECKER.check(answer, [TICKETS]).claims for f in c.facts if f.text.startswith("$33"))
    assert (fact.verdict, fact.code) == (verdict, code), fact.reason


RENTAL_QUOTE = {"name": "get_quote", "args": {}, "status": "ok", "output": {
    "car_class": "Standard SUV", "days": 5, "daily_rate": 68.0, "base": 340.0,
    "extras": [{"name": "Additional driver", "per_day": 13.0, "total": 65.0}], "total": 501.32, "currency": "USD"}}
CART = {"name": "get_cart", "args": {}, "status": "ok", "output": {"items": [
    {"name": "Extra Virgin Olive Oil 500ml", "qty": 3, "unit_price": 8.75, "line_total": 26.25},
    {"name": "Sourdough loaf", "qty": 1, "unit_price": 4.5, "line_total": 4.5}], "subtotal": 30.75, "currency": "USD"}}
TOUR = {"name": "get_itinerary", "args": {}, "status": "ok", "output": {"excursions": [
    {"port": "Juneau", "name": "Glacier & Whale Watch", "guests": 4, "price_per_guest": 219.0, "line_total": 876.0},
    {"port": "Sitka", "name": "Totem walk", "guests": 4, "price_per_guest": 45.0, "line_total": 180.0}]}}


HOTELS = {"name": "search_hotels", "args": {"city": "北京"}, "output": [
    {"hotel_id": "H-10231", "name": "北京国贸大酒店", "price_per_night": 1580.0, "total": 4740.0},
    {"hotel_id": "H-22817", "name": "全季酒店", "price_per_night": 489.0, "total": 1467.0}]}
SERVICE_FEE = {"name": "get_ticket_order", "args": {}, "output": {
    "event": "巡回演唱会", "service_fee_per_ticket": 20.0, "fees_total": 80.0}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # one unit's amount (its field says per what) said as the line's whole, which its record gives beside it
        ("Additional driver: $13.00 for the whole rental.", [RENTAL_QUOTE], "$13.00", Verdict.CONTRADICTED),
        ("- Extra Virgin Olive Oil 500ml ×3 — $8.75", [CART], "$8.75", Verdict.CONTRADICTED),
        ("- Juneau: Glacier & Whale Watch for all four of you, $219.00", [TOUR], "$219.00", Verdict.CONTRADICTED),
        # the whole; the unit's amount said per unit, in the claim's working, as a price, or of one of the party
        ("Additional driver: $65.00 for the whole rental.", [RENTAL_QUOTE], "$65.00", Verdict.SUPPORTED),
        ("Additional driver: $13.00 a day.", [RENTAL_QUOTE], "$13.00", Verdict.SUPPORTED),
        ("- Olive oil: 3 × $8.75 = $26.25", [CART], "$8.75", Verdict.SUPPORTED),
        ("The olive oil's price is $8.75.", [CART], "$8.75", Verdict.SUPPORTED),
        ("- Sourdough loaf ×1 — $4.50", [CART], "$4.50", Verdict.SUPPORTED),
        ("- Juneau: Glacier & Whale Watch, your own ticket: $219.00", [TOUR], "$219.00", Verdict.SUPPORTED),
        # no field counts the units: a column that says a whole, or a whole count's cue right before the amount
        ("| 酒店 | 3晚总价 |\n|---|---|\n| 全季酒店 | ¥489 |", [HOTELS], "¥489", Verdict.CONTRADICTED),
        ("服务费：共 20 元", [SERVICE_FEE], "20 元", Verdict.CONTRADICTED),
        ("| 酒店 | 每晚价格 |\n|---|---|\n| 全季酒店 | ¥489 |", [HOTELS], "¥489", Verdict.SUPPORTED),
        ("服务费：20 元", [SERVICE_FEE], "20 元", Verdict.SUPPORTED),
    ],
)
def test_a_per_unit_amount_said_as_the_whole_its_record_gives(answer: str, tools: list, said: str,
                                                               expected: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert fact.verdict == expected, fact
    if expected == Verdict.CONTRADICTED:
        assert fact.code == "recomputed" and "×" in fact.reason, fact.reason

