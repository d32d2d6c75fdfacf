"""A date said with a time that a tool gives only as a moment of another day: the day moved, the time kept."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
EVENT = {"name": "get_event", "args": {"event_id": "EV-1"}, "status": "ok",
         "output": {"event_id": "EV-1", "old_time": "2025-09-13 19:30", "new_time": "2025-10-18 19:30"}}
SLOTS = {"name": "find_slots", "args": {}, "status": "ok",
         "output": {"slots": [{"start": "2025-02-13T15:30:00", "doctor": "Dr. Amara Ncube"}]}}
DAILY = {"name": "list_departures", "args": {}, "status": "ok",
         "output": {"departures": [{"at": f"2025-03-{d:02d} 08:00"} for d in (10, 11, 12)]}}
DELIVERED = {"name": "list_orders", "args": {}, "status": "ok",
             "output": {"orders": [{"order_id": "GR-61290", "delivered_at": "2025-08-13T10:40:00Z"}]}}
STAY = {"name": "get_booking", "args": {}, "status": "ok", "output": {"check_in": "2025-10-03 14:00"}}
WINDOW = "Policy: missing-item claims must be submitted within 48 hours of the delivered_at time."


def verdict(answer: str, tools: list, said: str, context: list | None = None) -> Verdict:
    fact = next(f for c in CHECKER.check(answer, tools, context or []).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "context", "expected"),
    [
        # the moment's time with another day
        ("- 新时间：2025年10月19日（周六）19:30", [EVENT], "2025年10月19日", None, Verdict.CONTRADICTED),
        ("Earliest opening: Friday, Feb 14 at 3:30 pm with Dr. Amara Ncube.", [SLOTS], "Feb 14", None,
         Verdict.CONTRADICTED),
        # the moment's own day
        ("- 新时间：2025年10月18日（周六）19:30", [EVENT], "2025年10月18日", None, Verdict.SUPPORTED),
        # a time the tools give on three days names no moment
        ("The next bus leaves Mar 13 at 08:00.", [DAILY], "Mar 13", None, Verdict.UNSUPPORTED),
        # a window worked out from the moment: the hours the context gives, or a deadline's word
        ("Window closes 15 Aug at 10:40 UTC.", [DELIVERED], "15 Aug", [WINDOW], Verdict.UNSUPPORTED),
        ("免费取消截止：10 月 2 日 14:00。", [STAY], "10 月 2 日", None, Verdict.UNSUPPORTED),
    ],
)
def test_a_date_said_with_a_moments_time(answer: str, tools: list, said: str, context: list | None,
                                         expected: Verdict) -> None:
    assert verdict(answer, tools, said, context) == expected
