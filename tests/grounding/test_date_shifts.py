"""A date no tool gives, a few days off a date of the tools that the answer never says: the tool's date, moved."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
RENTAL = {"name": "get_rental", "args": {"confirmation": "DN-448812"}, "status": "ok", "output": {
    "confirmation": "DN-448812", "pickup": {"datetime": "2025-04-02T15:30:00-07:00"},
    "dropoff": {"datetime": "2025-04-06T11:00:00-07:00"}, "status": "CONFIRMED"}}
TICKETS = {"name": "get_ticket_order", "args": {"order_id": "MP1002"}, "status": "ok", "output": {
    "order_id": "MP1002", "visit_date": "2025-10-03", "total": 570.0, "status": "已出票"}}
SHIPMENT = {"name": "track_shipment", "args": {"tracking": "SF1"}, "status": "ok", "output": {
    "tracking": "SF1", "picked_up": "2024-06-08", "estimated_delivery": "2024-06-27"}}
FLIGHTS = {"name": "search_flights", "args": {"date": "2025-03-14"}, "status": "ok", "output": {"flights": [
    {"flight": "HZ230", "date": "2025-03-14", "departs": "17:40", "arrives": "01:55"}]}}
TIMED_OUT = {"name": "track_shipment", "args": {"tracking": "SF2"}, "status": "error", "output": {
    "error": "timeout", "estimated_delivery": "2024-06-21"}}


@pytest.mark.parametrize(
    ("answer", "tools", "context", "said", "contradicted"),
    [
        # the record's date, moved a day or three, and never said
        ("- Drop-off：4 月 7 日（周一）上午 11:00，SFO Airport", [RENTAL], [], "4 月 7 日", True),
        ("入园日期 10月4日，刷身份证入园。", [TICKETS], [], "10月4日", True),
        ("Your parcel was picked up on June 10.", [SHIPMENT], [], "June 10", True),
        # controls: the record's own date; a moved date beside the record's; a bound, a deadline or a limit;
        # a day counted from today or another date; a range's or a list's end; a date a number of the claim or the
        # context works out; a time past midnight; a failed call's date; a date far from every tool's
        ("入园日期 10月3日，刷身份证入园。", [TICKETS], [], "10月3日", False),
        ("Picked up June 8, and scanned again at the hub on June 10.", [SHIPMENT], [], "June 10", False),
        ("Free cancellation until April 7.", [RENTAL], [], "April 7", False),
        ("免费取消截止：10月2日 18:00。", [TICKETS], [], "10月2日", False),
        ("请在 10月2日 18:00（当地时间）前取消。", [TICKETS], [], "10月2日", False),
        ("The bank credits it on the next business day, Monday, June 10.", [SHIPMENT], [], "June 10", False),
        ("预计明天（6月10日）发出。", [SHIPMENT], [], "6月10日", False),
        ("Tracking shows scans on June 10–12.", [SHIPMENT], [], "June 10", False),
        ("It left the hub 2 days after pickup, on June 10.", [SHIPMENT], [], "June 10", False),
        ("Your return window closed on June 10.", [SHIPMENT], ["Returns are accepted within 2 days of pickup."],
         "June 10", False),
        ("| HZ230 | 5:40 PM | 1:55 AM (Mar 15) |", [FLIGHTS], [], "Mar 15", False),
        ("It is expected to arrive on June 19.", [TIMED_OUT], [], "June 19", False),
        ("Your parcel was picked up on May 20.", [SHIPMENT], [], "May 20", False),
    ],
)
def test_a_record_date_moved_and_never_said(answer: str, tools: list, context: list, said: str,
                                            contradicted: bool) -> None:
    fact = next(f for c in CHECKER.check(answer, tools, context).claims for f in c.facts if f.text == said)
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, (fact.verdict, fact.code, fact.reason)
    if contradicted:
        assert fact.code == "value_mismatch" and fact.evidence and "never says" in fact.reason, fact


def test_a_moved_date_is_flagged_at_the_default_threshold() -> None:
    report = FactChecker().check("- Drop-off：4 月 7 日（周一）上午 11:00，SFO Airport", [RENTAL])
    assert report.flagged and "2025-04-06" in report.flagged[0].reason


PICKUP = {"name": "get_booking", "args": {"booking_id": "RV-20814"}, "status": "ok", "output": {
    "booking_id": "RV-20814", "pickup": {"location": "Parnell St", "at": "2025-07-05T08:30:00+01:00"}}}
COURIER = {"name": "track_order", "args": {"order_id": "DB-1"}, "status": "ok", "output": {
    "order_id": "DB-1", "picked_up_at": "19:21", "promised_by": "19:50"}}
FAILED_PICKUP = {**PICKUP, "status": "error"}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "contradicted"),
    [
        # the record's time, moved up to an hour, and never said
        ("Pick-up: Saturday 5 July, 8:10 AM", [PICKUP], "8:10 AM", True),
        ("取车时间：7 月 5 日 09:00，地点 Parnell St。", [PICKUP], "09:00", True),
        # controls: the record's own time; the moved time beside the record's; an approximate time, a time worked out
        # from a duration, a limit, a range's end; a failed call's time; a time far from every tool's
        ("Pick-up: Saturday 5 July, 8:30 AM", [PICKUP], "8:30 AM", False),
        ("Pick-up is at 8:30 AM; the desk opens at 8:10 AM.", [PICKUP], "8:10 AM.", False),
        ("He should be at your door around 19:42.", [COURIER], "19:42", False),
        ("骑手已取餐，预计还要 12 分钟，19:33 送到。", [COURIER], "19:33", False),
        ("Please be at the counter before 8:10 AM.", [PICKUP], "8:10 AM.", False),
        ("Your slot is 8:10–8:40 AM.", [PICKUP], "8:40 AM.", False),
        ("Pick-up: Saturday 5 July, 8:10 AM", [FAILED_PICKUP], "8:10 AM", False),
        ("He picked it up at 7:30 PM and is on his way.", [COURIER], "7:30 PM", False),  # rounded
        ("取车时间：7 月 5 日 9 点多，地点 Parnell St。", [PICKUP], " 9 点", False),  # some time past 9
        ("Pick-up: Saturday 5 July, 11:10 AM", [PICKUP], "11:10 AM", False),
    ],
)
def test_a_record_time_moved_and_never_said(answer: str, tools: list, said: str, contradicted: bool) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, (fact.verdict, fact.code, fact.reason)
    if contradicted:
        assert fact.code == "value_mismatch" and fact.evidence and "never says" in fact.reason, fact


TOUR = {"name": "get_tour", "args": {"booking": "TR-88"}, "status": "ok", "output": {
    "booking": "TR-88", "start_date": "2025-09-12", "end_date": "2025-09-16", "travellers": 2}}


@pytest.mark.parametrize(
    ("answer", "said", "verdict"),
    [
        # a day of a trip by its number: the first day's date moved by one less
        ("Day 4 (Sep 15): 黄龙洞, then lunch.", "Sep 15", Verdict.SUPPORTED),
        ("▸ 9月15日（D4）黄龙洞", "9月15日", Verdict.SUPPORTED),
        ("第 4 天（9月15日）去黄龙洞。", "9月15日", Verdict.SUPPORTED),
        # a day that is not the first day's moved by one less than its number
        ("Day 4 (Sep 14): 黄龙洞.", "Sep 14", Verdict.UNSUPPORTED),
    ],
)
def test_a_day_of_a_trip_is_counted_from_its_first_day(answer: str, said: str, verdict: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, [TOUR]).claims for f in c.facts if f.text == said)
    assert fact.verdict == verdict, (fact.verdict, fact.code, fact.reason)
