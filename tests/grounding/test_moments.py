"""A date no tool gives, one digit off a tool's date: the date misread, unless it is worked out or a range's bound."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
SHIPMENT = {"name": "track_shipment", "args": {"tracking": "SF1"}, "status": "ok",
            "output": {"tracking": "SF1", "picked_up": "2024-06-08", "estimated_delivery": "2024-06-14"}}
WARRANTY = {"name": "get_warranty", "args": {"serial": "AP-1"}, "status": "ok",
            "output": {"serial": "AP-1", "purchase_date": "2022-06-18", "extended_end": "2026-06-17"}}
TRANSFER = {"name": "get_transfer", "args": {"id": "TR-1"}, "status": "ok",
            "output": {"id": "TR-1", "submitted_at": "2024-06-11 15:02:37", "amount": 5000}}
INVOICE = {"name": "get_invoice", "args": {"id": "INV-1"}, "status": "ok",
           "output": {"id": "INV-1", "transaction_date": "2026-11-05", "amount": 38.4}}


@pytest.mark.parametrize(
    ("answer", "tools", "context", "near"),
    [
        # misread: one digit off the record's date, written with its month or its year
        ("预计送达：6 月 12 日。", [SHIPMENT], [], "2024-06-14"),
        ("Your extended warranty runs until 2025年6月17日.", [WARRANTY], [], None),  # "until": a range's bound
        ("您的延保到期日是 2025年6月17日。", [WARRANTY], [], "2026-06-17"),
        # not read: a fraction-like date, a range's bound, one worked out from a date and a number of days
        ("It arrives 6/12.", [SHIPMENT], [], None),
        ("Your parcels since June 12 are listed below.", [SHIPMENT], [], None),
        ("It arrives within 4 days of pickup, on June 12.", [SHIPMENT], [], None),
        ("The last day to return it is June 24.", [SHIPMENT], ["Returns are accepted within 10 days of delivery."],
         None),
        ("The last day to return it is June 24.", [SHIPMENT], [], "2024-06-14"),
        ("Nov 5 purchase: $38.40, due Dec 5.", [INVOICE], [], None),  # a month later
        # business days where the claim speaks of them: 1–5 business days from Tuesday 11 June is the 18th
        ("银行受理后 1–5 个工作日到账，最晚 6 月 18 日。", [TRANSFER], [], None),
        ("最晚 6 月 18 日到账。", [TRANSFER], [], "2024-06-11 15:02:37"),
        # a week where the claim speaks of a weekly cycle; a year is no move (a warranty's year misread)
        ("他每周一放号，下一次放号是 6 月 18 日。", [TRANSFER], [], None),
        ("延保到期日是 2027年6月17日。", [WARRANTY], [], "2026-06-17"),
    ],
)
def test_a_date_one_digit_off_a_tools_date_is_that_date_misread(answer, tools, context, near):
    report = CHECKER.check(answer, tools, context)
    dates = [f for c in report.claims for f in c.facts if f.kind.value == "date" and f.code == "not_found"]
    assert dates, [(f.text, f.code) for c in report.claims for f in c.facts]
    found = [e.text for f in dates for e in f.evidence]
    assert (found[0] if found else None) == near, [(f.text, f.reason) for f in dates]
    if near is not None:
        assert dates[0].strength == "near" and "one digit apart" in dates[0].reason
