"""A measure the tool gives in one unit, said in another of the same dimension."""

import pytest

from factcheck import CheckerConfig, FactChecker, check
from factcheck.report import Verdict


@pytest.mark.parametrize(
    ("answer", "output", "verdict"),
    [
        ("纽约和洛杉矶之间的距离大约是2448.5英里。", {"distance": 2448.5, "units": "公里"}, Verdict.CONTRADICTED),
        ("距离大约是2448.5公里。", {"distance": 2448.5, "units": "公里"}, Verdict.SUPPORTED),
        ("The distance is 2448.5 miles.", {"distance": 2448.5, "units": "km"}, Verdict.CONTRADICTED),
        ("The distance is 2448.5 miles.", {"distance_km": 2448.5}, Verdict.CONTRADICTED),
        ("The distance is 2448.5 km.", {"distance_km": 2448.5}, Verdict.SUPPORTED),
        ("The parcel weighs 12 lb.", {"weight": 12, "unit": "kg"}, Verdict.CONTRADICTED),
        ("The parcel weighs 12 lb.", {"weight": 12, "unit": "lbs"}, Verdict.SUPPORTED),
        ("The parcel weighs 12 lb.", {"weight": 12}, Verdict.SUPPORTED),  # no unit given: nothing to compare
        # a field named `min` is a bound, not minutes; the unit after "in" is the field's (`_in_s`: seconds)
        ("Ground shipping takes 3 days.", {"transit_days": {"min": 3, "max": 5}}, Verdict.SUPPORTED),
        ("The window resets in about 23 seconds.", {"minute_window_resets_in_s": 23}, Verdict.SUPPORTED),
        ("The window resets in about 23 minutes.", {"wait_in_seconds": 23}, Verdict.CONTRADICTED),
        # `min` before another unit word is a bound: `min_delay_hours` holds hours
        ("The delay must be at least 12 hours.", {"min_delay_hours": 12}, Verdict.SUPPORTED),
        ("That call took 7 days.", {"duration_min": 7}, Verdict.CONTRADICTED),
        # the field's last unit word is its unit (`rest_day_hours`: hours, `hours_per_day`: hours)
        ("Rest-day overtime: 8 hours.", {"rest_day_hours": 8}, Verdict.SUPPORTED),
        ("Rest-day overtime: 8 days.", {"rest_day_hours": 8}, Verdict.CONTRADICTED),
        ("A shift is 8 hours.", {"hours_per_day": 8}, Verdict.SUPPORTED),
        # a one-letter name is no unit: `M` is a fare class, not metres
        ("An M fare needs 25,000 miles.", {"miles_required": {"M": 25000}}, Verdict.SUPPORTED),
    ],
)
def test_a_measure_in_another_unit_is_contradicted(answer, output, verdict) -> None:
    report = check(answer, [{"name": "measure", "args": {}, "output": output}])
    number = next(f for c in report.claims for f in c.facts if f.kind.value == "number")
    assert number.verdict == verdict
    if verdict == Verdict.CONTRADICTED:
        assert number.evidence and number.code == "other_unit" and number.strength == "other-unit"


def test_a_measure_the_user_asked_about_is_the_users_own() -> None:
    # "最近7天" of the question: the window, whatever a tool's 7 minutes are
    report = check("最近7天您一共打了133分钟电话。", [{"name": "calls", "args": {}, "output": {"records": [
        {"duration_min": 7}]}}], context=["我最近7天打了多少分钟电话？"])
    seven = next(f for c in report.claims for f in c.facts if f.text == "7")
    assert seven.verdict == Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        # a quantity of 3 is no span of 3 business days; a field of days or a text that says them is
        ({"items": [{"sku": "A-1", "quantity": 3}]}, Verdict.UNSUPPORTED),
        ({"items": [{"sku": "A-1", "processing_days": 3}]}, Verdict.SUPPORTED),
        ({"note": "Refunds post within 3 business days."}, Verdict.SUPPORTED),
    ],
)
def test_a_span_of_time_is_backed_by_a_span(output: dict, expected: Verdict) -> None:
    tools = [{"name": "get_order", "args": {}, "status": "ok", "output": output}]
    report = FactChecker(CheckerConfig(min_confidence=0)).check("The refund posts within 3 business days.", tools)
    [fact] = [f for c in report.claims for f in c.facts if f.text == "3"]
    assert fact.verdict == expected, fact.reason


@pytest.mark.parametrize(
    ("answer", "output", "text", "verdict"),
    [
        # arithmetic over the run's numbers gives 4 days (10 − 6): the comp-leave record's 4 hours is no evidence
        ("年假共 10 天，已休 6 天，可以再休 4 天。", [{"annual": {"total": 10, "used": 6}},
                                                 [{"date": "2025-10-19", "hours": 4}]], "4", Verdict.SUPPORTED),
        ("You have 12 days of leave (10 plus 2 carried over).", [{"entitled": 10, "carried": 2},
                                                                 {"types": [{"balance_hours": 12}]}], "12",
         Verdict.SUPPORTED),
        ("可以再休 4 天。", [{"annual": {"total": 10}}, [{"date": "2025-10-19", "hours": 4}]], "4",
         Verdict.CONTRADICTED),
        # the first part of a measure in two units is no measure of its own
        ("It arrives 3 hours 50 minutes from now.", [{"transit_days": 3}], "3", Verdict.SUPPORTED),
        ("比 9521 多花 3 小时 43 分。", [{"transit_days": 3}], "3", Verdict.SUPPORTED),
        ("It arrives 3 hours from now.", [{"transit_days": 3}], "3", Verdict.CONTRADICTED),
        # a side of an exchange rate has two currencies: the tool's rate field gives it in neither
        ("汇率：1 美元 = 7.1850 元。", [{"USD_CNY": 7.185}], "7.1850 元", Verdict.SUPPORTED),
        ("Rate: 1 EUR = 0.8350 GBP.", [{"rate": 0.835, "currency": "EUR"}], "0.8350 GBP", Verdict.SUPPORTED),
        ("You pay 0.8350 GBP.", [{"rate": 0.835, "currency": "EUR"}], "0.8350 GBP", Verdict.CONTRADICTED),
    ],
)
def test_a_number_another_unit_gives_by_chance(answer, output, text, verdict) -> None:
    tools = [{"name": f"read_{i}", "args": {}, "status": "ok", "output": o} for i, o in enumerate(output)]
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, tools)
    [fact] = [f for c in report.claims for f in c.facts if f.text == text]
    assert fact.verdict == verdict, fact.reason
    if verdict == Verdict.CONTRADICTED:
        assert fact.code == "other_unit"
    elif text in ("4", "12"):
        assert fact.code == "derived" and fact.reason.startswith("number equals"), fact.reason
