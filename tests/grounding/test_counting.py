"""Counts: list lengths, items sharing a value the claim names, repeated and listed counts."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker()
S, U, C = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED

ORDERS = [
    {"order_id": "O-5501", "status": "已签收", "amount": 89.0},
    {"order_id": "O-5502", "status": "待发货", "amount": 1299.0},
    {"order_id": "O-5507", "status": "已发货", "amount": 45.5},
    {"order_id": "O-5510", "status": "待发货", "amount": 268.0},
]
COUPONS = [
    {"name": "满300减40", "status": "可用"},
    {"name": "运费券", "status": "已过期"},
    {"name": "满199减20", "status": "可用"},
]
SLOTS = {"slots": [{"time": "09:00", "available": False}, {"time": "14:00", "available": True},
                   {"time": "15:30", "available": True}]}


def count_verdict(answer: str, output) -> Verdict:
    report = CHECKER.check(answer, [{"name": "lookup", "args": {}, "output": output, "status": "ok"}])
    return next(f.verdict for c in report.claims for f in c.facts if f.kind.value == "number")


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("共有 4 笔订单。", ORDERS, S),  # the list's length
        ("有两笔还没发货。", ORDERS, S),  # 待发货 (shipping pending) agrees with "not shipped"
        ("有两笔已经发货。", ORDERS, U),  # one order has shipped
        ("有三笔还没发货。", ORDERS, U),
        ("您有两张可用的优惠券。", COUPONS, S),  # the claim holds the shared value itself
        ("您有 1 张优惠券已过期。", COUPONS, S),
        ("您有两张优惠券已过期。", COUPONS, C),  # recounted: one coupon's status is 已过期
        ("您共有 3 张优惠券。", COUPONS, S),
        ("下午还有 14:00 和 15:30 两个时段。", SLOTS, S),  # the claim lists two times
        ("下午还有 14:00 一个时段，共三个时段。", SLOTS, S),  # the slots list has three items
        ("下午还有 14:00 两个时段。", SLOTS, U),
    ],
)
def test_counts(answer: str, output, expected: Verdict) -> None:
    assert count_verdict(answer, output) == expected


def test_a_later_claim_may_repeat_a_backed_count() -> None:
    report = CHECKER.check("有两笔还没发货。两笔合计 ¥1,567.00。", [{"name": "lookup", "args": {}, "output": ORDERS,
                                                               "status": "ok"}])
    assert report.ok, report
    assert "gave before" in report.claims[1].facts[0].reason


PAYOUTS = {"payouts": [{"payee": "A", "status": "paid"}, {"payee": "B", "status": "failed"},
                       {"payee": "C", "status": "paid"}]}
INVOICES = [
    {"no": "KL-1187", "status": "paid"}, {"no": "KL-1203", "status": "open"}, {"no": "KL-1219", "status": "open"},
]


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("2 of the 3 payouts went through.", PAYOUTS, S),  # "went through" (no concept) agrees with "paid"
        ("1 of the 3 payouts went through.", PAYOUTS, U),
        ("2 of the payouts failed.", PAYOUTS, C),  # recounted: one payout's status is failed
        ("There are two unpaid invoices.", INVOICES, S),  # unpaid agrees with open (pending)
        ("2 of the invoices are paid.", INVOICES, C),  # recounted: one invoice's status is paid
        ("I see 2 payouts here.", PAYOUTS, U),  # no count noun and no "of": not a count
    ],
)
def test_counts_of_some_items(answer: str, output, expected: Verdict) -> None:
    assert count_verdict(answer, output) == expected


FLIGHTS = [{"name": "search_direct_flight", "args": {}, "status": "ok", "output": [
    {"flight_number": "HAT701", "status": "available", "available_seats": {"economy": 5}},
    {"flight_number": "HAT714", "status": "cancelled", "available_seats": {"economy": 0}},
    {"flight_number": "HAT729", "status": "available", "available_seats": {"economy": 9}}]}]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("目前有 3 班可以订：HAT701、HAT714 和 HAT729。", True),  # one of the three is cancelled
        ("目前有 2 班可以订：HAT701 和 HAT729。", False),
        ("There are 3 flights that day: HAT701, HAT714 and HAT729.", False),  # no condition: all three
        ("There are 3 available flights: HAT701, HAT714 and HAT729.", True),
    ],
)
def test_a_count_with_an_availability_condition_counts_the_items_that_meet_it(answer, flagged):
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, FLIGHTS)
    counts = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.code == "recomputed"]
    assert bool(counts) == flagged, [(f.text, f.code, f.reason) for c in report.claims for f in c.facts]


STAFF = {"staff": [{"name": "A", "ot_hours": 14}, {"name": "B", "ot_hours": 12.5}, {"name": "C", "ot_hours": 10},
                   {"name": "D", "ot_hours": 8}]}


@pytest.mark.parametrize(
    ("answer", "text", "verdict"),
    [
        ("3 people worked more than 10 hours.", "3", "contradicted"),  # 14 and 12.5: two
        ("2 people worked more than 10 hours.", "2", "supported"),
        ("2 people worked at least 10 hours.", "2", "contradicted"),  # 10 counts too: three
        ("共 4 人加班，其中超过 10 小时的有 3 人。", "3", "contradicted"),
        ("共 4 人加班，其中超过 10 小时的有 2 人。", "4", "supported"),  # the clause before the threshold's
    ],
)
def test_a_count_by_a_threshold_is_recounted_over_the_measuring_field(answer, text, verdict) -> None:
    from factcheck import check

    report = check(answer, [{"name": "get_overtime", "args": {}, "output": STAFF}])
    fact = next(f for c in report.claims for f in c.facts if f.text == text)
    assert fact.verdict.value == verdict
