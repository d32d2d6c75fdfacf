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
