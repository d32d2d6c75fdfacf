"""A date said in a role (arriving, expires, check-out, 还车) that the run's fields of that role give otherwise."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
TRACK = {"name": "track_shipment", "args": {"tracking_id": "390172846615"}, "status": "ok", "output": {
    "carrier": "USPS", "status": "in transit", "estimated_delivery": "2025-03-13",
    "last_scan": {"location": "Columbus, OH", "time": "2025-03-11T05:52:00-04:00"}}}
RENTAL = {"name": "extend_rental", "args": {"order_id": "BJ-R-7710", "days": 2}, "status": "ok", "output": {
    "order_id": "BJ-R-7710", "old_return": "2025-09-28T18:00:00", "new_return": "2025-09-30T18:00:00",
    "extra_charge": 750.0}}
HOTEL = {"name": "get_booking", "args": {"booking_id": "CD-5521"}, "status": "ok", "output": {
    "booking_id": "CD-5521", "check_in": "2025-10-01", "check_out": "2025-10-05", "nights": 4}}
ORDER = {"name": "get_order", "args": {"order_id": "#W2290131"}, "status": "ok", "output": {
    "order_id": "#W2290131", "status": "delivered", "delivered_at": "2026-10-31T14:00:00"}}
DUES = {"name": "get_policy", "args": {"policy": "P-1"}, "status": "ok", "output": {"installments": [
    {"due_date": "2025-01-15", "amount": 86.4}, {"due_date": "2025-02-15", "amount": 86.4}]}}
FAILED = {"name": "track_shipment", "args": {"tracking_id": "1Z99"}, "status": "error", "output": {
    "error": "timeout", "estimated_delivery": "2025-03-13"}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "contradicted"),
    [
        ("It's in transit and is expected to arrive Friday, March 14.", [TRACK], "March 14", True),
        ("订单 BJ-R-7710 的大众帕萨特，新的还车时间是 10 月 1 日 18:00。", [RENTAL], "10 月 1 日", True),
        ("您的订单是10月1日入住、10月6日退房。", [HOTEL], "10月6日", True),
        # the role's own date, said otherwise
        ("It's expected to arrive Thursday, March 13.", [TRACK], "March 13", False),
        # controls: a limit or a date worked out from the role's ("by", 至, 也就是), a role word of another date,
        # a date counted from the role's (入住前一天), a failed call's output
        ("It should arrive by March 14.", [TRACK], "March 14", False),
        ("10 月 31 日签收，可退至 11 月 30 日。", [ORDER], "11 月 30 日", False),
        ("10 月 31 日签收，七天无理由退货，也就是 11 月 7 日。", [ORDER], "11 月 7 日", False),
        ("10 月 31 日就签收了，7 天期限在 11 月 7 日已经结束。", [ORDER], "11 月 7 日", False),
        ("免费取消截止时间是入住前一天 18:00，也就是 9 月 30 日。", [HOTEL], "9 月 30 日", False),
        ("It is expected to arrive on March 15.", [FAILED], "March 15", False),
        ("Your next premium is due on March 15.", [DUES], "March 15", False),  # the next of a cycle, worked out
        ("Your premium is due on March 15.", [DUES], "March 15", True),
    ],
)
def test_a_date_of_a_role_is_compared_with_the_roles_fields(
    answer: str, tools: list, said: str, contradicted: bool
) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, fact
    if contradicted:
        assert fact.code == "value_mismatch" and fact.evidence and "tool gives" in fact.reason, fact


@pytest.mark.parametrize(
    ("answer", "tools"),
    [
        ("您的订单是10月6日退房。", [HOTEL]),
        ("预计 3 月 14 日送达，请保持电话畅通。", [TRACK]),
    ],
)
def test_a_date_of_a_role_is_flagged_at_the_default_threshold(answer: str, tools: list) -> None:
    # the table has a weight of its own for a date against its role's field (kind_strength:date/field)
    flags = [f for c in FactChecker().check(answer, tools).claims for f in c.facts if f.code == "value_mismatch"]
    assert flags and all(f.verdict.flagged and not f.uncertain for f in flags), flags
