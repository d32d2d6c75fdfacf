"""A superlative's amount re-ranked over the options that can be had and that meet the claim's conditions."""

import pytest

from factcheck import check
from factcheck.report import Fact


def _fact(answer: str, output: dict, text: str, name: str = "search_options", question: str = "") -> Fact:
    report = check(answer, [{"name": name, "args": {}, "output": output}], [question] if question else None)
    return next(f for c in report.claims for f in c.facts if f.text == text)


SAILINGS = {"results": [
    {"ship": "Mardi Gras", "depart": "2027-02-21", "cabins": [{"cat": "4A", "price_pp": 829, "available": True},
                                                              {"cat": "8A", "price_pp": 1349, "available": True}]},
    {"ship": "Allure", "depart": "2027-02-14", "cabins": [{"cat": "4V", "price_pp": 949, "available": True},
                                                          {"cat": "7C", "price_pp": 1289, "available": False}]},
    {"ship": "Wonder", "depart": "2027-02-28", "cabins": [{"cat": "4B", "price_pp": 899, "available": True},
                                                          {"cat": "8B", "price_pp": 1399, "available": True}]},
]}


@pytest.mark.parametrize(
    ("claimed", "verdict"),
    [
        ("$1,349", "supported"),  # the cheaper balcony on Allure is not available: the part of the option that holds it
        ("$1,399", "contradicted"),  # Mardi Gras's $1,349 balcony can be had
    ],
)
def test_a_part_of_an_option_that_cannot_be_had_is_not_ranked(claimed, verdict) -> None:
    fact = _fact(f"The cheapest bookable balcony is {claimed} per person.", SAILINGS, claimed)
    assert fact.verdict.value == verdict


SHIPPING = {"options": [
    {"service": "Economy", "price": 14.6, "est_delivery": "2026-12-08"},
    {"service": "Standard", "price": 22.5, "est_delivery": "2026-12-06"},
    {"service": "Express", "price": 36.0, "est_delivery": "2026-12-04"},
]}
TODAY = "System: current date is Wednesday 2026-12-02."


@pytest.mark.parametrize(
    ("answer", "claimed", "verdict"),
    [
        # the deadline's day keeps the options that arrive by then
        ("The cheapest service that arrives by Dec 6 is Standard at $22.50.", "$22.50", "supported"),
        ("满足 12月6日 前送达的最低价是标准快递（$22.50）。", "$22.50", "supported"),
        ("The cheapest service that arrives by Dec 6 is Express at $36.00.", "$36.00", "contradicted"),
        # a weekday alone is the first such day from today (Friday, Dec 4)
        ("The cheapest one that makes it by Friday is Express at $36.00.", "$36.00", "supported"),
        ("The cheapest one that makes it by Friday is Standard at $22.50.", "$22.50", "contradicted"),
        # "before" leaves the day out: Standard arrives on Dec 6 itself
        ("The cheapest one that gets there before Dec 6 is Express at $36.00.", "$36.00", "supported"),
        # no deadline: every option is ranked
        ("The cheapest service is Standard at $22.50.", "$22.50", "contradicted"),
    ],
)
def test_a_deadline_keeps_the_options_that_arrive_by_it(answer, claimed, verdict) -> None:
    fact = _fact(answer, SHIPPING, claimed, "get_shipping_options", TODAY)
    assert fact.verdict.value == verdict


def test_an_option_past_the_deadline_is_said_late() -> None:
    fact = _fact("The cheapest service that arrives by Dec 6 is Economy at $14.60.", SHIPPING, "$14.60",
                 "get_shipping_options", TODAY)
    assert fact.verdict.value == "contradicted" and "arrives after it" in fact.reason


ROOMS = {"offers": [
    {"room": "Economy Double", "rate_per_night": 350, "smoking": True, "refundable": True, "breakfast": False},
    {"room": "Standard Queen", "rate_per_night": 400, "smoking": False, "refundable": False, "breakfast": True},
    {"room": "Deluxe Twin", "rate_per_night": 480, "smoking": False, "refundable": True, "breakfast": True},
]}
PLANS = {"plans": [
    {"name": "Team", "unit_price_monthly": 15.0, "features": {"sso_saml": False}},
    {"name": "Business", "unit_price_monthly": 24.0, "features": {"sso_saml": True}},
    {"name": "Enterprise", "unit_price_monthly": 39.0, "features": {"sso_saml": True}},
]}


@pytest.mark.parametrize(
    ("answer", "output", "claimed", "verdict"),
    [
        # the lexicon's flag_words name a true-or-false field: 可免费取消 of `refundable`, 无烟 of `smoking`: false
        ("可免费取消的房型里最便宜的是豪华双床房，每晚 480 元。", ROOMS, "480 元", "contradicted"),
        ("无烟房里最便宜的是标准大床房，每晚 400 元。", ROOMS, "400 元", "supported"),
        ("无烟、可免费取消的房型里最便宜的是豪华双床房，每晚 480 元。", ROOMS, "480 元", "supported"),
        # a field of a part of the option, its words in another order
        ("The cheapest plan that includes SAML SSO is Business at $24.00 per seat.", PLANS, "$24.00", "supported"),
        ("The cheapest plan that includes SAML SSO is Enterprise at $39.00 per seat.", PLANS, "$39.00",
         "contradicted"),
        # no field named: every option is ranked
        ("The cheapest plan is Business at $24.00 per seat.", PLANS, "$24.00", "contradicted"),
    ],
)
def test_a_true_or_false_field_the_scope_names_keeps_its_options(answer, output, claimed, verdict) -> None:
    assert _fact(answer, output, claimed).verdict.value == verdict


RATES = {"rates": [
    {"carrier": "UPS", "service": "Ground", "price": 18.42, "est_delivery": "2026-12-07"},
    {"carrier": "FedEx", "service": "Express Saver", "price": 29.6, "est_delivery": "2026-12-04"},
    {"carrier": "USPS", "service": "Priority Mail", "price": 16.85, "est_delivery": "2026-12-03"},
]}


@pytest.mark.parametrize(
    ("answer", "claimed", "verdict"),
    [
        # the superlative after the amount ranks it too, over what the words after it keep (a carrier's `rates`)
        ("Go with FedEx Express Saver: at $29.60 it's the lowest-priced service that gets there by Friday.",
         "$29.60", "contradicted"),
        ("Go with USPS Priority Mail: at $16.85 it's the lowest-priced service that gets there by Friday.",
         "$16.85", "supported"),
        # a condition in a clause before the pick still holds ("that arrive by Friday"), the pick's own name does not
        ("Of the services that arrive by Friday, FedEx Express Saver at $29.60 is the cheapest.", "$29.60",
         "contradicted"),
        # a cue after a comma opens a clause of its own: the amount before it is no pick
        ("UPS Ground costs $18.42, cheapest of all is USPS Priority Mail.", "$18.42", "supported"),
    ],
)
def test_a_superlative_after_the_amount(answer, claimed, verdict) -> None:
    assert _fact(answer, RATES, claimed, question=TODAY).verdict.value == verdict


FLIGHTS = {"flights": [
    {"flight": "3U8897", "dep": "07:35", "price": 620},
    {"flight": "CA4211", "dep": "08:50", "price": 710},
    {"flight": "MU2337", "dep": "20:10", "price": 480},
]}


@pytest.mark.parametrize(
    ("answer", "claimed", "verdict"),
    [
        # a part of the day the claim names keeps the options that start then (lexicon day_parts)
        ("早上最便宜的是 3U8897，票面 620 元。", "620 元", "supported"),
        ("The cheapest morning flight is 3U8897 at ¥620.", "¥620", "supported"),
        ("The cheapest morning flight is CA4211 at ¥710.", "¥710", "contradicted"),
        ("The cheapest evening flight is MU2337 at ¥480.", "¥480", "supported"),
        # none named: every option is ranked, whatever the question compares
        ("最便宜的是 3U8897，票面 620 元。", "620 元", "contradicted"),
    ],
)
def test_a_part_of_the_day_keeps_the_options_that_start_then(answer, claimed, verdict) -> None:
    assert _fact(answer, FLIGHTS, claimed, question="早上的和晚上的哪个便宜？").verdict.value == verdict


FARES = [{"flight_no": "MU5331", "fare": 980, "seats_left": 3}, {"flight_no": "MU5337", "fare": 860, "seats_left": 0},
         {"flight_no": "CZ3598", "fare": 890, "seats_left": 2}, {"flight_no": "ZH9506", "fare": 890, "seats_left": 6}]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # the party's size said ("两人共") is no reason the sold-out pick was skipped
        ("最便宜的是 MU5337，11:30 起飞，每人 ¥860，两人共 ¥1,720。", "contradicted"),
        ("The cheapest is MU5337 at ¥860 each, ¥1,720 for the two of you.", "contradicted"),
        # the seats left said is
        ("最便宜的 MU5337（¥860）已经没有座位了（剩 0 座）。", "supported"),
    ],
)
def test_the_party_size_is_no_reason_a_pick_cannot_be_had(answer, verdict) -> None:
    fact = _fact(answer, {"results": FARES}, "¥860", question="两个人，帮我找最便宜能订的。")
    assert fact.verdict.value == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # two options at ¥890, the first with too few seats for three: the one the claim names can be had
        ("最便宜能订的是 ZH9506，每人 ¥890。", "supported"),
        ("The cheapest flight you can book is ZH9506 at ¥890 per person.", "supported"),
        # with the party said (no reason CZ3598 was skipped any more), the pick is still the one named
        ("三个人最便宜能订的是 ZH9506，每人 ¥890，三人共 ¥2,670。", "supported"),
    ],
)
def test_of_two_options_at_the_amount_the_named_one_is_the_pick(answer, verdict) -> None:
    fact = _fact(answer, {"results": FARES}, "¥890", question="我们三个人，帮我找最便宜能订的。")
    assert fact.verdict.value == verdict


CABINS = [
    {"flight_number": "HAT361", "prices": {"basic_economy": 185, "economy": 225},
     "available_seats": {"basic_economy": 2, "economy": 3}},
    {"flight_number": "HAT744", "prices": {"basic_economy": 89, "economy": 143},
     "available_seats": {"basic_economy": 1, "economy": 1}},
    {"flight_number": "HAT287", "prices": {"basic_economy": 120, "economy": 185},
     "available_seats": {"basic_economy": 2, "economy": 5}},
]


def test_an_amount_two_options_give_is_ranked_as_the_named_ones() -> None:
    # $185 is HAT361's basic economy and HAT287's economy: the claim names HAT287, whose economy fare is the lowest
    # that two can book (not HAT361's cabin, where HAT287's $120 is lower)
    fact = _fact("最便宜的是 HAT287（21:50 起飞），经济舱每人 $185，2 人合计 $370。", {"flights": CABINS}, "$185",
                 question="我们 2 个人从 EWR 飞 LHR，要经济舱，哪班最便宜？")
    assert fact.verdict.value == "supported"
