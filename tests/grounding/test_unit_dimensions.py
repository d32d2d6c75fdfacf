"""A total of an amount per two units (per room per night, 每人每航段) worked out over only one of them."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
BOOKING = {"name": "get_booking", "args": {"confirmation": "4471029385"}, "status": "ok", "output": {
    "confirmation": "4471029385", "hotel": "Hotel Gracery Shinjuku", "check_in": "2025-12-24",
    "check_out": "2025-12-27", "nights": 3, "rooms": [{"type": "Standard Twin"}, {"type": "Standard Twin"}],
    "nightly_rate": {"amount": 18500, "currency": "JPY", "per": "room"}}}
SEARCH = {"name": "search_hotels", "args": {"city": "厦门", "check_in": "2025-05-01", "check_out": "2025-05-04"},
          "status": "ok", "output": {"price_unit": "每间每晚", "currency": "CNY", "nights": 3, "hotels": [
              {"hotel_id": "H3", "name": "栖海民宿", "price": 439.0, "rooms_left": 2}]}}
BAGS = {"name": "quote_extra_baggage", "args": {"pnr": "TG5XWQ", "pieces_per_pax": 1}, "status": "ok", "output": {
    "unit": "每人每航段", "price_per_piece": {"amount": 420, "currency": "CNY"}, "pax": 2, "segments": 2}}
ROOMS = {"name": "search_hotels", "args": {"city": "Sydney", "check_in": "2025-10-09", "check_out": "2025-10-12",
                                         "rooms": 2}, "status": "ok", "output": {"nights": 3, "results": [
    {"name": "Deluxe King", "nightly_rate": 245.0}]}}
BREAKFAST = {"name": "get_hotel", "args": {"hotel": "H1"}, "status": "ok", "output": {
    "guests": 2, "breakfast": "不含早，早餐 ¥198/人/天"}}
SEGMENT_BAGS = {"name": "get_ancillary_prices", "args": {"pnr": "K7QM2D"}, "status": "ok", "output": {
    "currency": "GBP", "price_online_per_bag_per_segment": 49.0}}
LEGS = {"name": "get_booking", "args": {"pnr": "K7QM2D"}, "status": "ok", "output": {
    "pnr": "K7QM2D", "passengers": [{"name": n} for n in ("Owen", "Sara", "Nell", "Jamie", "Ruth")],
    "segments": [{"flight": "FI451"}, {"flight": "FI450"}]}}
EXTRA_GUEST = {"name": "get_room_rules", "args": {"room": "family"}, "status": "ok", "output": {
    "max_guests": 4, "extra_guest_fee": 150, "currency": "CNY"}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "contradicted"),
    [
        # the amount is per room per night; the total counts one of the two
        ("- 房价：JPY 18,500 / 晚 / 间\n- 总价：JPY 55,500", [BOOKING], "JPY 55,500", True),
        ("最便宜的是栖海民宿，两间房住三晚总共 ¥1,317。", [SEARCH], "¥1,317", True),
        ("你们两位各加一件，往返一共需要 840 元。", [BAGS], "840 元", True),
        # a nightly rate of a search for 2 rooms; the tool's own words after the amount; a bag for each person
        ("Deluxe King: AUD 245 per night, AUD 735 total.", [ROOMS], "AUD 735", True),
        ("早餐 ¥198/人，两人 3 天早餐共 ¥396。", [BREAKFAST], "¥396", True),
        ("One bag for each of the 5 travellers on both flights comes to £245.00 in total.", [LEGS, SEGMENT_BAGS],
         "£245.00", True),
        # controls: every count taken; the rooms left are no count of the rooms taken; a count of one; a rate said
        # per unit; a threshold beside the count the total is for
        ("- 房价：JPY 18,500 / 晚 / 间\n- 总价：JPY 111,000", [BOOKING], "JPY 111,000", False),
        ("最便宜的是栖海民宿，两间房住三晚总共 ¥2,634。", [SEARCH], "¥2,634", False),
        ("栖海民宿 ¥439/晚，剩 2 间，3 晚共 ¥1,317。", [SEARCH], "¥1,317", False),
        ("你们两位各加一件，单程一共需要 840 元。", [{**BAGS, "output": {**BAGS["output"], "segments": 1}}], "840 元",
         False),
        ("Deluxe King: AUD 245 per night, AUD 1,470 total.", [ROOMS], "AUD 1,470", False),
        ("早餐 ¥198/人，两人 3 天早餐共 ¥1,188。", [BREAKFAST], "¥1,188", False),
        ("One bag for each of the 5 travellers on both flights comes to £490.00 in total.", [LEGS, SEGMENT_BAGS],
         "£490.00", False),
        ("超过 4 人的部分每人每晚加收 150 元，您住 2 晚，加 1 人共 300 元。", [EXTRA_GUEST], "300 元", False),
    ],
)
def test_a_total_over_one_of_two_units(answer: str, tools: list, said: str, contradicted: bool) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert (fact.verdict == Verdict.CONTRADICTED) is contradicted, (fact.verdict, fact.code, fact.reason)
    if contradicted:
        assert fact.code == "recomputed" and fact.evidence, fact


def test_the_recomputed_total_says_every_count() -> None:
    report = FactChecker().check("- 房价：JPY 18,500 / 晚 / 间\n- 总价：JPY 55,500", [BOOKING])
    assert report.flagged and "3 nights × 2 rooms × 18500 = 111000" in report.flagged[0].reason
