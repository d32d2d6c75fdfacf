"""A record named as the best of its options, re-ranked over the options that can be had."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
S, C = Verdict.SUPPORTED, Verdict.CONTRADICTED
ORDER = {"order_id": "#W5565470", "items": [{"name": "Electric Kettle", "price": 122.5},
                                            {"name": "Pet Bed", "price": 193.4},
                                            {"name": "Mechanical Keyboard", "price": 181.2}]}
# a search's whole output is its options; prices and seats kept per cabin
FLIGHTS = [
    {"flight_number": "HAT293", "status": "cancelled", "available_seats": {"economy": 9}, "prices": {"economy": 113}},
    {"flight_number": "HAT162", "status": "available", "available_seats": {"economy": 1}, "prices": {"economy": 133}},
    {"flight_number": "HAT298", "status": "available", "available_seats": {"economy": 5}, "prices": {"economy": 278}},
    {"flight_number": "HAT165", "status": "available", "available_seats": {"economy": 6}, "prices": {"economy": 315}},
]


def name_verdict(answer: str, call: dict, question: str = "") -> Verdict:
    facts = [f for c in CHECKER.check(answer, [call], [question]).claims for f in c.facts
             if f.kind.value in ("name", "identifier")]
    assert facts, answer
    return facts[0].verdict


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Of these, the Pet Bed is the most expensive.", S),
        ("Of these, the Electric Kettle is the most expensive.", C),
        ("Of these, the Electric Kettle is the cheapest.", S),
        ("其中 Pet Bed 最贵。", S),
        ("The Electric Kettle is in this order.", S),  # no selection
    ],
)
def test_a_record_named_as_the_cheapest_is_reranked_by_its_price(answer, expected) -> None:
    assert name_verdict(answer, {"name": "get_order_details", "args": {}, "output": ORDER, "status": "ok"}) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        # four people: the cancelled flight and the one with a single seat are no options
        ("The cheapest option for your group is HAT298.", "We're 4 people flying in economy.", S),
        ("The cheapest option for your group is HAT165.", "We're 4 people flying in economy.", C),
        ("最便宜的是 HAT298。", "我们 4 个人坐经济舱。", S),
        # one traveller: the single seat is enough
        ("The cheapest option is HAT162.", "One economy seat, please.", S),
        ("The cheapest option is HAT298.", "One economy seat, please.", C),
    ],
)
def test_a_pick_ranks_the_options_the_party_can_have(answer, question, expected) -> None:
    call = {"name": "search_direct_flight", "args": {"origin": "LAX"}, "output": FLIGHTS, "status": "ok"}
    assert name_verdict(answer, call, question) == expected


def test_with_no_cabin_named_per_cabin_prices_are_not_ranked() -> None:
    call = {"name": "search_direct_flight", "args": {}, "output": FLIGHTS, "status": "ok"}
    assert name_verdict("The cheapest option is HAT165.", call, "Find me a flight.") == S


def test_the_evidence_says_how_the_options_rank() -> None:
    call = {"name": "search_direct_flight", "args": {}, "output": FLIGHTS, "status": "ok"}
    fact = next(f for c in CHECKER.check("The cheapest option for your group is HAT165.", [call],
                                         ["We're 4 people flying in economy."]).claims for f in c.facts)
    assert fact.code == "recomputed"
    assert "the lowest prices of the 2 options that can be had is 278 (HAT298), not 315" in fact.reason


def _leg(number: str, economy: int, seats: int = 6) -> dict:
    return {"flight_number": number, "status": "available", "available_seats": {"economy": seats},
            "prices": {"economy": economy, "business": economy * 3}}


# a one-stop search: each option is the list of its legs
ROUTINGS = {"name": "search_onestop_flight", "args": {"origin": "BOS", "destination": "MIA"}, "status": "ok",
            "output": [[_leg("HAT057", 112), _leg("HAT199", 96)], [_leg("HAT090", 89), _leg("HAT311", 134)],
                       [_leg("HAT102", 70), _leg("HAT245", 125, seats=0)]]}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # 89 + 134 = 223 is not the lowest: 112 + 96 = 208 (the third routing has no economy seat left)
        ("The cheapest economy routing is via Charlotte: HAT090 connecting to HAT311.", C),
        ("The cheapest economy routing is via Atlanta: HAT057 connecting to HAT199.", S),
        # no cabin named: the legs' prices are not ranked
        ("The cheapest routing is via Charlotte: HAT090 connecting to HAT311.", S),
    ],
)
def test_a_connecting_option_is_ranked_by_its_legs_added_up(answer: str, expected: Verdict) -> None:
    assert name_verdict(answer, ROUTINGS) == expected


def test_a_connecting_option_says_which_routing_is_lower() -> None:
    report = CHECKER.check("The cheapest economy routing is via Charlotte: HAT090 connecting to HAT311.", [ROUTINGS])
    [fact] = [f for c in report.claims for f in c.facts if f.verdict == C]
    assert "208 (HAT057 + HAT199), not 223 (HAT090 + HAT311)" in fact.reason


# an option's price in a field named by its fare, not a price (`fare_difference`)
CHANGES = {"name": "search_alternatives", "args": {"confirmation": "HJ4RTW", "date": "2025-09-19"}, "status": "ok",
           "output": {"currency": "USD", "options": [
               {"flight": "UA 1187", "dep": "08:10", "fare_difference": 142.3, "seats_left": 6},
               {"flight": "UA 2214", "dep": "09:40", "fare_difference": 88.1, "seats_left": 2},
               {"flight": "UA 1964", "dep": "18:50", "fare_difference": 64.9, "seats_left": 4}]}}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("The cheapest is UA 2214 at 09:40.", C),
        ("The cheapest is UA 1964 at 18:50.", S),
        ("最便宜的是 UA 2214。", C),
    ],
)
def test_an_option_priced_by_its_fare_is_re_ranked(answer: str, expected: Verdict) -> None:
    assert name_verdict(answer, CHANGES) == expected
