"""A count of the records in a state, recounted over the list whose status fields mix states."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
COURSES = {"name": "list_my_courses", "args": {}, "status": "ok", "output": {"courses": [
    {"id": "C101", "status": "completed"}, {"id": "C214", "status": "completed"},
    {"id": "C330", "status": "in_progress"}, {"id": "C402", "status": "completed"},
    {"id": "C515", "status": "cancelled"}, {"id": "C608", "status": "completed"}]}}
ORDERS = {"name": "list_orders", "args": {}, "status": "ok", "output": [
    {"order_id": "#W1", "status": "pending"}, {"order_id": "#W2", "status": "delivered"},
    {"order_id": "#W3", "status": "pending"}]}
ALL_DONE = {"name": "list_my_courses", "args": {}, "status": "ok", "output": {"courses": [
    {"id": "C101", "status": "cancelled"}, {"id": "C214", "status": "cancelled"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        ("您一共报过 6 门课，其中已取消 2 门。", [COURSES], "2", Verdict.CONTRADICTED),
        ("您一共报过 6 门课，其中已取消 1 门。", [COURSES], "1", Verdict.SUPPORTED),
        ("You have 1 pending order.", [ORDERS], "1", Verdict.CONTRADICTED),
        ("You have 2 pending orders.", [ORDERS], "2", Verdict.SUPPORTED),
        # no list mixes the state: the count is no condition's
        ("您已取消 2 门课。", [ALL_DONE], "2", None),
        # the count stands far from the state word, in another clause
        ("您一共报过 6 门课，其中 1 门已取消。", [COURSES], "6", Verdict.SUPPORTED),
        # a time window counts too (not read); a number before 号 is a room's, no count
        ("In the last 7 days you have 1 pending order.", [ORDERS], "1", None),
        ("3号订单还在 pending。", [ORDERS], "3", None),
        ("1 of 3 orders pending so far.", [ORDERS], "3", None),
        ("In the last 7 days: 2 pending orders.", [ORDERS], "2", None),
    ],
)
def test_a_count_beside_a_state_is_recounted(answer: str, tools: list, said: str, expected: Verdict | None) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    if expected is None:  # not recounted: whatever else backs it
        assert "entries of" not in fact.reason and fact.code != "recomputed", fact
        return
    assert fact.verdict == expected, fact
    if expected == Verdict.CONTRADICTED:
        assert fact.code == "recomputed" and "entries of" in fact.reason, fact.reason
