"""A date said to be the earliest option, re-ranked by time over the options that can be had."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))


def _call(name: str, output, args: dict | None = None) -> dict:
    return {"name": name, "args": args or {}, "status": "ok", "output": output}


SESSIONS = _call("list_sessions", {"sessions": [
    {"session_id": "IND-1014", "date": "2025-10-14", "start": "19:00", "spots_left": 0},
    {"session_id": "IND-1015", "date": "2025-10-15", "start": "07:30", "spots_left": 3},
    {"session_id": "IND-1016", "date": "2025-10-16", "start": "18:00", "spots_left": 5}]})
SLOTS_A = _call("get_available_slots", {"provider_id": "DR-1", "slots": [
    {"slot_id": "SL-1", "start": "2025-03-12T15:40:00-05:00"},
    {"slot_id": "SL-2", "start": "2025-03-14T09:00:00-05:00"}]},
    {"provider_id": "DR-1"})
SLOTS_B = _call("get_available_slots", {"provider_id": "DR-2", "slots": [
    {"slot_id": "SL-3", "start": "2025-03-11T11:20:00-05:00"},
    {"slot_id": "SL-4", "start": "2025-03-13T08:30:00-05:00"}]},
    {"provider_id": "DR-2"})
PROVIDERS = _call("search_providers", {"providers": [{"provider_id": "DR-1", "name": "Dr. Amara Okafor"},
                                                     {"provider_id": "DR-2", "name": "Dr. Lena Hartmann"}]})
WINDOWS = _call("get_slots", {"slots": [
    {"date": "2025-06-14", "window": "08:00-10:00", "status": "available"},
    {"date": "2025-06-13", "window": "10:00-12:00", "status": "full"},
    {"date": "2025-06-13", "window": "15:00-17:00", "status": "available"}]})
QUOTES = _call("list_quotes", {"quotes": [{"quote_id": "Q-1", "earliest_start": "2026-12-13"},
                                          {"quote_id": "Q-2", "earliest_start": "2026-12-06"}]})
SAME_DAY = _call("list_slots", [{"slot_id": "S-3", "start": "2026-12-04T10:15", "status": "open"},
                                {"slot_id": "S-4", "start": "2026-12-04T08:45", "status": "open"},
                                {"slot_id": "S-1", "start": "2026-12-03T09:00", "status": "booked"}])


@pytest.mark.parametrize(
    ("run", "answer", "date", "contradicted"),
    [
        # an option that can be had comes earlier: in the same list, or in another call of the same tool
        ([SESSIONS], "The earliest induction with space is Thursday 16 October at 18:00.", "16 October", True),
        ([PROVIDERS, SLOTS_A, SLOTS_B], "The earliest opening is Wednesday, March 12 at 3:40 PM with Dr. Amara Okafor.",
         "March 12", True),
        ([WINDOWS], "The earliest opening I see is Saturday, June 14 from 8:00 to 10:00 AM.", "June 14", True),
        ([PROVIDERS, SLOTS_A, SLOTS_B], "已为您约好 3月12日 15:40 的号，这是目前能约到的最早时间。", "3月12日", True),
        # the earliest that can be had (a full or spot-less one is no option)
        ([SESSIONS], "The earliest session with space is 15 October at 07:30.", "15 October", False),
        ([WINDOWS], "The earliest opening is June 13 from 3:00 PM.", "June 13", False),
        ([PROVIDERS, SLOTS_A, SLOTS_B], "The earliest opening is March 11 at 11:20 AM with Dr. Lena Hartmann.",
         "March 11", False),
        # the claim's own time of that day, not the first entry's; a booked slot is no option
        ([SAME_DAY], "The earliest opening is Friday, December 4 at 8:45 am.", "December 4", False),
        # a choice the claim narrows: a named provider's own slots, a time of day, a scope
        ([PROVIDERS, SLOTS_A, SLOTS_B], "The earliest opening with Dr. Amara Okafor is March 12 at 3:40 PM.",
         "March 12", False),
        ([PROVIDERS, SLOTS_A, SLOTS_B], "The earliest afternoon opening is March 12 at 3:40 PM.", "March 12", False),
        # a field named "earliest" is no pick
        ([QUOTES], "Earliest start: Dec 13", "Dec 13", False),
    ],
)
def test_a_date_said_to_be_the_earliest_is_reranked(run, answer, date, contradicted) -> None:
    report = CHECKER.check(answer, run)
    fact = next(f for c in report.claims for f in c.facts if f.text == date)
    assert (fact.verdict == Verdict.CONTRADICTED and fact.code == "recomputed") is contradicted, fact
    if contradicted:
        assert fact.reason.startswith("not the earliest") and fact.evidence, fact.reason
