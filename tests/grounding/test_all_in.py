"""A cheapest pick once fees are added, re-ranked by each option's price plus its fees."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))


def _call(name: str, output, args: dict | None = None) -> dict:
    return {"name": name, "args": args or {}, "status": "ok", "output": output}


SEATS = _call("search_seats", {"currency": "USD", "options": [
    {"section": "Balcony", "row": "K", "face_value": 62.0, "fee_per_ticket": 14.0},
    {"section": "Orchestra", "row": "R", "face_value": 66.0, "fee_per_ticket": 6.5},
    {"section": "Mezzanine", "row": "C", "face_value": 89.0, "fee_per_ticket": 9.0}]})
SHOPS = _call("search_offers", {"offers": [
    {"shop": "美的官方旗舰店", "price": 399.0, "shipping": 0.0},
    {"shop": "优品汇家电专营店", "price": 349.0, "shipping": 30.0},
    {"shop": "速达电器", "price": 365.0, "shipping": 10.0}]})
# `total` is the days' rate alone: 3 × 42 and 3 × 39; the fees come on top
CARS = _call("search_cars", {"days": 3, "options": [
    {"id": "C1", "vendor": "Alamo", "transmission": "automatic", "daily": 42.0, "total": 126.0, "fees": 28.4},
    {"id": "C2", "vendor": "Budget", "transmission": "automatic", "daily": 39.0, "total": 117.0, "fees": 41.7},
    {"id": "C3", "vendor": "Sixt", "transmission": "manual", "daily": 31.0, "total": 93.0, "fees": 29.1}]})
# `total` holds the taxes already: 5 × 55 + 82.40 and 5 × 58 + 71.35
RENTALS = _call("search_rentals", {"rental_days": 5, "quotes": [
    {"quote_id": "Q-A1", "supplier": "Alamo", "daily_rate": 58.0, "taxes_fees": 71.35, "total": 361.35},
    {"quote_id": "Q-E3", "supplier": "Enterprise", "daily_rate": 55.0, "taxes_fees": 82.4, "total": 357.4}]})
ONLINE = _call("search_offers", {"offers": [
    {"offer_id": "OF-1182", "seller": "ByteHarbor", "price": 219.99, "shipping": 0.0},
    {"offer_id": "OF-1230", "seller": "CircuitCove", "price": 216.5, "shipping": 0.0}]})
OUT_OF_STOCK = _call("check_offer_stock", {"offer_id": "OF-1230", "in_stock": False})
USED = _call("search_offers", [
    {"shop": "数码优选旗舰店", "price": 4279.0, "shipping": 15.0, "condition": "二手"},
    {"shop": "极速电子专营店", "price": 4299.0, "shipping": 20.0, "condition": "全新"},
    {"shop": "Apple 官方授权店", "price": 4399.0, "shipping": 0.0, "condition": "全新"}])


@pytest.mark.parametrize(
    ("run", "answer", "pick", "contradicted"),
    [
        # another option comes to less once its fees are added
        ([SEATS], "The cheapest block of 4 once fees are included is Balcony Row K at $76.00 a ticket.", "Balcony",
         True),
        ([SHOPS], "算上运费最便宜的是优品汇家电专营店，到手 ¥379。", "优品汇家电专营店", True),
        ([CARS], "Cheapest automatic: Budget, $117.00 for the 3 days plus $41.70 in fees, $158.70 all-in.", "Budget",
         True),
        # the pick is the cheapest with its fees
        ([SEATS], "The cheapest once fees are included is Orchestra Row R at $72.50 a ticket.", "Orchestra", False),
        ([SHOPS], "算上运费最便宜的是速达电器，到手 ¥375。", "速达电器", False),
        # a total that holds the fees already is the price to rank
        ([RENTALS], "Enterprise is the cheapest all-in at $357.40, taxes and fees included.", "Enterprise", False),
        # what the claim rules out: a manual car, a used one, an offer out of stock elsewhere
        ([CARS], "Cheapest automatic all-in: Alamo at $154.40.", "Alamo", False),
        ([USED], "按到手价算，全新的里极速电子专营店最便宜，¥4,319。", "极速电子专营店", False),
        ([ONLINE, OUT_OF_STOCK], "The cheapest you can buy with shipping included is ByteHarbor at $219.99.",
         "ByteHarbor", False),
        # the sticker price's cheapest, set against the fees
        ([SHOPS], "虽然优品汇家电专营店标价最低，但加上运费反而不是最便宜的。", "优品汇家电专营店", False),
    ],
)
def test_a_cheapest_pick_once_fees_are_added(run: list[dict], answer: str, pick: str, contradicted: bool) -> None:
    report = CHECKER.check(answer, run)
    flagged = [f for c in report.claims for f in c.facts
               if f.verdict == Verdict.CONTRADICTED and "price plus fees" in f.reason and pick in f.text]
    assert bool(flagged) is contradicted, [(f.text, f.reason) for c in report.claims for f in c.facts]
