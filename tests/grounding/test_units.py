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
