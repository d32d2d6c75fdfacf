"""A write that went through only in part, reported as done for all."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))


def call(name: str, output, status: str = "ok") -> dict:
    return {"name": name, "args": {}, "output": output, "status": status}


BOOKING = call("get_booking", {"pnr": "Z3RT9P", "passengers": [
    {"id": "P1", "name": "Daniel Okafor"}, {"id": "P2", "name": "Grace Okafor"}, {"id": "P3", "name": "Ada Okafor"}]})
SEATS = call("assign_seats", {"result": "partial", "assigned": {"P1": "30D", "P2": "30E"},
                              "failed": [{"pax": "P3", "name": "Ada Okafor", "seat": "30F", "reason": "SEAT_BLOCKED"}],
                              "charged": {"amount": 70.0, "currency": "GBP"}})
PICKUP = call("schedule_pickup", {"confirmation": "PRG-7F2209", "status": "部分成功",
                                  "scheduled": ["SO-4401", "SO-4402"],
                                  "rejected": [{"order": "SO-4409", "reason": "缺少商业发票"}]})
REBOOKED = call("rebook_segment", {"result": "PARTIAL", "confirmed": [{"name": "Laura Mendes", "seat": "27E"}],
                                   "waitlisted": [{"name": "Tom Mendes", "waitlist_position": 3}]})
WHOLE = call("assign_seats", {"result": "success", "assigned": {"P1": "30D", "P2": "30E", "P3": "30F"}})


def flags(answer: str, tools: list) -> list[str]:
    return [f.text for c in CHECKER.check(answer, tools).claims for f in c.facts
            if f.verdict == Verdict.CONTRADICTED and f.code == "record_state"]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # done for all, nothing said of what failed: the first claim of all is contradicted by the write's status
        ("All three of you are seated together on BA112. Charged £70.00.", [BOOKING, SEATS], ["All three"]),
        # each claim of all is (the first only, before)
        ("All set! All three of you are seated together on BA112.", [BOOKING, SEATS], ["All set", "All three"]),
        ("搞定！3 个订单已全部预约好 FedEx 上门取件，确认号 PRG-7F2209。", [PICKUP], ["全部"]),
        # no claim of all: the first action said done that a tool backs (the charge; no booking tool ran)
        ("I've booked your seats on BA112, confirmation attached. Charged £70.00.", [BOOKING, SEATS],
         ["Charged £70.00."]),
        # a member the write did not get through, said done
        # (and, with no claim of all, the first claim that says a state done)
        ("Tom Mendes: confirmed as well, seated near Laura.", [REBOOKED],
         ["Tom Mendes: confirmed as well, seated near Laura.", "confirmed"]),
        # the answer tells of the part that failed
        ("Daniel and Grace are seated (30D, 30E), but Ada doesn't have a seat yet: 30F is blocked.",
         [BOOKING, SEATS], []),
        ("Seats 30D and 30E are confirmed; 30F could not be assigned.", [BOOKING, SEATS], []),
        ("SO-4401、SO-4402 已预约好；SO-4409 未能预约，缺少商业发票。", [PICKUP], []),
        ("Two of the three seats went through; Ada's failed.", [BOOKING, SEATS], []),
        # the write went through for all
        ("All three of you are seated together on BA112.", [BOOKING, WHOLE], []),
    ],
)
def test_a_partial_write_said_done_for_all(answer: str, tools: list, expected: list[str]) -> None:
    assert flags(answer, tools) == expected


def test_the_flag_says_which_member_failed() -> None:
    report = CHECKER.check("All set! All three of you are seated together on BA112.", [BOOKING, SEATS])
    fact = next(f for c in report.claims for f in c.facts if f.code == "record_state")
    assert "assign_seats says result 'partial'" in fact.reason and "Ada Okafor" in fact.reason
    assert fact.evidence and fact.evidence[0].path == "result"


REFUNDS = call("refund_tickets", {"results": [
    {"ticket_id": "T1", "passenger": "王芳", "status": "refunded", "refund_amount": 521.55},
    {"ticket_id": "T2", "passenger": "陈磊", "status": "failed", "message": "该车票已改签"}]})
CANCELLED = call("cancel_items", {"cancelled": [{"item": "竹制砧板", "refund": 128.0}],
                                  "failed": [{"item": "硅胶锅铲套装", "reason": "Seller has already packed this item"}],
                                  "refund_total": 128.0})
ALL_REFUNDED = call("refund_tickets", {"results": [
    {"ticket_id": "T1", "status": "refunded"}, {"ticket_id": "T2", "status": "refunded"}]})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # no status says "partial", but the write's own members went both ways: a claim of all is contradicted
        ("已为您办理退票，两张车票均已退票成功。", [REFUNDS], ["均"]),
        ("Both items are cancelled and ¥128.00 is on its way back.", [CANCELLED], ["Both"]),
        # a part said ("2 张里退成功了 1 张", "1 of the 2"), or no claim of all: not read
        ("2 张里退成功了 1 张：王芳 521.55 元。", [REFUNDS], []),
        ("I cancelled 1 of the 2 items; ¥128.00 is on its way back.", [CANCELLED], []),
        ("王芳的车票已退票成功，退款 521.55 元。", [REFUNDS], []),
        # 都 of 首都 (a capital) or 成都 (a city) is no word of all
        ("上海虹桥→北京首都的航班取消了，王芳的车票已退票成功。", [REFUNDS], []),
        # every member went through
        ("两张车票均已退票成功。", [ALL_REFUNDED], []),
    ],
)
def test_a_write_whose_members_went_both_ways_said_done_for_all(answer: str, tools: list, expected: list) -> None:
    assert [f.text for c in CHECKER.check(answer, tools).claims for f in c.facts if f.verdict == Verdict.CONTRADICTED
            and "the answer says nothing failed" in (f.reason or "")] == expected
