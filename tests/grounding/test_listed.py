"""Counts of what the answer goes on to enumerate, in a list or in prose."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
PROFILE = [{"name": "get_user_details", "args": {"user_id": "u1"}, "status": "ok",
            "output": {"user_id": "u1", "name": "Ann Lee", "pending": "#W1 #W2"}}]
ORDERS = [{"name": "get_user_details", "args": {"user_id": "u1"}, "status": "ok",
           "output": {"user_id": "u1", "orders": ["#W1", "#W2", "#W3", "#W4"]}}]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # a claim that opens a list counts the list's items
        ("You have three pending orders:\n\n1. **#W1**\n2. **#W2**\n", PROFILE, Verdict.CONTRADICTED),
        ("You have two pending orders:\n- #W1\n- #W2", PROFILE, Verdict.SUPPORTED),
        # prose that goes on "the first … the second …"
        ("I found 3 pending orders. The first one is #W1. The second one is #W2.", PROFILE, Verdict.CONTRADICTED),
        ("我找到 3 个待发货订单。第一个是 #W1。第二个是 #W2。", PROFILE, Verdict.CONTRADICTED),
        ("I found 2 pending orders. The first one is #W1. The second one is #W2.", PROFILE, Verdict.SUPPORTED),
        # the last item named without its place: the enumeration's length is unknown
        ("I found 3 pending orders. The first one is #W1. The second one is #W2. Finally, #W3.", PROFILE,
         Verdict.SUPPORTED),
        # the records hold that many: the answer may list only those it speaks of
        ("You have 4 orders:\n- #W1\n- #W2", ORDERS, Verdict.SUPPORTED),
    ],
)
def test_a_count_is_what_the_answer_enumerates_after_it(answer, tools, expected) -> None:
    report = CHECKER.check(answer, tools)
    counts = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.unit]
    assert counts[0].verdict == expected, counts
    if expected == Verdict.CONTRADICTED:
        assert counts[0].code == "recomputed" and "2 of them right after it" in counts[0].reason


@pytest.mark.parametrize(
    "answer",
    [
        # a pack size in brackets
        "订单（速干T恤 2件装）的退款情况：\n- 退款单号：RF-1\n- 退款金额：¥156.00\n- 状态：已退款",
        # a condition of the choice, not a count of what is there
        "按 5 人、必须支持 SSO 的条件，可选的套餐：\n- TEAM_PLUS\n- ENTERPRISE",
    ],
)
def test_a_number_that_counts_nothing_listed_is_not_recounted(answer) -> None:
    report = CHECKER.check(answer, PROFILE)
    assert all(f.code != "recomputed" for c in report.claims for f in c.facts)
