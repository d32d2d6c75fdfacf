"""Time windows a claim puts a record's moment in, against the moments and the current time."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def call(name: str, output: dict) -> dict:
    return {"name": name, "args": {}, "output": output, "status": "ok"}


BOOKED = [call("get_reservation", {"pnr": "MK8Q2D", "booked_at": "2026-12-01T08:15:00+08:00"})]
DELIVERED = [call("get_order_details", {"order_id": "#W6120784", "delivered_at": "2026-10-28T15:12:00Z"})]
RENTAL = [call("get_rental_agreement", {"due_back": "2026-11-29T17:00:00", "actual_return": "2026-11-29T18:12:00"})]
TODAY = ["当前日期：2026-12-02"]
SHIPPED = [call("query_waybill", {"waybill_no": "SF1408823317952", "ship_time": "2026-11-05 16:22:10"})]


@pytest.mark.parametrize(
    ("answer", "tools", "context", "flagged"),
    [
        ("订单 MK8Q2D 是 12 月 1 日 08:15 预订的，目前仍在 24 小时内，可以免费取消。", BOOKED,
         ["当前时间：2026-12-02 10:00"], True),
        ("订单 MK8Q2D 是 12 月 1 日 08:15 预订的，目前仍在 48 小时内，可以免费取消。", BOOKED,
         ["当前时间：2026-12-02 10:00"], False),
        ("It was delivered on October 28, so you're still within the 30-day return window.", DELIVERED,
         ["Current date: 2026-12-02."], True),
        ("It was delivered on October 28, so you're still within the 30-day return window.", DELIVERED,
         ["Current date: 2026-11-20."], False),
        ("It was delivered on October 28, so it is no longer within the 30-day return window.", DELIVERED,
         ["Current date: 2026-12-02."], False),
        # two moments in the claim and no current time: the span between them
        ("You returned the car at 6:12 pm against a due time of 5:00 pm, within the 29-minute grace period.",
         RENTAL, [], True),
        ("You returned the car at 6:12 pm against a due time of 5:00 pm, within the 90-minute grace period.",
         RENTAL, [], False),
        # the moment of an earlier sentence, and a window said to be past
        ("您的快递 11月5日 从深圳寄出。目前距离寄出已超过 30 天，可以申请理赔。", SHIPPED, TODAY, True),
        ("您的快递 11月5日 从深圳寄出。目前距离寄出已超过 20 天，可以申请理赔。", SHIPPED, TODAY, False),
        # no current time and one moment: nothing to measure
        ("It was delivered on October 28, so you're still within the 30-day return window.", DELIVERED, [], False),
        # a moment still ahead is no moment the time since is measured from: the flight, not the booking
        ("Since it was booked less than 24 hours ago, you'll get a full refund for the December 19 flight.",
         [call("get_reservation", {"pnr": "MK8Q2D", "flight_date": "2026-12-19"})], ["当前时间：2026-12-02 11:00"],
         False),
        ("订单 MK8Q2D（12月20日 上海—北京）是 12 月 1 日 08:15 预订的，目前仍在 24 小时内，可以免费取消。",
         [call("get_reservation", {"pnr": "MK8Q2D", "flight_date": "2026-12-20", "booked_at": "2026-12-01T08:15:00"})],
         ["当前时间：2026-12-02 10:00"], True),
    ],
)
def test_a_window_the_moments_do_not_fit_is_contradicted(answer, tools, context, flagged):
    report = CHECKER.check(answer, tools, context)
    windows = [f for c in report.claims for f in c.facts if f.code == "time_window"]
    assert bool(windows) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("You are still WITHIN THE 24-HOURS window.", ("within", 86400.0)),
        ("inside the last 1.5 hrs", ("within", 5400.0)),
        ("30 天以内可以退", ("within", 2592000.0)),
        ("距现在不到 3 个小时", ("within", 10800.0)),
        ("it is not within 7 days", ("beyond", 604800.0)),
        ("more than 2 weeks ago", ("beyond", 1209600.0)),
        ("已超过 12 个小时", ("beyond", 43200.0)),
        ("within the window, 24 hours or so", None),  # a number and unit, but no window said of it
        ("within reach", None),  # no number and unit: the patterns are not tried
    ],
)
def test_the_quick_look_for_a_number_and_unit_keeps_every_window(text, window):
    from factcheck.grounding.windows import _window

    found = _window(text)
    assert (found and found[:2]) == window


ORDERS = [call("get_order_details", {"order_id": "#W1", "delivered_at": "2026-11-07T09:30:00Z"}),
          call("get_order_details", {"order_id": "#W2", "delivered_at": "2026-10-14T09:30:00Z"})]
NOW = ["Current time: 2026-11-23 09:30 UTC."]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # "still inside" speaks of the record in view: the answer's last moment before it, not any earlier one
        ("#W1 was delivered on Nov 7. #W2 was delivered on Oct 14. This one is also still inside the 30-day return "
         "window.", True),
        ("#W2 was delivered on Oct 14. #W1 was delivered on Nov 7. This one is also still inside the 30-day return "
         "window.", False),
        # beside a policy's words too
        ("#W2 was delivered on Oct 14. Items fall under the 30-day policy, and you're still within the 30-day window.",
         True),
        # "ago", 距今 measure the time since the record in view too
        ("#W1 was delivered on Nov 7, more than 30 days ago, so it can no longer be returned.", True),
        ("#W2 was delivered on Oct 14, more than 30 days ago, so it can no longer be returned.", False),
        ("#W1 于 11月7日 送达，距今已超过 30 天，不能退货了。", True),
        # a window with no moment of its own and no words of the time since: another record's moment is not its
        ("#W1 was delivered on Nov 7. #W3 is past the 30-day return window, so it can't be returned.", False),
        ("#W1 于 11月7日 送达，可以退货。#W3 已超过 30 天，无法退货。", False),
    ],
)
def test_a_window_still_said_of_the_record_in_view_is_measured_from_its_moment(answer, flagged):
    report = CHECKER.check(answer, ORDERS, NOW)
    windows = [f for c in report.claims for f in c.facts if f.code == "time_window"]
    assert bool(windows) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


SEARCH = [call("search_rental_options", {"server_time": "2026-03-07T16:32:00+08:00", "options": [
    {"option_id": "RC-1", "free_cancellation_until": "2026-03-07T11:32:00+08:00"},
    {"option_id": "RC-2", "free_cancellation_until": "2026-03-14T10:00:00+08:00"}]})]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("RC-1: you can still cancel it free of charge until 03/07 11:32.", True),
        ("RC-1：仍可在 3月7日 11:32 前免费取消。", True),
        ("RC-1: free cancellation ended at 11:32 on 03/07, so you can no longer cancel for free.", False),
        ("RC-2: you can still cancel it free of charge until 03/14 10:00.", False),
    ],
)
def test_a_deadline_said_to_be_still_ahead_is_measured_against_the_current_time(answer, flagged):
    report = CHECKER.check(answer, SEARCH)
    windows = [f for c in report.claims for f in c.facts if f.code == "time_window"]
    assert bool(windows) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


POLICY = [call("get_policy", {"policy_id": "TI-5519820", "purchased_at": "2027-03-01T14:00:00Z", "cooling_off_days": 14,
                              "now": "2027-03-20T09:00:00Z"})]
REFUND = [call("get_refund", {"order_id": "E553019", "applied_at": "2026-03-07T09:12+08:00", "eta_days": 7,
                              "now": "2026-03-09T10:00+08:00"})]


@pytest.mark.parametrize(
    ("answer", "tools", "text", "backed"),
    [
        # the days from the claim's date to the current time a tool gives
        ("You bought policy TI-5519820 on March 1, which is 19 days ago.", POLICY, "19", True),
        ("You bought policy TI-5519820 on March 1, which is 18 days ago.", POLICY, "18", False),
        # from an earlier claim's date: "现在才过去 2 天"
        ("订单 E553019 于 3月7日 申请退票。现在才过去 2 天，仍在正常范围内。", REFUND, "2", True),
        ("订单 E553019 于 3月7日 申请退票。现在才过去 5 天，仍在正常范围内。", REFUND, "5", False),
    ],
)
def test_days_to_now(answer: str, tools: list, text: str, backed: bool) -> None:
    [fact] = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == text]
    assert (fact.verdict.value == "supported") == backed, fact


def test_years_of_age_are_no_window() -> None:
    """年满 70 周岁 is an age, not a window of 70 weeks."""
    tools = [call("get_policy", {"insured": "林国栋", "paused_since": "2025-06-15",
                                 "now": "2025-07-01T00:00:00+08:00"})]
    report = CHECKER.check("保障从 6 月 15 日起暂停，原因是年满 70 周岁需要补充健康告知。", tools)
    assert all(f.code != "time_window" for c in report.claims for f in c.facts)


RETURNS = [call("get_order_details", {"order_id": "#W1180677", "delivered_at": "2026-11-21T19:02:00Z"}),
          call("get_order_details", {"order_id": "#W8363304", "delivered_at": "2026-10-23T12:00:00Z"})]
POLICY = "Policy: delivered items may be returned within 30 days of delivery."


@pytest.mark.parametrize(
    ("answer", "context", "verdict"),
    [
        # the end of a window the context gives, after a date the claim backs: derived
        ("#W1180677: delivered Nov 21, returnable until Dec 21.", [POLICY, "Current time: 2026-12-03"], "supported"),
        ("#W1180677 已于 11 月 21 日签收，可退货至 12 月 21 日。", [POLICY, "当前时间：2026-12-03"], "supported"),
        # a day off the window: no tool or window gives it
        ("#W1180677: delivered Nov 21, returnable until Dec 22.", [POLICY, "Current time: 2026-12-03"], "unsupported"),
        # said to be still open when now is past its end
        ("#W8363304: delivered Oct 23, still returnable until Nov 22.", [POLICY, "Current time: 2026-12-03"],
         "contradicted"),
        ("#W8363304: delivered Oct 23, the window closed on Nov 22.", [POLICY, "Current time: 2026-12-03"],
         "supported"),
        # no window in the context: nothing to add
        ("#W1180677: delivered Nov 21, returnable until Dec 21.", ["Current time: 2026-12-03"], "unsupported"),
    ],
)
def test_the_end_of_a_window_the_context_gives(answer: str, context: list[str], verdict: str) -> None:
    dates = [f for c in CHECKER.check(answer, RETURNS, context).claims for f in c.facts if f.kind.value == "date"]
    assert dates[-1].verdict.value == verdict, dates[-1].reason


DEPARTURE = [call("get_ticket", {"ticket_no": "E1", "departs_at": "2026-12-04T07:40:00",
                                  "booked_at": "2026-12-01T09:00:00"})]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # time already passed since the record's moment, said wrong
        ("车票是 12 月 1 日 09:00 订的，现在仍在 24 小时内，可以免费退。", True),
        # no time passed: a rule before an event, a condition, something ahead
        ("注意 12 月 4 日 07:40 发车前 2 小时内就不能退了。", False),
        ("If you cancel the 07:40 departure within 2 hours of it, there is no refund.", False),
        ("退款预计 24 小时内到账，车票 12 月 4 日 07:40 发车。", False),
    ],
)
def test_a_window_that_measures_no_time_passed_is_not_measured(answer: str, flagged: bool) -> None:
    report = CHECKER.check(answer, DEPARTURE, ["当前时间：2026-12-03 14:10"])
    assert any(f.code == "time_window" for c in report.claims for f in c.facts) is flagged


CONFIRM = [call("request_confirmation", {"request_id": "AWD-118604", "submitted_at": "2025-11-07"})]
ONE_DAY = [call("get_booking", {"pnr": "K8M2QF", "booked_at": "2026-12-01"})]


@pytest.mark.parametrize(
    ("answer", "tools", "context", "flagged"),
    [
        # something ahead or usual: no time since is measured
        ("申请号 AWD-118604 于 11 月 7 日提交，酒店会在 48 小时内回复。", CONFIRM, ["当前时间：2025-11-20 09:00"],
         False),
        ("Request AWD-118604 went in on November 7, and hotels usually reply within 48 hours.", CONFIRM,
         ["Current time: 2025-11-20 09:00"], False),
        ("Request AWD-118604 went in on November 7, and hotels reply within 48 hours.", CONFIRM,
         ["Current time: 2025-11-20 09:00"], True),
        # a moment known to the day only may lie anywhere in it: a day's give either way
        ("K8M2QF was booked on December 1, so it is still within 24 hours.", ONE_DAY,
         ["Current time: 2026-12-02 23:00"], False),
        ("K8M2QF was booked on December 1, so it is still within 24 hours.", ONE_DAY,
         ["Current time: 2026-12-03 08:00"], True),
        ("K8M2QF was booked on December 1, more than 24 hours ago.", ONE_DAY, ["Current date: 2026-12-02"], False),
        # 未满 / 不满 N 天 is inside the window, not past it
        ("K8M2QF 12 月 1 日预订，至今未满 3 天，可以免费改期。", ONE_DAY, ["当前时间：2026-12-02 10:00"], False),
        ("K8M2QF 12 月 1 日预订，至今未满 3 天，可以免费改期。", ONE_DAY, ["当前时间：2026-12-09 10:00"], True),
    ],
)
def test_a_window_said_of_what_is_ahead_or_known_to_the_day(answer, tools, context, flagged):
    report = CHECKER.check(answer, tools, context)
    assert any(f.code == "time_window" for c in report.claims for f in c.facts) == flagged
