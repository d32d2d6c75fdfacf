"""A code of one list item said in a block that describes a sibling item, and a code of another item beside a key."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
C, S = Verdict.CONTRADICTED, Verdict.SUPPORTED

ORDER = {"name": "get_order", "args": {"order_id": "SO-88120457"}, "status": "ok", "output": {
    "order_id": "SO-88120457", "shipments": [
        {"shipment_id": "SHP-1", "items": ["AirPods Pro 2"], "carrier": "SF Express", "tracking": "SF1402877365521",
         "status": "shipped", "shipped_at": "2025-11-11 18:32", "eta": "2025-11-13"},
        {"shipment_id": "SHP-2", "items": ["MagSafe Charger"], "carrier": "JD Logistics", "tracking": "JDVA30118276645",
         "status": "shipped", "shipped_at": "2025-11-10 20:05", "eta": "2025-11-12"}]}}
THREE = {**ORDER, "output": {**ORDER["output"], "shipments": [*ORDER["output"]["shipments"], {
    "shipment_id": "SHP-3", "items": ["USB-C Cable"], "carrier": "UPS", "tracking": "1Z9V87A40312286514",
    "status": "shipped", "shipped_at": "2025-11-09 09:15", "eta": "2025-11-14"}]}}
ASSETS = {"name": "get_assets", "args": {"employee": "lchen"}, "status": "ok", "output": [
    {"asset_tag": "LT-04418", "type": "laptop", "model": "Dell Latitude 7440", "serial": "7HXK2Y3",
     "assigned": "2023-04-11", "status": "in_use"},
    {"asset_tag": "LT-02291", "type": "laptop", "model": "ThinkPad T14", "serial": "PF3AB7QZ",
     "assigned": "2021-09-02", "status": "returned"}]}


def _verdict(answer: str, calls: list[dict], text: str) -> Verdict:
    report = CHECKER.check(answer, calls)
    return next(f.verdict for c in report.claims for f in c.facts if f.text == text)


@pytest.mark.parametrize(
    ("answer", "calls", "code", "expected"),
    [
        # the carrier, the shipping time and the eta are the first parcel's; the tracking number is the second's
        ("- **Carrier**: SF Express\n- **Shipped**: Nov 11, 18:32\n- **Tracking No.**: JDVA30118276645\n"
         "- **Expected**: Nov 13", [ORDER], "JDVA30118276645", C),
        ("- 发货时间：11月11日 18:32\n- 快递单号：JDVA30118276645\n- 预计送达：11月13日", [ORDER],
         "JDVA30118276645", C),
        # the parcel's own number
        ("- **Carrier**: SF Express\n- **Shipped**: Nov 11, 18:32\n- **Tracking No.**: SF1402877365521\n"
         "- **Expected**: Nov 13", [ORDER], "SF1402877365521", S),
        # the block says the parcel's own number too: it speaks of both parcels
        ("- **Shipped**: Nov 11, 18:32, tracking SF1402877365521\n- **Expected**: Nov 13\n"
         "- **Also in transit**: JDVA30118276645", [ORDER], "JDVA30118276645", S),
        # the sibling has a second fact of its own in the block: it is named, not mistaken
        ("- **Shipped**: Nov 11, 18:32\n- **Expected**: Nov 13\n- JDVA30118276645 left on Nov 10, 20:05",
         [ORDER], "JDVA30118276645", S),
        # a block over three parcels is a list of them, not one parcel's block
        ("- Nov 11, 18:32 and Nov 13: SF Express\n- 1Z9V87A40312286514 arrives Nov 14, sent Nov 9\n"
         "- JDVA30118276645", [THREE], "JDVA30118276645", S),
        # words that bring the other record in
        ("- **Shipped**: Nov 11, 18:32\n- **Expected**: Nov 13\n- The other parcel is JDVA30118276645",
         [ORDER], "JDVA30118276645", S),
        # a serial held whole by a field of another asset, beside this asset's tag: the second asset's serial
        ("Laptop: Dell Latitude 7440, asset tag LT-04418, serial PF3AB7QZ.", [ASSETS], "PF3AB7QZ", C),
        ("Laptop: Dell Latitude 7440, asset tag LT-04418, serial 7HXK2Y3.", [ASSETS], "7HXK2Y3", S),
    ],
)
def test_a_code_of_a_sibling_item(answer: str, calls: list[dict], code: str, expected: Verdict) -> None:
    assert _verdict(answer, calls, code) == expected


def test_a_json_answer_is_no_block() -> None:
    """An answer written as JSON lists its fields line by line: no line binds the next to one record."""
    answer = ('{"message": "Here are your parcels.", "parcels": [{"shipped_at": "2025-11-11 18:32", '
              '"eta": "2025-11-13", "tracking": "JDVA30118276645"}]}')
    report = CHECKER.check(answer, [ORDER])
    assert not [f for c in report.claims for f in c.facts if f.code == "wrong_record"]


APPOINTMENTS = {"name": "list_appointments", "args": {"patient_id": "PT-558210"}, "status": "ok", "output": [
    {"appt_id": "A-90331", "date": "2025-10-07", "time": "09:15", "provider": "Dr. Anita Raman", "dept": "Cardiology"},
    {"appt_id": "A-90417", "date": "2025-10-09", "time": "14:40", "provider": "Dr. Marcus Hale", "dept": "Dermatology"},
    {"appt_id": "A-90502", "date": "2025-10-10", "time": "08:00", "provider": "Dr. Jane Wu", "dept": "Lab"}]}
ORDER_ITEMS = {"name": "get_order", "args": {"order_id": "W1"}, "status": "ok", "output": {"items": [
    {"name": "Alpine Trek Boots", "size": "EU 42", "price": 129.0, "shipped": "2025-10-02"},
    {"name": "Wool Socks", "size": "M", "price": 14.5, "shipped": "2025-10-04"}]}}


@pytest.mark.parametrize(
    ("answer", "name", "expected"),
    [
        # a line (a list item) whose date and time are the first appointment's names the second one's provider
        ("- Tue, Oct 7 at 9:15 AM: Cardiology with Dr. Marcus Hale", "Marcus Hale", C),
        ("- Tue, Oct 7 at 9:15 AM: Cardiology with Dr. Anita Raman", "Anita Raman", S),
        # an item's own name brings that item into the line: no role of the other item's
        ("- Alpine Trek Boots, EU 42, $129.00, shipped Oct 2, with the Wool Socks", "Wool Socks", S),
    ],
)
def test_a_role_of_a_sibling_item_said_in_a_line(answer: str, name: str, expected: Verdict) -> None:
    calls = [ORDER_ITEMS] if "Socks" in name else [APPOINTMENTS]
    assert _verdict(answer, calls, name) == expected
