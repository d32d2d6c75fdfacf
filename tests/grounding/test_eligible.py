"""Whether an option can be had, and how many the user's party needs."""

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.grounding.eligible import party_size, why_not
from factcheck.grounding.evidence import EvidenceIndex

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
LEX = CHECKER.lexicon


def index(calls: list[dict], question: str = "") -> EvidenceIndex:
    return EvidenceIndex(calls, [question], CHECKER.config, LEX, CHECKER._mentions, CHECKER._statuses)


def search(args: dict) -> dict:
    return {"name": "search_bus", "args": args, "output": {"trips": [{"trip_id": "GL-1", "seats_left": 3}]},
            "status": "ok"}


RESERVATION = {"name": "get_reservation_details", "args": {}, "status": "ok",
               "output": {"reservation_id": "XCQDWQ", "passengers": [{"n": "A"}, {"n": "B"}, {"n": "C"}, {"n": "D"}]}}
OTHER = {"name": "get_reservation_details", "args": {}, "status": "ok",
         "output": {"reservation_id": "ZZZZZZ", "passengers": [{"n": "A"}]}}


@pytest.mark.parametrize(
    ("calls", "question", "expected"),
    [
        ([search({"passengers": {"adult": 2, "child": 2}})], "", 4),  # the search's own count
        ([search({"passengers": 3})], "", 3),
        ([search({"nights": 2})], "", 1),  # nights are no party
        ([search({})], "We're 4 people.", 4),
        ([search({})], "I need 3 economy seats.", 3),
        ([search({})], "all 4 of us", 4),
        ([search({})], "我们 3 个人", 3),
        ([search({})], "需要 4 个经济舱座位", 4),
        ([search({})], "3 天后出发", 1),  # days are no party
        ([search({})], "300 people follow the page", 1),  # no party that large
        # the number right before the noun, not a word before it ("We're two": "re" is no number)
        ([search({})], "We're two people in Reykjavik on Feb 10.", 2),
        ([search({"pax": 2})], "", 2),  # `pax`: lexicon party_nouns
        # the travellers of the reservation the user named, when the run read two
        ([RESERVATION, OTHER, search({})], "订单 XCQDWQ 我们全部人一起走", 4),
    ],
)
def test_the_party_size(calls, question, expected) -> None:
    run = index(calls, question)
    assert party_size(run, len(calls) - 1) == expected


@pytest.mark.parametrize(
    ("record", "party", "cabin", "reason"),
    [
        ({"available": False, "price": 10}, 1, None, "cannot be booked"),
        ({"status": "sold out"}, 1, None, "is sold out"),
        ({"status": "已售罄"}, 1, None, "is 已售罄"),
        ({"status": "available", "seats_left": 3}, 4, None, "has 3 left for 4"),
        ({"available_seats": {"economy": 1, "business": 9}}, 2, "economy", "has 1 left for 2"),
        ({"available_seats": {"economy": 1, "business": 9}}, 2, "business", ""),
        ({"available_seats": ["C17", "C23"]}, 3, None, "has 2 left for 3"),  # a list of the seats left
        ({"available_count": 6}, 3, None, ""),
        ({"status": "available", "price": 10}, 9, None, ""),  # nothing counts what is left
        ({"room_type": "Twin", "available": 0}, 1, None, "has 0 left for 1"),  # a count, not a yes or no
        ({"slot": "07:30", "capacity": 4, "booked": 4}, 1, None, "has 0 left for 1"),  # capacity less booked
        ({"time": "18:00", "max_party": 8}, 9, None, "has 8 left for 9"),  # the most a table takes
        ({"time": "19:30", "max_party": 10}, 9, None, ""),
        ({"model": "Kia Sorento", "status": "maintenance"}, 1, None, "is maintenance"),  # a car in the shop
        ({"quote_id": "QT-1", "status": "expired"}, 1, None, "is expired"),  # a quote no longer valid
        ({"package_id": "PH-D", "availability": "2027-04-10 已约满"}, 1, None, "is 2027-04-10 已约满"),
        ({"quote_id": "QT-2", "status": "valid"}, 1, None, ""),
    ],
)
def test_why_an_option_cannot_be_had(record, party, cabin, reason) -> None:
    assert why_not(LEX, record, party, cabin) == reason
