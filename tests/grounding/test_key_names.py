"""A record's key said beside another record's name: the key and the name must be of one record."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
ORDER = {"order_id": "#W5362037", "status": "pending",
         "items": [{"name": "Bookshelf", "item_id": "4894369688", "price": 473.43},
                   {"name": "Pet Bed", "item_id": "2405281423", "price": 93.11},
                   {"name": "Water Bottle", "item_id": "2834416704", "price": 54.85}]}
PRODUCT = {"name": "Action Camera", "product_id": "3377618313",
           "variants": {"6700049080": {"item_id": "6700049080", "options": {"resolution": "4K"}, "price": 466.75},
                        "4859937227": {"item_id": "4859937227", "options": {"resolution": "1080p"}, "price": 350.0}}}
OTHER_PRODUCT = {"name": "Digital Camera", "product_id": "8940227892",
                 "variants": {"6384525445": {"item_id": "6384525445", "price": 292.0}}}


def key_verdicts(answer: str, outputs: list) -> list[tuple[str, Verdict, str | None]]:
    calls = [{"name": name, "args": {}, "output": out, "status": "ok"} for name, out in outputs]
    return [(f.text, f.verdict, f.code) for c in CHECKER.check(answer, calls).claims for f in c.facts
            if f.kind.value == "identifier" and f.code in ("wrong_record", "swapped_value")]  # either check may say it


@pytest.mark.parametrize(
    ("answer", "outputs", "wrong"),
    [
        # another item's id beside an item's name, in brackets or after a dash
        ("I'll return the Bookshelf (item_id 2405281423) from order #W5362037.", [("get_order_details", ORDER)],
         ["2405281423"]),
        ("Item 2834416704 — Pet Bed, $93.11.", [("get_order_details", ORDER)], ["2834416704"]),
        # a variant's id names its product, the dict that keys it: not another product read by the same tool
        ("item_id 6700049080 — Digital Camera (4K)",
         [("get_product_details", PRODUCT), ("get_product_details", OTHER_PRODUCT)], ["6700049080"]),
        # controls: the key's own name; names parted from the key by a clause word, a comma or another key
        ("I'll return the Bookshelf (item_id 4894369688) from order #W5362037.", [("get_order_details", ORDER)], []),
        ("item_id 6700049080 — Action Camera (4K)",
         [("get_product_details", PRODUCT), ("get_product_details", OTHER_PRODUCT)], []),
        ("You're sending back 2 items (Water Bottle and Pet Bed), item IDs 2834416704, 2405281423.",
         [("get_order_details", ORDER)], []),
        ("Exchange item 2405281423 for the Bookshelf.", [("get_order_details", ORDER)], []),
        ("The Bookshelf 4894369688 and the Pet Bed 2405281423 are both pending.", [("get_order_details", ORDER)], []),
        ("把 Bookshelf 换成 2405281423。", [("get_order_details", ORDER)], []),
    ],
)
def test_key_beside_another_records_name(answer: str, outputs: list, wrong: list[str]) -> None:
    assert [text for text, _, _ in key_verdicts(answer, outputs)] == wrong



TICKETS = {"order_id": "E882316047", "tickets": [{"name": "张伟", "seat": "12D"}, {"name": "李娜", "seat": "12F"}]}
PASSENGERS = {"pnr": "N8WQ4D", "passengers": [{"name": "Kenji Nakamura", "seat": "21A"},
                                              {"name": "Yuki Nakamura", "seat": "21B"}]}


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        # a passenger's seat keys the passenger's record: another passenger's seat beside a name is that one's
        ("两位都在 05 车厢：张伟 12F、李娜 12D，座位相邻。", ["12F", "12D"]),
        ("Seats: Yuki Nakamura 21A, Kenji Nakamura 21B.", ["21A", "21B"]),
        ("张伟 12D、李娜 12F，座位相邻。", []),
        # names listed together, then the seats in their order: no name stands beside one seat alone
        ("张伟和李娜的座位 12D、12F 已确认。", []),
        ("Kenji Nakamura and Yuki Nakamura are in seats 21A and 21B.", []),
    ],
)
def test_a_seat_beside_another_passengers_name(answer: str, wrong: list[str]) -> None:
    outputs = [("get_order", TICKETS), ("get_booking", PASSENGERS)]
    assert [text for text, _, _ in key_verdicts(answer, outputs)] == wrong


RESERVATIONS = [{"reservation_id": "RV-3301", "date": "2025-11-15", "table_no": "A12", "status": "已确认"},
                {"reservation_id": "RV-3315", "date": "2025-11-16", "table_no": "B07", "status": "已确认"}]
PAYMENTS = {"payments": [{"employee_id": "EMP-1032", "txn_id": "TXN-88410", "method_id": "card-1"},
                         {"employee_id": "EMP-1047", "txn_id": "TXN-88417", "method_id": "card-1"}]}


@pytest.mark.parametrize(
    ("answer", "outputs", "wrong"),
    [
        # one item's first key names the record; another key field's value is another item's
        ("预订号 RV-3315｜18:00｜桌号 A12｜已确认", [("list_reservations", RESERVATIONS)], ["A12"]),
        ("EMP-1032 was paid on March 28; transaction TXN-88417.", [("list_payments", PAYMENTS)], ["TXN-88417"]),
        # controls: the record's own keys; keys of one field enumerated; a value both items hold
        ("预订号 RV-3315｜18:00｜桌号 B07｜已确认", [("list_reservations", RESERVATIONS)], []),
        ("RV-3301 和 RV-3315 的桌号是 A12 和 B07。", [("list_reservations", RESERVATIONS)], []),
        ("EMP-1047 was paid from card-1.", [("list_payments", PAYMENTS)], []),
    ],
)
def test_key_of_another_item_of_the_list(answer: str, outputs: list, wrong: list[str]) -> None:
    assert [text for text, _, _ in key_verdicts(answer, outputs)] == wrong
