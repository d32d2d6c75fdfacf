"""A count of nights said beside the stay's two dates is the nights between them."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
STAY = {"name": "get_reservation", "args": {"confirmation": "PHS-77120934"}, "status": "ok",
        "output": {"confirmation": "PHS-77120934", "check_in": "2025-10-12", "check_out": "2025-10-15", "guests": 2,
                   "rate_per_night": 2380.0}}
NEW_YEAR = {"name": "get_reservation", "args": {}, "status": "ok",
            "output": {"check_in": "2025-12-30", "check_out": "2026-01-02", "guests": 2}}
LISTED = {"name": "get_rates", "args": {}, "status": "ok",
          "output": {"nights": [{"date": "2025-10-15", "rate": 189}, {"date": "2025-10-16", "rate": 189}]}}


def verdict(answer: str, tools: list, said: str) -> Verdict:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # a tool's 2 (two guests) does not back two nights of a stay from the 12th to the 15th
        ("您的订单是 10月12日入住、10月15日退房，共 2 晚。", [STAY], "2", Verdict.CONTRADICTED),
        ("您的订单是 10月12日入住、10月15日退房，共 3 晚。", [STAY], "3", Verdict.SUPPORTED),
        ("Check-in Oct 12, check-out Oct 15 (2 nights).", [STAY], "2", Verdict.CONTRADICTED),
        ("Dates: Sun 12 Oct → Wed 15 Oct 2025 (4 nights)", [STAY], "4", Verdict.CONTRADICTED),
        ("Dates: Sun 12 Oct → Wed 15 Oct 2025 (3 nights)", [STAY], "3", Verdict.SUPPORTED),
        # the year written once, or a stay into the next year
        ("Stay: Dec 30 – Jan 2, 2026 (3 nights)", [NEW_YEAR], "3", Verdict.SUPPORTED),
        ("Stay: Dec 30 – Jan 2, 2026 (4 nights)", [NEW_YEAR], "4", Verdict.CONTRADICTED),
        # nights listed by their dates, a part of the stay, or hours late: no stay's first and last day
        ("The nights of Oct 15 and Oct 16 are confirmed, two nights at $189.", [LISTED], "two", Verdict.SUPPORTED),
        ("10月12日入住、10月15日退房，其中前 2 晚含早餐。", [STAY], "2", Verdict.SUPPORTED),
    ],
)
def test_a_count_of_nights_beside_the_stays_dates(answer: str, tools: list, said: str, expected: Verdict) -> None:
    assert verdict(answer, tools, said) == expected
