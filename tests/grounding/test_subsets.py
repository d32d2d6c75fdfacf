"""Totals over the items of a list that hold the status a claim names, and codes compared letter case and all."""

import pytest

from factcheck import FactChecker, Verdict

CHECKER = FactChecker()
S, U, C = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED

BOOKING = {
    "booking_id": "GB-1942", "nights": 2, "currency": "CNY",
    "rooms": [
        {"room_id": "RM-1", "guest": "马骁", "nightly_rate": 688, "status": "confirmed"},
        {"room_id": "RM-2", "guest": "陈静", "nightly_rate": 798, "status": "waitlisted"},
        {"room_id": "RM-3", "guest": "徐雪", "nightly_rate": 728, "status": "confirmed"},
    ],
    "payment": {"deposit_paid": 800},
}
CLAIMS = {"claims": [
    {"claim_id": "EXP-1", "amount": 770.02, "status": "approved"},
    {"claim_id": "EXP-2", "amount": 1731.02, "status": "approved"},
    {"claim_id": "EXP-3", "amount": 751.28, "status": "rejected"},
], "page": 1}
REPORT = {"report_id": "ER-788", "items": [  # amounts written as text, as some tools do
    {"line": 1, "amount": "119.80", "status": "rejected"},
    {"line": 2, "amount": "2224.35", "status": "approved"},
    {"line": 3, "amount": "1477.80", "status": "approved"},
]}


def amounts(answer: str, output: dict) -> list[tuple[str, Verdict, str]]:
    report = CHECKER.check(answer, [{"name": "lookup", "args": {}, "output": output, "status": "ok"}])
    return [(f.text, f.verdict, f.reason) for c in report.claims for f in c.facts
            if f.kind.value == "number" and f.unit in ("CNY", "USD")]


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # (688 + 728) × 2 nights: the confirmed rooms' nightly rates are one night's, the stay is two
        ("已确认房间总价 ¥2,832.00。", BOOKING, S),
        ("Total for the confirmed rooms: $2,832.00.", BOOKING, S),
        ("已确认房间总价 ¥1,416.00。", BOOKING, C),  # one night's price given as the stay's, though 688 + 728
        ("已确认房间总价 ¥4,428.00。", BOOKING, C),  # every room, the waitlisted one too
        ("已确认 2 间，候补 1 间，总价 ¥2,832.00。", BOOKING, S),  # the part that adds up backs it
        ("已确认 2 间，候补 1 间，总价 ¥1,416.00。", BOOKING, S),  # two statuses: no one reading (688 + 728)
        ("已批准 2 笔，合计 ¥2,501.04。", CLAIMS, S),  # 770.02 + 1731.02
        ("The approved claims come to $2,501.04.", CLAIMS, S),
        ("已批准 2 笔，合计 ¥3,252.32。", CLAIMS, C),  # the rejected claim added in
        ("报销单 ER-788 已批准 2 项，可报销金额 ¥3,702.15。", REPORT, S),
        ("报销单 ER-788 已批准 2 项，合计 ¥3,821.95。", REPORT, C),  # the rejected line added in
    ],
)
def test_a_total_beside_a_status_is_the_sum_over_the_items_of_that_status(answer, output, expected) -> None:
    text, verdict, reason = amounts(answer, output)[0]
    assert verdict == expected, (text, reason)
    if expected == C:
        assert "summed over the 2 items with status agreeing" in reason


def test_a_subset_total_shows_its_computation() -> None:
    (_, _, reason), = amounts("已确认房间总价 ¥2,832.00。", BOOKING)
    assert reason == ("number equals nightly_rate summed over the 2 items with status agreeing with '已确认' of rooms"
                      " = 1416 × 2 nights = 2832")


@pytest.mark.parametrize(
    ("answer", "password", "expected"),
    [
        ("您的新密码是：AB3#FG6&KL9@。", "AB3#FG6&KL9@", S),
        ("您的新密码是：aB3#fG6&kL9@。", "AB3#FG6&KL9@", C),  # a password is another with its letters' case changed
        ("Your new password is aB3#fG7&kL9!", "aB3#fG7&kL9!", S),
        ("Your new password is aB3#fG7&kL9!", "aB3#fG7&kL9", S),  # the sentence's own "!" after it
        ("Your new password is aB3#fG6&kL9X.", "AB3#FG6&KL9@", U),
    ],
)
def test_a_code_is_compared_letter_case_and_all(answer: str, password: str, expected: Verdict) -> None:
    report = CHECKER.check(answer, [{"name": "generate_password", "args": {"length": 12},
                                     "output": {"password": password}, "status": "ok"}])
    code = next(f for c in report.claims for f in c.facts if f.kind.value == "identifier")
    assert code.verdict == expected, code.reason
    if expected == C:
        assert report.flagged and f"'{password}'" in code.reason


def test_a_status_that_only_shares_a_polarity_leaves_no_reading_to_recompute() -> None:
    orders = {"orders": [{"id": "#W1", "total": 100.5, "status": "delivered"},
                         {"id": "#W2", "total": 50, "status": "cancelled"},
                         {"id": "#W3", "total": 20, "status": "processed"}]}
    payments = {"payments": [{"amount": 533}, {"amount": 1671}]}
    report = CHECKER.check("Total paid: $2,204 (gift card $533 and $1,671 by card).", [
        {"name": "get_orders", "args": {}, "output": orders, "status": "ok"},
        {"name": "get_payments", "args": {}, "output": payments, "status": "ok"}])
    total = next(f for c in report.claims for f in c.facts if f.text == "$2,204")
    assert total.verdict == S, total.reason  # 533 + 1671; "paid" says nothing of the `processed` order
