"""What may back a number no field states: a whole count of pieces only adds up counts, each list in full."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
MISSING = [{"name": "get_missing_items", "args": {"order_id": "SX-2204"}, "status": "ok", "output": {"missing": [
    {"name": "红富士苹果", "qty": 3, "unit_price": 3.5},
    {"name": "农夫山泉 550ml", "qty": 4, "unit_price": 2.0},
    {"name": "奥利奥饼干", "qty": 1, "unit_price": 9.9}]}}]
SHORT = [{"name": "get_short_shipment", "args": {"po": "PO-7781"}, "status": "ok", "output": {"lines": [
    {"sku": "BX-1", "qty": 6, "unit_cost": 19.9}, {"sku": "BX-2", "qty": 2, "unit_cost": 0.9}]}}]


def verdict_of(answer: str, calls: list, text: str) -> Verdict:
    return next(f.verdict for c in CHECKER.check(answer, calls).claims for f in c.facts if f.text == text)


@pytest.mark.parametrize(
    ("answer", "calls", "text", "expected"),
    [
        # two of three lines' quantities (3 + 4) are not the whole: the lines add up to 8
        ("这单一共少送了 3 种商品、共 7 件。", MISSING, "7", Verdict.UNSUPPORTED),
        ("这单一共少送了 3 种商品、共 8 件。", MISSING, "8", Verdict.SUPPORTED),
        # a quantity plus a price, rounded (6 + 0.9 = 6.9), is no count of boxes
        ("A total of 7 boxes were short.", SHORT, "7", Verdict.UNSUPPORTED),
        ("A total of 8 boxes were short.", SHORT, "8", Verdict.SUPPORTED),
        # without a whole-count cue the count may be of some of the lines: arithmetic still backs it
        ("少送的苹果和矿泉水是 7 件。", MISSING, "7", Verdict.SUPPORTED),
    ],
)
def test_a_whole_count_of_pieces_adds_up_counts_only(answer: str, calls: list, text: str, expected: Verdict) -> None:
    assert verdict_of(answer, calls, text) == expected
