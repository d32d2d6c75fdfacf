"""Items said under a group (a parcel, a leg, a room) their own record assigns to another group of the same output."""

import pytest

from factcheck import FactChecker, Verdict

CHECKER = FactChecker()
ORDER = [{"name": "get_order", "args": {"order_id": "WB-55102"}, "status": "ok", "output": {
    "order_id": "WB-55102",
    "items": [
        {"sku": "KT-11", "name": "Bosch kettle 1.7L", "qty": 1, "shipment": "S1"},
        {"sku": "TS-40", "name": "Philips toaster 2-slot", "qty": 1, "shipment": "S2"},
        {"sku": "MG-02", "name": "stoneware mug set", "qty": 1, "shipment": "S2"}],
    "shipments": [
        {"shipment": "S1", "carrier": "DHL", "tracking": "JD014600003861"},
        {"shipment": "S2", "carrier": "UPS", "tracking": "1Z999AA10123456784"}]}}]
ZH_ORDER = [{"name": "get_order", "args": {"order_id": "DD66012"}, "status": "ok", "output": {
    "order_id": "DD66012",
    "items": [
        {"name": "九阳豆浆机 1.2L", "package_no": "PKG-1"},
        {"name": "苏泊尔不粘炒锅 30cm", "package_no": "PKG-2"}],
    "packages": [
        {"package_no": "PKG-1", "carrier": "顺丰速运", "tracking_no": "SF1432887765012"},
        {"package_no": "PKG-2", "carrier": "中通快递", "tracking_no": "ZT78345120098"}]}}]


def other_group(answer: str, calls: list) -> list[tuple[str, str | None, bool]]:
    return [(f.text, f.strength, f.verdict == Verdict.CONTRADICTED and not f.uncertain)
            for c in CHECKER.check(answer, calls).claims for f in c.facts if f.code == "other_group"]


@pytest.mark.parametrize(
    ("answer", "calls", "expected"),
    [
        # the toaster ships in S2, the claim lists it under S1's tracking number: flagged at the default threshold
        ("The DHL parcel (JD014600003861) holds the Bosch kettle and the Philips toaster.", ORDER,
         [("philips", "other-group", True)]),
        ("顺丰包裹（SF1432887765012）：九阳豆浆机 1.2L 和苏泊尔不粘炒锅 30cm，已签收。", ZH_ORDER,
         [("苏泊尔不粘炒锅", "other-group", True)]),
        # each item under its own group
        ("The DHL parcel (JD014600003861) holds the Bosch kettle; the mug set and the Philips toaster come by UPS.",
         ORDER, []),
        ("顺丰包裹（SF1432887765012）：九阳豆浆机 1.2L，已签收。", ZH_ORDER, []),
        # two groups named in one claim: which item goes with which is not read
        ("Parcels JD014600003861 and 1Z999AA10123456784 hold the Bosch kettle and the Philips toaster.", ORDER, []),
        # one short word names no item ("mug" alone)
        ("The DHL parcel (JD014600003861) has the kettle and a mug.", ORDER, []),
    ],
)
def test_an_item_said_under_another_group_is_the_wrong_record(answer: str, calls: list, expected: list) -> None:
    assert [(t.lower(), s, f) for t, s, f in other_group(answer, calls)] == expected
