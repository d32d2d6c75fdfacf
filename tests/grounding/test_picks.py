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
