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

RATES = _call("get_rates", {"options": [
    {"service": "UPS Ground", "price": 38.9, "pickup": "2025-03-14", "est_delivery": "2025-03-20"},
    {"service": "UPS 2nd Day Air", "price": 96.4, "pickup": "2025-03-17", "est_delivery": "2025-03-18"},
    {"service": "FedEx Priority Overnight", "price": 142.8, "pickup": "2025-03-16", "est_delivery": "2025-03-17"}]})


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
        # the fastest option: ranked by the options' delivery dates (lexicon `superlatives_fast`)
        ([RATES], "The fastest option is UPS 2nd Day Air at $96.40, arriving 18 March (Tuesday).", "18 March", True),
        ([RATES], "最快：FedEx Priority Overnight，142.80 美元，预计 3 月 17 日送达。", "3 月 17 日", False),
        # not by the pickup dates; not a second pick
        ([RATES], "The fastest is UPS 2nd Day Air, picked up 17 March (Monday).", "17 March", False),
        ([RATES], "The next fastest is UPS 2nd Day Air, arriving 18 March (Tuesday).", "18 March", False),
    ],
)
def test_a_date_said_to_be_the_earliest_is_reranked(run, answer, date, contradicted) -> None:
    report = CHECKER.check(answer, run)
    fact = next(f for c in report.claims for f in c.facts if f.text == date)
    assert (fact.verdict == Verdict.CONTRADICTED and fact.code == "recomputed") is contradicted, fact
    if contradicted:
        assert fact.reason.startswith("not the earliest") and fact.evidence, fact.reason


DAY_SLOTS = _call("get_lab_slots", {"date": "2024-05-21", "slots": [
    {"campus": "East", "time": "07:45", "remaining": 6},
    {"campus": "South", "time": "07:30", "remaining": 3},
    {"campus": "Riverside", "time": "07:15", "remaining": 0}]})
PICKUP = _call("list_pickup_slots", {"date": "2025-05-03", "slots": [
    {"slot_id": "S0730", "start": "07:30", "capacity": 4, "booked": 4},
    {"slot_id": "S0830", "start": "08:30", "capacity": 4, "booked": 2}]})
TABLES = _call("search_availability", {"date": "2026-03-13", "slots": [
    {"time": "18:00", "max_party": 8, "available": True},
    {"time": "19:30", "max_party": 10, "available": True}]}, {"party_size": 9})
CABINS = _call("search_direct_flight", {"date": "2025-04-11", "results": [
    {"flight_number": "HAT031", "departure": "06:10", "available_seats": {"economy": 2, "business": 4}},
    {"flight_number": "HAT077", "departure": "07:45", "available_seats": {"economy": 5, "business": 1}}]})
BARE = _call("search_trains", [{"train": "G1", "dep": "07:00", "二等座": "无"},
                               {"train": "G103", "dep": "07:20", "二等座": "有"}])
TODAY = _call("search_bus", {"date": "2026-12-31", "now": "2026-12-31T13:05:00+08:00", "schedules": [
    {"depart": "12:10", "seats_left": 8}, {"depart": "15:20", "seats_left": 15}]})
NAMED_FIELD = _call("list_stores", {"date": "2026-12-03", "stores": [
    {"store": "A", "earliest_delivery": "18:20", "open": True},
    {"store": "B", "earliest_delivery": "17:45", "open": True}]})


@pytest.mark.parametrize(
    ("run", "answer", "time", "contradicted"),
    [
        # one day's slots with places left: one that can be had comes earlier
        ([DAY_SLOTS], "明天最早能约的抽血时段是东院区 07:45。", "07:45", True),
        ([DAY_SLOTS], "The earliest slot you can book is 07:30 at the South campus.", "07:30", False),
        # capacity less booked, and the most a table takes for the search's party
        ([PICKUP], "The earliest window I could get is 8:30.", "8:30", False),
        ([TABLES], "Earliest option: 19:30 on the terrace.", "19:30", False),
        # places per cabin, or none said, or already gone today, or a field's own name: not read
        ([CABINS], "The earliest flight is HAT077 at 07:45.", "07:45", False),
        ([BARE], "有余票的最早一班是 G103，07:20 出发。", "07:20", False),
        ([TODAY], "The earliest bus you can still catch is 15:20.", "15:20", False),
        ([NAMED_FIELD], "Store A: earliest 18:20.", "18:20", False),
    ],
)
def test_a_time_said_to_be_the_earliest_is_reranked_among_one_days_slots(run, answer, time, contradicted) -> None:
    report = CHECKER.check(answer, run)
    fact = next(f for c in report.claims for f in c.facts if f.text == time)
    assert (fact.verdict == Verdict.CONTRADICTED and fact.code == "recomputed") is contradicted, fact
    if contradicted:
        assert fact.reason.startswith("not the earliest") and "07:30" in fact.reason, fact.reason


TOURS = _call("search_day_tours", {"date": "2025-10-12", "tours": [
    {"tour_id": "HS-A", "departure": "06:30", "price": 398.0, "seats_left": 0, "status": "sold_out"},
    {"tour_id": "HS-C", "departure": "06:50", "price": 420.0, "seats_left": 5, "status": "available"},
    {"tour_id": "HS-B", "departure": "07:15", "price": 358.0, "seats_left": 12, "status": "available"}]})
WINDOWS_TOMORROW = _call("get_delivery_slots", {"date": "2025-11-21", "slots": [
    {"window": "08:00-09:00", "fee": 5.99, "available": False},
    {"window": "09:00-10:00", "fee": 4.99, "available": True},
    {"window": "10:00-11:00", "fee": 3.99, "available": True}]})
DAYS = _call("list_sessions", {"sessions": [
    {"session_id": "S-1", "date": "2025-06-09", "start": "09:00", "spots_left": 0},
    {"session_id": "S-2", "date": "2025-06-09", "start": "14:00", "spots_left": 4},
    {"session_id": "S-3", "date": "2025-06-11", "start": "09:00", "spots_left": 6}]})


@pytest.mark.parametrize(
    ("run", "answer", "said", "reason"),
    [
        # the pick itself cannot be had, and an option that can comes later: the pick is no option
        ([TOURS], "最早还有位置的是 06:30 出发的黄山精华一日游。", "06:30", "tours[0] is sold_out; tours[1].departure"),
        ([WINDOWS_TOMORROW], "The earliest slot open tomorrow is 8:00–9:00 for £5.99.", "8:00",
         "slots[0] cannot be booked; slots[1].window"),
        ([DAYS], "The earliest session with space is 9 June at 09:00.", "9 June",
         "sessions[0] has 0 left for 1; sessions[1].date"),
        # the claim says why the pick cannot be had, or another option that can be had starts then
        ([TOURS], "最早的 06:30 那班已经售罄了。", "06:30", None),
        ([WINDOWS_TOMORROW], "The 8:00–9:00 slot is full; the earliest open one is 9:00–10:00.", "8:00", None),
        ([DAYS], "The earliest session with space is 9 June at 14:00.", "9 June", None),
        ([WINDOWS_TOMORROW], "The earliest slot open tomorrow is 9:00–10:00 for £4.99.", "9:00", None),
    ],
)
def test_an_earliest_pick_that_cannot_be_had(run, answer: str, said: str, reason: str | None) -> None:
    report = CHECKER.check(answer, run)
    fact = next(f for c in report.claims for f in c.facts if f.text == said)
    if reason is None:
        assert not fact.verdict.flagged, fact
    else:
        assert fact.verdict == Verdict.CONTRADICTED and fact.code == "recomputed", fact
        assert reason.split("; ")[0] in fact.reason and reason.split("; ")[1] in fact.reason, fact.reason
