"""Numbers with a role: totals recomputed with their multiplicity, superlatives re-ranked over their options."""

from decimal import Decimal

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.grounding.scopes import in_scope

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
S, C, U = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED
RESERVATION = {"reservation_id": "ZFA04Y", "passengers": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
               "flights": [{"flight_number": "HAT170", "price": 364}, {"flight_number": "HAT171", "price": 248}],
               "payment_history": [{"amount": 1836}]}
ONE_TRAVELLER = {**RESERVATION, "passengers": [{"name": "A"}], "payment_history": [{"amount": 612}]}
VARIANTS = {"variants": {"111": {"price": 52.01, "available": True}, "222": {"price": 46.99, "available": False},
                         "333": {"price": 54.85, "available": True}}}
FLIGHTS = {"flights": [{"flight_number": "HAT1", "price": 210}, {"flight_number": "HAT2", "price": 180},
                       {"flight_number": "HAT3", "price": 199}]}

OFFERS = {"offers": [{"id": "MX-7", "validity_days": 7, "data_gb": 3, "price_usd": 25},
                     {"id": "MX-14", "validity_days": 14, "data_gb": 6, "price_usd": 30},
                     {"id": "MX-30", "validity_days": 30, "data_gb": 12, "price_usd": 45}]}
COSTS = {"results": [{"service": "EC2", "price": 812.10}, {"service": "S3", "price": 96.55},
                     {"service": "RDS", "price": 375.72}]}
FACE_VALUES = {"order_id": "TM-1",
               "tickets": [{"seat": str(n), "face_value": 85.0, "fees": 9.35} for n in range(14, 18)],
               "order_total": {"amount": 377.4, "currency": "GBP"}}
TICKETS = {"order_id": "TKT-1", "tickets": [{"seat": "9-11", "unit_price": 380.0, "service_fee": 12.0},
                                             {"seat": "9-12", "unit_price": 380.0, "service_fee": 12.0},
                                             {"seat": "9-13", "unit_price": 380.0, "service_fee": 12.0}],
           "amount_due": 1176.0}
CARS = {"results": [{"model": "Nissan Versa", "category": "Compact", "daily_rate": 50},
                    {"model": "Hyundai Tucson", "category": "SUV", "daily_rate": 54},
                    {"model": "Toyota RAV4", "category": "SUV", "daily_rate": 61}]}
KEYBOARDS = {"variants": {
    "3616838507": {"options": {"switch type": "tactile", "size": "full size"}, "available": False, "price": 226.11},
    "9570044148": {"options": {"switch type": "linear", "size": "full size"}, "available": True, "price": 231.37},
    "2299424241": {"options": {"switch type": "clicky", "size": "80%"}, "available": True, "price": 237.48}}}
ORDER = {"order_id": "#W1", "items": [{"name": "Earbuds", "price": 232.49}, {"name": "Cable", "price": 54.04}]}


def number_verdicts(answer: str, outputs: list) -> list[tuple[str, Verdict, str | None]]:
    calls = [{"name": name, "args": {}, "output": out, "status": "ok"} for name, out in outputs]
    report = CHECKER.check(answer, calls)
    return [(f.text, f.verdict, f.code) for c in report.claims for f in c.facts
            if f.kind.value == "number" and f.unit is not None]


@pytest.mark.parametrize(
    ("answer", "outputs", "expected"),
    [
        # a per-unit amount given as the total: found in the output, wrong as a total
        ("The new total is $364.", [("get_reservation_details", RESERVATION)], C),
        ("总价为 364 美元。", [("get_reservation_details", RESERVATION)], C),
        # one traveller's sum of the legs, backed only by arithmetic
        ("The total for all 3 passengers is $612.", [("get_reservation_details", RESERVATION)], C),
        ("3 位乘客合计 612 美元。", [("get_reservation_details", RESERVATION)], C),
        # right totals, and amounts said per unit
        ("The total is $1,836.", [("get_reservation_details", RESERVATION)], S),
        ("The total is $612.", [("get_reservation_details", ONE_TRAVELLER)], S),
        ("The first flight is $364 per passenger.", [("get_reservation_details", RESERVATION)], S),
        ("Each passenger pays $612 in total.", [("get_reservation_details", RESERVATION)], S),
        ("每人合计 612 美元。", [("get_reservation_details", RESERVATION)], S),
        # a total in bold is still a total: one traveller's sum is no total of three
        ("That's **$612** in total for all of you.", [("get_reservation_details", RESERVATION)], C),
        # one ticket's price and fee given as the order's total: three tickets alike
        ("票价 ¥380.00/张，服务费 ¥12.00/张。应付总额：¥392.00", [("create_order", TICKETS)], C),
        ("票价 ¥380.00/张，服务费 ¥12.00/张。应付总额：¥1,176.00", [("create_order", TICKETS)], S),
        ("Each ticket is $380.00 plus a $12.00 fee, $392.00 per ticket.", [("create_order", TICKETS)], S),
        # a ticket's face value is its price (lexicon `fields`): one ticket's face value and fees are no order total
        ("Price per ticket: £85.00 face value + £9.35 fees. Order total: £94.35",
         [("get_ticket_order", FACE_VALUES)], C),
        ("Price per ticket: £85.00 face value + £9.35 fees. Order total: £377.40",
         [("get_ticket_order", FACE_VALUES)], S),
    ],
)
def test_a_total_is_what_its_records_compute(answer, outputs, expected) -> None:
    found = number_verdicts(answer, outputs)
    assert found[-1][1] == expected, found
    if expected == C:
        assert found[-1][2] == "recomputed"


@pytest.mark.parametrize(
    ("answer", "outputs", "expected"),
    [
        ("The cheapest available option is $52.01.", [("get_product_details", VARIANTS)], S),  # 46.99 unavailable
        ("The cheapest option is $54.85.", [("get_product_details", VARIANTS)], C),
        ("The most expensive option is $54.85.", [("get_product_details", VARIANTS)], S),
        ("The cheapest flight is HAT2 at $180.", [("search_direct_flight", FLIGHTS)], S),
        ("The cheapest flight is HAT3 at $199.", [("search_direct_flight", FLIGHTS)], C),
        ("最便宜的航班是 HAT3，价格 199 美元。", [("search_direct_flight", FLIGHTS)], C),
        ("HAT3 costs $199.", [("search_direct_flight", FLIGHTS)], S),  # no selection claimed
        # the claim's other measures are the selection's condition: the cheapest 14-day offer
        ("For two weeks, your cheapest option is 6GB valid for 14 days for $30.", [("list_offers", OFFERS)], S),
        ("Your cheapest option is the MX-14 pass for $30.", [("list_offers", OFFERS)], C),
        # only the first amount after the superlative is the selected one's
        ("The most expensive is EC2 at $812.10; RDS $375.72 comes second.", [("get_costs", COSTS)], S),
        # an order's items are no options of one choice
        ("The cheapest earbuds in this order are $232.49.", [("get_order_details", ORDER)], S),
        # a value only some options hold, named before the pick, scopes the ranking: the cheapest SUV
        ("The cheapest SUV you can book is the Tucson at $54.00/day.", [("search_cars", CARS)], S),
        ("在可预订的 SUV 里，最便宜的是 Tucson，日租 $54.00。", [("search_cars", CARS)], S),
        ("The cheapest SUV you can book is the RAV4 at $61.00/day.", [("search_cars", CARS)], C),
        # a value the pick holds, said after it, scopes nothing: the cheapest car is the Versa
        ("The cheapest car is the Tucson, an SUV, at $54.00/day.", [("search_cars", CARS)], C),
        # an option that cannot be had, picked: its own value "full size" says no state of it (no "full" option)
        ("The cheapest variant you can get is: tactile, full size, $226.11.", [("get_product_details", KEYBOARDS)],
         C),
        ("The cheapest variant is: tactile, full size, $226.11, but it is sold out.",
         [("get_product_details", KEYBOARDS)], S),
    ],
)
def test_a_superlative_is_the_best_of_its_options(answer, outputs, expected) -> None:
    found = number_verdicts(answer, outputs)
    assert found[-1][1] == expected, found


LAMPS = {"variants": {
    "5320918846": {"options": {"color": "black", "light": "cool white", "brightness": "800lm"}, "available": True,
                   "price": 48.0},
    "5320918854": {"options": {"color": "black", "light": "warm white", "brightness": "800lm"}, "available": False,
                   "price": 46.5},
    "5320918889": {"options": {"color": "white", "light": "warm white", "brightness": "800lm"}, "available": True,
                   "price": 49.99},
    "5320918870": {"options": {"color": "silver", "light": "warm white", "brightness": "1000lm"}, "available": True,
                   "price": 55.8}}}
PLANS = {"currency": "SGD", "plans": [{"code": "SO-20", "data_gb": 20, "monthly": 15.9},
                                      {"code": "SO-50", "data_gb": 50, "monthly": 24.9},
                                      {"code": "SO-40P", "data_gb": 40, "monthly": 27.9}]}
HOTELS = {"currency": "CNY", "results": [
    {"hotel": "A", "rate_name": "Advance Purchase", "refundable": False, "nightly": 820.0},
    {"hotel": "B", "rate_name": "Flexible", "refundable": True, "nightly": 940.0},
    {"hotel": "C", "rate_name": "Flexible", "refundable": True, "nightly": 905.0},
    {"hotel": "D", "rate_name": "Member Flexible", "refundable": True, "nightly": 918.0}]}
SHUTTLES = {"options": [{"time": "10:30", "fare": 15.0, "seats_left": 9},
                        {"time": "11:30", "fare": 12.0, "seats_left": 12}]}
COVERS = {"options": [{"plan": "Essential", "price_per_traveler": 48.0, "medical": 50000},
                      {"plan": "Standard", "price_per_traveler": 71.5, "medical": 100000}]}
PAYMENT_PLANS = {"options": [{"id": "PA-3", "months": 3, "down_payment": 0.0, "installment": 204.14},
                             {"id": "PA-12", "months": 12, "down_payment": 122.48, "installment": 40.83}]}
SHIPPING = {"options": [{"code": "STD", "name": "Standard Ground", "price": 5.99, "est_delivery": "2025-10-20"},
                        {"code": "EXP2", "name": "2-Day Express", "price": 14.5, "est_delivery": "2025-10-16"},
                        {"code": "PRI3", "name": "Priority 3-Day", "price": 9.75, "est_delivery": "2025-10-17"}]}
PACKAGES = {"results": [{"name": "Positano", "price_per_person": 1249.0, "availability": "sold_out"},
                        {"name": "Harbourside", "price_per_person": 1318.0, "availability": "available"},
                        {"name": "Grand Tour", "price_per_person": 1880.0, "availability": "available"}]}


@pytest.mark.parametrize(
    ("answer", "outputs", "expected"),
    [
        # a price in a field no label names (`monthly`, `nightly`) is ranked like a priced one, codes read as money
        ("The cheapest plan is SO-40P at SGD 27.90 a month.", [("list_plans", PLANS)], C),
        ("The cheapest plan is SO-20 at SGD 15.90 a month.", [("list_plans", PLANS)], S),
        ("Cheapest refundable: D (Member Flexible) at ¥918/night.", [("search_rates", HOTELS)], C),
        ("Cheapest refundable: C (Flexible) at ¥905/night.", [("search_rates", HOTELS)], S),
        # no field counting what is left, and no cover beside the option's own price, is its price
        ("The cheapest choice is the 11:30 shuttle at €12.", [("search_shuttles", SHUTTLES)], S),
        ("The cheapest plan meeting your needs is Standard: $100,000 medical at $71.50 per traveler.",
         [("get_travel_quote", COVERS)], S),
        # a measure said with the pick is held by the options as text ("800lm"); "warm-white" names no white colour
        ("The cheapest warm-white version you can order is item 5320918854 (black, warm white, 800lm) at $46.50.",
         [("get_product_details", LAMPS)], C),
        ("The cheapest warm-white version you can order is item 5320918889 (white, warm white, 800lm) at $49.99.",
         [("get_product_details", LAMPS)], S),
        # an option whose `availability` says sold out cannot be had
        ("The cheapest package you can still book is Harbourside at €1,318 per person.",
         [("search_packages", PACKAGES)], S),
        ("The cheapest package is Grand Tour at €1,880 per person.", [("search_packages", PACKAGES)], C),
        # a deadline the options must meet is no condition checked here: such a pick is not re-ranked
        ("The cheapest option that gets there in time is 2-Day Express at $14.50.",
         [("get_shipping_options", SHIPPING)], S),
        ("The cheapest option is 2-Day Express at $14.50.", [("get_shipping_options", SHIPPING)], C),
        # an amount after a contrast is no value of the pick ("lowest monthly payment, but it needs $X up front")
        ("The 12-month plan has the lowest monthly payment, but it needs $122.48 up front.",
         [("get_payment_plan_options", PAYMENT_PLANS)], S),
        # after an ordinal the superlative picks that place, not the best
        ("The second cheapest flight is HAT3 at $199.", [("search_direct_flight", FLIGHTS)], S),
        ("The next cheapest flight is HAT1 at $210.", [("search_direct_flight", FLIGHTS)], C),
        ("The third cheapest flight is HAT1 at $210.", [("search_direct_flight", FLIGHTS)], S),
    ],
)
def test_a_superlative_ranks_prices_named_or_not_over_the_options_that_can_be_had(answer, outputs, expected) -> None:
    found = number_verdicts(answer, outputs)
    assert found[-1][1] == expected, found


STAYS = {"currency": "USD", "results": [
    {"name": "City View Queen", "total": 517.0,
     "nightly": [{"date": "2025-01-09", "rate": 139.0}, {"date": "2025-01-10", "rate": 189.0}]},
    {"name": "Standard King", "total": 477.0,
     "nightly": [{"date": "2025-01-09", "rate": 159.0}, {"date": "2025-01-10", "rate": 159.0}]}]}
RATES = {"nights": 3, "options": [
    {"rate_id": "R-NR", "room": "Standard Queen", "refundable": False, "total": 612.0},
    {"rate_id": "R-FLX", "room": "Standard Queen", "refundable": True, "total": 687.0},
    {"rate_id": "R-TWN", "room": "Twin Room", "refundable": True, "total": 702.0}]}
STAY_SEARCH = {"check_in": "2025-01-09", "check_out": "2025-01-12", "adults": 1}


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # an option's `total` is its price; the nights the searched dates span are no condition of the pick
        ("For Jan 9–12 (3 nights), the cheapest option is the City View Queen at $517.00 total.", STAYS, C),
        ("For Jan 9–12 (3 nights), the cheapest option is the Standard King at $477.00 total.", STAYS, S),
        # a true-or-false field the scope names keeps its true options (or, negated, its false ones)
        ("The cheapest refundable option is the Standard Queen at $687.00.", RATES, S),
        ("The cheapest non-refundable option is the Standard Queen at $612.00.", RATES, S),
        ("The cheapest option is the Standard Queen at $687.00.", RATES, C),
    ],
)
def test_an_options_total_is_ranked_in_the_scope_the_claim_gives(answer, output, expected) -> None:
    calls = [{"name": "search_availability", "args": STAY_SEARCH, "output": output, "status": "ok"}]
    found = [(f.text, f.verdict, f.code) for c in CHECKER.check(answer, calls).claims for f in c.facts
             if f.kind.value == "number" and f.unit is not None]
    assert found[-1][1] == expected, found


def test_the_recomputation_is_the_evidence() -> None:
    calls = [{"name": "get_reservation_details", "args": {}, "output": RESERVATION, "status": "ok"}]
    fact = next(f for c in CHECKER.check("The new total is $364.", calls).claims for f in c.facts)
    assert fact.reason == "the records give 3 passengers × (364 + 248) = 1836, not $364"
    assert fact.evidence[0].note == "3 passengers × (364 + 248) = 1836" and fact.strength == "recomputed"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("The total refund for the Air Purifier and the Robotic Vacuum will be $1,126.04.", S),
        ("The total refund for the Air Purifier and the Robotic Vacuum will be $1,026.04.", C),
    ],
)
def test_the_items_a_claim_names_add_up_to_its_amount(answer, expected) -> None:
    order = {"order_id": "#W1", "items": [{"name": "Air Purifier", "price": 500.01},
                                          {"name": "Robotic Vacuum", "price": 626.03},
                                          {"name": "Desk Lamp", "price": 80.0}],
             "payment_history": [{"amount": 1206.04}]}
    found = number_verdicts(answer, [("get_order_details", order)])
    assert found[-1][1] == expected, found


ONE_STOP = [[{"flight_number": "HAT259", "prices": {"economy": 142}}, {"flight_number": "HAT046",
                                                                      "prices": {"economy": 171}}],
            [{"flight_number": "HAT031", "prices": {"economy": 158}}, {"flight_number": "HAT198",
                                                                      "prices": {"economy": 119}}]]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the legs a claim names by their keys, in the inner lists of a one-stop search, price by price
        ("If price matters more, the Chicago routing (HAT031 + HAT198) is the cheapest at $277.", (S,)),
        # a sum of records named by key only backs: it never recomputes another number (that is the names' work)
        ("The Chicago routing (HAT031 + HAT198) costs $281 in total.", (Verdict.UNSUPPORTED, C)),
    ],
)
def test_the_records_a_claim_names_by_key_add_up_to_its_amount(answer, expected) -> None:
    found = number_verdicts(answer, [("search_onestop_flight", ONE_STOP)])
    assert found[-1][1] in expected, found
    if found[-1][1] == C:
        assert "the items the claim names" not in str(found), found


def test_a_total_backed_by_a_difference_falls_back_to_its_columns_sum() -> None:
    order = {"order_id": "#W1", "items": [{"price": 248.85}, {"price": 256.67}, {"price": 511.24}, {"price": 271.89}],
             "payment_history": [{"amount": 1319.43}, {"amount": 30.78}]}
    found = number_verdicts("Your updated order total is $1,288.65.", [("modify_pending_order_items", order)])
    assert found == [("$1,288.65", S, "derived")]
    found = number_verdicts("Your order total is $30.78.", [("get_order_details", {"payment_history": [
        {"amount": 1319.43}, {"amount": 1288.65}]})])
    assert found[0][1] != S  # 1319.43 − 1288.65 is a difference, no total


def test_a_total_after_a_list_of_amounts_adds_them_up() -> None:
    items = {"items": [{"name": "A", "price": 258.84}, {"name": "B", "price": 232.49}, {"name": "C", "price": 258.97}]}
    answer = "The items are:\n- A: $258.84\n- B: $232.49\n- C: $258.97\n\nThat comes to $750.30 in total."
    assert number_verdicts(answer, [("get_order_details", items)])[-1][:2] == ("$750.30", S)
    wrong = answer.replace("$750.30", "$740.30")
    assert number_verdicts(wrong, [("get_order_details", items)])[-1][1] != S


INVOICES = [("get_invoice", {"invoice_id": "INV-778104", "lines": [
    {"description": "Wellness exam", "amount": 65.0}, {"description": "Rabies vaccine (3-yr)", "amount": 28.5},
    {"description": "DHPP booster", "amount": 34.0}, {"description": "Nail trim", "amount": 15.0}]}),
            ("list_invoices", {"invoices": [{"invoice_id": "INV-778311", "status": "open", "total": 58.0}]})]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # another record's `total` (58) is the field's one value; three or more listed parts added up outvote it
        ("- Wellness exam $65.00\n- Rabies vaccine (3-yr) $28.50\n- DHPP booster $34.00\n- Nail trim $15.00\n\n"
         "That's four line items for a total of $142.50.", S),
        # a total the parts do not come to is still read against the field
        ("- Wellness exam $65.00\n- Rabies vaccine (3-yr) $28.50\n- DHPP booster $34.00\n- Nail trim $15.00\n\n"
         "That's four line items for a total of $152.50.", C),
    ],
)
def test_three_listed_parts_outvote_a_total_a_tool_states_once(answer, expected) -> None:
    assert number_verdicts(answer, INVOICES)[-1][1] == expected


@pytest.mark.parametrize(("answer", "expected"), [("The bananas come to $0.5 in total.", C),
                                                  ("The bananas come to $1.5 in total.", S),
                                                  ("The bananas are $0.5 each.", S)])
def test_a_price_beside_its_quantity_is_per_unit(answer, expected) -> None:
    invoice = {"invoice_id": "INV1", "items": [{"name": "bananas", "quantity": 3, "price": 0.5}]}
    assert number_verdicts(answer, [("create_invoice", invoice)])[-1][1] == expected


@pytest.mark.parametrize(("answer", "expected"), [("香蕉一共 $0.5。", C),
                                                  ("加购了香蕉 3 份（每份 $0.5），合计 $1.5。", S),  # 每份: one unit's
                                                  ("加购了香蕉 3 盒（每盒 $0.5），合计 $1.5。", S),
                                                  # the line's total beside it: the amount is the unit price
                                                  ("| bananas | 3 | $0.5 | $1.5 |", S),
                                                  ("| bananas | 3 | $0.5 |", C)])
def test_a_price_a_per_unit_word_or_its_line_total_names_is_no_total(answer, expected) -> None:
    invoice = {"invoice_id": "INV1", "items": [{"name": "bananas", "quantity": 3, "price": 0.5}]}
    verdicts = {text: verdict for text, verdict, _ in number_verdicts(answer, [("create_invoice", invoice)])}
    assert verdicts["$0.5"] == expected


@pytest.mark.parametrize("answer", ["建议：第 1 条收益最大。", "第 2 个方案最便宜。", "Option No. 2 is the fastest."])
def test_an_ordinal_is_a_place_in_a_list_not_a_quantity(answer) -> None:
    calls = [{"name": "slow_log", "args": {}, "output": {"queries": [{"rows": 1203311}, {"rows": 5}]}, "status": "ok"}]
    facts = [f for c in CHECKER.check(answer, calls).claims for f in c.facts if f.kind.value == "number"]
    assert facts and all(f.verdict == Verdict.UNVERIFIABLE for f in facts)


_ORDERS = [{"name": "get_order_details", "args": {"order_id": "#W5199551"}, "output": {
    "order_id": "#W5199551", "items": [{"name": "Desk Lamp", "price": 120.0}, {"name": "Standing Desk", "price": 300.5},
                                       {"name": "Office Chair", "price": 80.0}],
    "payment_history": [{"transaction_type": "payment", "amount": 500.5}]}}]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Order #W5199551 has a total of $300.50.", "contradicted"),  # one item's price; the three add up to 500.50
        ("Order #W5199551 has a total of $500.50.", "supported"),
        # the items it names have their own total: the record's is not recomputed for it
        ("Order #W5199551: the Standing Desk and the Office Chair come to a total of $380.50.", None),
    ],
)
def test_a_total_of_the_record_named_by_key_is_its_items_sum(answer, verdict) -> None:
    from factcheck import check

    fact = next(f for c in check(answer, _ORDERS).claims for f in c.facts if f.text.startswith("$"))
    if verdict is None:
        assert fact.code != "recomputed"
    else:
        assert fact.verdict.value == verdict


RENTAL = {"rental_days": 4, "options": [
    {"option_id": "RC-1", "rate": {"per_day": 89.0}, "fees": [{"amount": 18.5}]},
    {"option_id": "RC-2", "rate": {"per_day": 56.0}, "fees": [{"amount": 30.0}]}]}
STAY = {"nights": 3, "options": [{"room": "King", "nightly_rate": 180}, {"room": "Twin", "nightly_rate": 150}]}
RATED = {"nights": 3, "results": [{"room": "湖景大床房", "rate": {"amount": 1288, "unit": "per_room_per_night"}},
                                  {"room": "园景双床房", "rate": {"amount": 688, "unit": "per_room_per_night"}}]}
FARES = [{"flight_number": "HAT206", "prices": {"economy": 135}},
         {"flight_number": "HAT220", "prices": {"economy": 137}}]
MORE_FARES = [*FARES, {"flight_number": "HAT230", "prices": {"economy": 270}}]


@pytest.mark.parametrize(
    ("answer", "outputs", "expected", "how"),
    [
        # a rate per day or night given as the total of a search for several days or nights
        ("Total: $56.00", [("search_rental_options", RENTAL)], C, "4 rental_days × 56 = 224"),
        ("The total for the stay is $180.", [("search_hotels", STAY)], C, "3 nights × 180 = 540"),
        ("Total: $224.00", [("search_rental_options", RENTAL)], S, None),
        ("The King room is $180 per night.", [("search_hotels", STAY)], S, None),
        ("The cheapest room overall, the Twin ($150.00/night), has no breakfast.", [("search_hotels", STAY)], S, None),
        # a plain amount whose money object's unit field says it is one night's
        ("园景双床房 3 晚总价 688 元。", [("search_hotels", RATED)], C, "3 nights × 688 = 2064"),
        ("园景双床房 3 晚总价 2,064 元。", [("search_hotels", RATED)], S, None),
        ("园景双床房每晚 688 元。", [("search_hotels", RATED)], S, None),
        # one night said as such: its amount is that night's
        ("The removed night (¥688) is refunded, and that is the total refund.", [("search_hotels", RATED)], S, None),
        # one traveller's fare given as the total of the party the claim names
        ("HAT206. Total for both of you: $135.00.", [("search_direct_flight", FARES)], C,
         "2 people the total is for × 135 = 270"),
        ("HAT206. Total for both of you: $270.00.", [("search_direct_flight", FARES)], S, None),
        ("HAT206 is the cheapest; the total is $135.", [("search_direct_flight", FARES)], S, None),  # party unsaid
        # the party named right after the amount makes it the party's total, with no total word
        ("HAT206 is the cheapest at $135 for both of you.", [("search_direct_flight", FARES)], C,
         "2 people the total is for × 135 = 270"),
        ("HAT206 is the cheapest at $270 for both of you.", [("search_direct_flight", FARES)], S, None),
        ("HAT206 is the cheapest at $135 each for both of you.", [("search_direct_flight", FARES)], S, None),
        # a party of several kinds, each at its own price
        ("HAT206. The total for 2 adults and 1 child is $135.00.", [("search_direct_flight", FARES)], S, None),
        # another record's price equals the total: the party's share is a fare, so the total is the party's
        ("HAT206. Total for both of you: $270.00.", [("search_direct_flight", MORE_FARES)], S, None),
    ],
)
def test_a_per_unit_amount_is_multiplied_by_the_units_its_total_is_for(answer, outputs, expected, how) -> None:
    calls = [{"name": name, "args": {}, "output": out, "status": "ok"} for name, out in outputs]
    facts = [f for c in CHECKER.check(answer, calls).claims for f in c.facts if f.kind.value == "number" and f.unit]
    assert facts[-1].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]
    if how is not None:
        assert facts[-1].code == "recomputed" and how in facts[-1].reason


GROUP = {"booking_id": "GB-1", "check_in": "2026-12-10", "check_out": "2026-12-14", "rooms": [
    {"room_no": "2225", "guest": "李明轩", "nightly_rate": 480, "status": "confirmed"},
    {"room_no": "1811", "guest": "周浩", "nightly_rate": 890, "status": "confirmed"},
    {"room_no": "1721", "guest": "张伟", "nightly_rate": 680, "status": "cancelled"}]}


@pytest.mark.parametrize(
    ("answer", "outputs", "expected", "how"),
    [
        # nightly rates the answer lists, added up and called the stay's total: the dates give 4 nights
        ("- 2225：李明轩，每晚¥480\n- 1811：周浩，每晚¥890\n\n合计: ¥1,370", [("get_group_booking", GROUP)], C,
         "× 4 (nights from 2026-12-10 to 2026-12-14) = 5480"),
        ("- 2225：李明轩，每晚¥480\n- 1811：周浩，每晚¥890\n\n4 晚合计: ¥5,480", [("get_group_booking", GROUP)], S,
         None),
    ],
)
def test_a_total_of_per_unit_amounts_is_what_the_record_makes_of_them(answer, outputs, expected, how) -> None:
    calls = [{"name": name, "args": {}, "output": out, "status": "ok"} for name, out in outputs]
    facts = [f for c in CHECKER.check(answer, calls).claims for f in c.facts if f.kind.value == "number" and f.unit]
    assert facts[-1].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]
    if how is not None:
        assert facts[-1].code == "recomputed" and how in facts[-1].reason


ORDER_LINES = {"order_id": "#W7", "items": [{"name": "Ceramic Mugs", "price": 22.75, "quantity": 4},
                                            {"name": "Tea Towel", "price": 9.5, "quantity": 1},
                                            {"name": "Task Chair", "unit_acv": 41.25, "qty": 3}]}


@pytest.mark.parametrize(
    ("answer", "expected", "how"),
    [
        # a unit price said as the line's amount, the quantity beside it
        ("- Ceramic Mugs ×4: $22.75 for the set", C, "quantity 4 × 22.75 = 91"),
        ("- Ceramic Mugs: 4 × $22.75 = $91.00", S, None),
        ("- Ceramic Mugs ×4 at $22.75 each", S, None),
        ("- Tea Towel ×1: $9.50", S, None),
        # the quantity said before the item's name, in digits or words, before or after the amount
        ("The four sage ceramic mugs came to $22.75.", C, "quantity 4 × 22.75 = 91"),
        ("We approved $41.25 for the three ergonomic task chairs.", C, "quantity 3 × 41.25 = 123.75"),
        ("We approved $41.25 for each of the three task chairs.", S, None),
        ("The three task chairs: 3 × $41.25 = $123.75.", S, None),
        ("- Tea Towel: $9.50, and the mugs come in a set of four", S, None),
        # one unit's amount, multiplied where it stands or said of one
        ("- Ceramic Mugs ×4：$22.75 × 4 = $91.00", S, None),
        ("少掉的那 1 个 Ceramic Mugs $22.75 已退回。", S, None),
        ("Ceramic Mugs：应送 4 个，实际送达 3 个，缺 1 个（$22.75）。", S, None),
        ("- Ceramic Mugs (1 of 4): $22.75", S, None),
        ("Ceramic Mugs × 1（您买了 4 个，缺 1 个）：$22.75，已退回。", S, None),
    ],
)
def test_a_unit_price_said_as_its_line_is_the_quantity_times_it(answer, expected, how) -> None:
    calls = [{"name": "get_order_details", "args": {}, "output": ORDER_LINES, "status": "ok"}]
    facts = [f for c in CHECKER.check(answer, calls).claims for f in c.facts if f.kind.value == "number"
             and f.unit == "USD"]
    assert facts[-1].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]
    if how is not None:
        assert facts[-1].code == "recomputed" and how in facts[-1].reason


ORDER_AND_VARIANT = [("get_order_details", {"order_id": "#W1", "payment_history": [{"amount": 1288.65}]}),
                     ("get_product_details", {"product_id": "p1", "price": 271.89})]


@pytest.mark.parametrize(
    ("answer", "backed"),
    [
        # a difference of two calls' amounts backs a difference, never a total (the total less one item's price)
        ("The price difference is $1,016.76.", True),
        ("The new total price of your order is $1,016.76.", False),
    ],
)
def test_a_difference_across_calls_backs_no_total(answer: str, backed: bool) -> None:
    [(_, found, _)] = number_verdicts(answer, ORDER_AND_VARIANT)
    assert (found == S) == backed, found


@pytest.mark.parametrize("answer", ["That is $408.80 in total, $151.20 more than your current plan.",
                                    "$408.80 in total: $151.20 less than the premium plan."])
def test_an_amount_before_a_comparative_is_a_difference_not_the_total(answer: str) -> None:
    quote = {"quote_id": "Q1", "total": 408.8, "current_total": 257.6, "premium_total": 560.0}
    found = number_verdicts(answer, [("get_quote", quote)])
    assert [v for _, v, _ in found] == [S, S], found


REFUND_LINES = {"refund_id": "RF-118204", "status": "processing", "total": 181.2,
                "lines": [{"ticket_id": "TK-40011", "amount": 60.4}, {"ticket_id": "TK-40012", "amount": 60.4},
                          {"ticket_id": "TK-40013", "amount": 60.4}]}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # one line's amount said as the total of a record whose lines are several and whose total is another
        ("You'll get back $60.40 in total to your Amex ending 3007.", C),
        ("退款合计 $60.40，预计 5 月 2 日到账。", C),
        # the record's total; one line named by its id; one line's parts added up; a count of one
        ("You'll get back $181.20 in total.", S),
        ("For ticket TK-40011 you'll get back $60.40 in total.", S),
        ("Each ticket was $52.00 plus an $8.40 fee, $60.40 in total.", S),
        ("That's 1 ticket, $60.40 in total.", S),
    ],
)
def test_one_lines_amount_said_as_the_records_total(answer: str, expected) -> None:
    calls = [{"name": "get_refund_status", "args": {}, "output": REFUND_LINES, "status": "ok"}]
    facts = [f for c in CHECKER.check(answer, calls).claims for f in c.facts
             if f.kind.value == "number" and f.unit == "USD" and f.value in ("60.4", "181.2")]
    assert facts and facts[-1].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]
    if expected == C:
        assert "181.2" in facts[-1].reason


def test_a_count_named_total_is_no_total_of_the_lines() -> None:
    reservation = {"reservation_id": "NB62VU", "total_baggages": 0,
                   "flights": [{"flight_number": "HAT091", "price": 268}, {"flight_number": "HAT266", "price": 268}]}
    calls = [{"name": "get_reservation_details", "args": {}, "output": reservation, "status": "ok"}]
    facts = [f for c in CHECKER.check("合计补差价 268 美元，已从原信用卡扣除。", calls).claims for f in c.facts
             if f.kind.value == "number" and f.value == "268"]
    assert facts and all("total_baggages" not in f.reason for f in facts), [(f.text, f.reason) for f in facts]


_NIGHTS = {"arrival": "2025-05-01", "departure": "2025-05-03",
           "rooms": [{"line": 1, "room_type_name": "豪华双床房", "nightly_rate": [688.0, 728.0]}]}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a total word that opens the next clause names no total of the amount before it; each night's own rate
        # listed is part of the stay's total, not one unit's to multiply
        ("房费：5月1日 ¥688、5月2日 ¥728，合计 ¥1,416", [S, S]),
        ("房费：5月1日 ¥688、5月2日 ¥728，合计 ¥1,516", [S, C]),  # 688 + 728 = 1,416: a slipped digit
        ("The room is ¥728 in total.", [C]),  # the word right after it still makes it a total
    ],
)
def test_a_night_of_a_stay_listed_with_its_total(answer, expected) -> None:
    verdicts = [verdict for text, verdict, _ in number_verdicts(answer, [("get_reservation", _NIGHTS)])
                if text.startswith("¥") and text != "¥688"]
    assert verdicts == expected


_THREE = {"reservation_id": "ZK0P3M", "flights": [{"flight_number": "MU5137", "price": 780}],
          "passengers": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}
_SEARCH = [{"flight_number": "MU5137", "prices": {"economy": 820, "business": 2460}},
           {"flight_number": "MU5101", "prices": {"economy": 910, "business": 2580}}]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # two options' prices of a search are no legs of one trip to multiply by the travellers
        ("每人需补差价 1680 元，3 人合计：5040 元", S),
        ("公务舱两个航班合计：5040 元", S),
    ],
)
def test_a_searchs_options_are_no_legs_of_a_trip(answer, expected) -> None:
    verdicts = number_verdicts(answer, [("get_reservation_details", _THREE), ("search_direct_flight", _SEARCH)])
    assert verdicts[-1][1] == expected, verdicts


_FARE_CHANGE = {"reservation_id": "MX5F2L", "fare_difference": {"per_passenger": 45, "passengers": 2, "total": 90},
                "payment_history": [{"payment_id": "credit_card_7730", "amount": 90}]}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # money said to have moved is all that moved; "per person" of another amount of the claim is that one's
        ("The new fare is $275 per person, so the fare difference of $45 has been charged to your card.", C),
        ("The fare difference of $45 per person has been charged to your card.", S),
        ("The fare difference of $90 has been charged to your card.", S),
        ("The fare difference is $45.", S),  # no money said moved
    ],
)
def test_an_amount_said_moved_is_all_that_moved(answer, expected) -> None:
    verdicts = number_verdicts(answer, [("update_reservation_flights", _FARE_CHANGE)])
    amount = next(v for text, v, _ in verdicts if text in ("$45", "$90"))
    assert amount == expected, verdicts


CARS_LEFT = {"rental_days": 5, "options": [
    {"offer_id": "SYX-7B", "model": "Wuling", "daily_rate": 189, "available": 5},
    {"offer_id": "SYX-7D", "model": "BYD Tang", "daily_rate": 239, "available": 3}]}


@pytest.mark.parametrize(("answer", "expected"), [
    # the search's own 5 days is no condition, even where an option has 5 left
    ("租 5 天的话，最便宜的是 BYD Tang，239 元/天。", C),
    ("租 5 天的话，最便宜的是 Wuling，189 元/天。", S),
])
def test_what_is_left_of_an_option_is_no_condition_of_the_pick(answer, expected) -> None:
    found = number_verdicts(answer, [("search_vehicles", CARS_LEFT)])
    assert [v for t, v, _ in found if t.startswith(("239", "189"))] == [expected], found


DAMAGE_CLAIM = {"claim_no": "PC-0042", "status": "approved", "refund_amount": 19.5}
YOGURT = {"order_id": "MT-1", "items": [{"name": "Yogurt", "qty": 6, "unit_price": 6.5, "line_total": 39.0},
                                        {"name": "Milk", "qty": 1, "unit_price": 15.8, "line_total": 15.8}]}


@pytest.mark.parametrize(("answer", "outputs", "expected"), [
    # 退回 names the refund its amount is: one box's price is not the refund the claim recorded
    ("理赔已通过，将退回 ¥6.5 到您的微信支付。", [("get_order", YOGURT), ("submit_damage_claim", DAMAGE_CLAIM)], C),
    ("理赔已通过，将退回 ¥19.5 到您的微信支付。", [("get_order", YOGURT), ("submit_damage_claim", DAMAGE_CLAIM)], S),
])
def test_a_refund_word_gives_the_amount_its_field(answer, outputs, expected) -> None:
    found = number_verdicts(answer, outputs)
    assert found[-1][1] == expected, found


LAMPS = {"name": "Desk Lamp", "variants": {
    "8178169421": {"options": {"color": "black", "brightness": "low"}, "available": True, "price": 52.95},
    "8010031864": {"options": {"color": "black", "brightness": "medium"}, "available": False, "price": 38.64},
    "5978955551": {"options": {"color": "silver", "brightness": "medium"}, "available": True, "price": 27.68}}}

LAMP_PICK = "有货里最便宜的是 item 8178169421（brightness low），$52.95。"


@pytest.mark.parametrize(
    ("answer", "question", "output", "expected"),
    [
        # the user's own words narrow the options: a colour the question asks for
        (LAMP_PICK, "台灯 color 选 black 的话，哪个最便宜？", LAMPS, S),
        (LAMP_PICK, "台灯哪个最便宜？", LAMPS, C),
        # a date in the user's words is a bound, no value an option must equal
        ("The cheapest lamp is item 8178169421 at $52.95.", "Which is cheapest by 2025-09-19?", LAMPS, C),
    ],
)
def test_the_scope_of_a_superlative_holds_the_users_words(answer, question, output, expected) -> None:
    calls = [{"name": "get_product_details", "args": {}, "output": output, "status": "ok"}]
    found = [(f.text, f.verdict, f.code) for c in CHECKER.check(answer, calls, [question]).claims for f in c.facts
             if f.kind.value == "number" and f.unit is not None]
    assert found[-1][1] == expected, found


ROOMS = [(Decimal("136"), "rooms[0].rate", {"name": "Junior Suite", "breakfast_included": True}),
         (Decimal("145"), "rooms[1].rate", {"name": "Deluxe Twin", "breakfast_included": True}),
         (Decimal("120"), "rooms[2].rate", {"name": "Family Room", "breakfast_included": False})]


@pytest.mark.parametrize(
    ("scope", "kept"),
    [
        # a true-or-false field named by its first word alone ("with breakfast" of `breakfast_included`)
        ("the cheapest available option with breakfast", ["Junior Suite", "Deluxe Twin"]),
        ("the cheapest option without breakfast", ["Family Room"]),
        ("the cheapest option", ["Junior Suite", "Deluxe Twin", "Family Room"]),
    ],
)
def test_a_flag_field_named_by_its_first_word_scopes_the_options(scope: str, kept: list[str]) -> None:
    assert [o[2]["name"] for o in in_scope(ROOMS, scope, CHECKER.lexicon)] == kept


BAGS_POLICY = "Checked bags: 1 free per passenger in economy. Each extra bag is $50."
BOOKING = {"reservation_id": "J2NS7D", "cabin": "economy", "flights": [{"flight_number": "HAT84", "price": 84}]}


@pytest.mark.parametrize(
    ("answer", "context", "expected"),
    [
        # a rate per unit beside the amount, which the context states: the rule's, not the ticket's price
        ("超出部分每件 50 美元。", [BAGS_POLICY], [("50 美元", S, "context")]),
        ("Extra bags cost $50 each.", [BAGS_POLICY], [("$50", S, "context")]),
        ("The price is $50/bag.", [BAGS_POLICY], [("$50", S, "context")]),
        # no per-unit word beside it, or a rate the context does not state: compared with the field as before
        ("The price is $50.", [BAGS_POLICY], [("$50", C, "value_mismatch")]),
        ("The price is $60 per bag.", [BAGS_POLICY], [("$60", C, "value_mismatch")]),
    ],
)
def test_a_rate_per_unit_the_context_states_is_the_rules(answer: str, context: list, expected: list) -> None:
    calls = [{"name": "get_reservation_details", "args": {}, "output": BOOKING, "status": "ok"}]
    report = CHECKER.check(answer, calls, context)
    assert [(f.text, f.verdict, f.code) for c in report.claims for f in c.facts
            if f.kind.value == "number" and f.unit is not None] == expected


REFUNDED_ORDER = {"order_id": "OD-7731", "paid": 746.80, "refunds": [{"refund_id": "RF-1", "amount": 478.0}]}
STATEMENT = {"card": "6612", "balance": 173.60, "payments": [{"amount": 25.0}]}
PAYOUT = {"payout_id": "PO-90317", "payout_amount": 381.33, "held_amount": 70.15}
REFUND = {"order_id": "OD-8120", "refund": {"amount": 2300.0, "currency": "CNY"}}


@pytest.mark.parametrize(
    ("answer", "outputs", "expected"),
    [
        # what the label names, worked out from the field by a sum or difference: not contradicted by the field
        ("订单原价 ¥746.80，退款完成后您实际支付 ¥268.80。", [("get_order", REFUNDED_ORDER)],
         [("¥746.80", S, "match"), ("¥268.80", S, "derived")]),
        # a balance is what the record states as it stands; a product of the field is no sum or difference
        ("You paid $25.00, so your balance is now $148.60.", [("get_statement", STATEMENT)],
         [("$25.00", S, "match"), ("$148.60", C, "value_mismatch")]),
        # two fields the label fits added up: a total over the wrong records (the held amount paid out too)
        ("Amount: $451.48", [("get_payout", PAYOUT)], [("$451.48", C, "value_mismatch")]),
        ("2 张票，退款金额：¥4,600.00", [("get_refund", REFUND)],
         [("2", U, "not_found"), ("¥4,600.00", C, "value_mismatch")]),
    ],
)
def test_a_value_worked_out_from_its_field(answer: str, outputs: list, expected: list) -> None:
    assert number_verdicts(answer, outputs) == expected



_PLANS = {"amount": 8600.0,
          "plans": [{"terms": 3, "fee_rate_per_term": 0.0075}, {"terms": 6, "fee_rate_per_term": 0.007}]}
_DUTY = {"vat_rate_pct": 20.0, "vat_base": "goods value + shipping + duty"}


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a rate finer than cents, or a field named for a percentage, holds no amount of money to compare with
        ("分 3 期手续费合计 193.50 元。", _PLANS, ["not_found"]),
        ("The VAT comes to £56.30.", _DUTY, ["not_found"]),
        # a field of money still speaks against another amount
        ("分 3 期手续费合计 193.50 元。", {**_PLANS, "fee_total": 64.5}, ["value_mismatch"]),
        ("The VAT comes to £56.30.", {**_DUTY, "vat": 56.2}, ["value_mismatch"]),
    ],
)
def test_a_rate_is_no_amount_of_money(answer, output, expected) -> None:
    codes = [code for text, _, code in number_verdicts(answer, [("get_charges", output)]) if text != "3"]
    assert codes == expected
