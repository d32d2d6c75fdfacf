"""Identifiers an answer writes its own way: labels written like field names, dimensions with their unit."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
S, U, NONE = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNVERIFIABLE
RECORDS = {"name": "get_account", "args": {}, "status": "ok", "output": {
    "refund_id": "RF-89051", "flight": "VY3308", "card": {"last_four": "0912"}, "gift": "gift_card_2210984",
    "payment_method": "credit_card_8541487", "carry_on": "1件，不超过5kg，20×40×55cm"}}


def identifier(answer: str) -> tuple[str, Verdict]:
    facts = [f for c in CHECKER.check(answer, [RECORDS]).claims for f in c.facts if f.kind == FactKind.IDENTIFIER]
    assert len(facts) == 1, [(f.text, f.kind) for f in facts]
    return facts[0].text, facts[0].verdict


@pytest.mark.parametrize(
    ("answer", "said", "expected"),
    [
        # a label around an identifier a tool gives is backed by it
        ("net_if_RF-89051_approved: 283.34 USD", "net_if_RF-89051_approved", S),
        ("rebooked_VY3308 (23 Aug): confirmed", "rebooked_VY3308", S),
        ("visa_ending_0912: charged", "visa_ending_0912", S),
        ("gift_card_2210984_remaining: $46.00", "gift_card_2210984_remaining", S),
        # words and short numbers only: a label that names no record
        ("week_of_23_feb: 46.5 h worked", "week_of_23_feb", NONE),
        ("changes_last_90d: 3", "changes_last_90d", NONE),
        ("charge_1: $150.00", "charge_1", NONE),
        # a part like a key that no tool gives, or the tool's key with another kind before it
        ("visa_ending_0913: charged", "visa_ending_0913", U),
        ("Refunded to gift_card_8541487.", "gift_card_8541487", U),
    ],
)
def test_a_label_written_like_a_field_name(answer: str, said: str, expected: Verdict) -> None:
    assert identifier(answer) == (said, expected)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("手提行李：1件，尺寸20×40×55厘米", S),
        ("手提行李：1件，尺寸20×40×56厘米", U),
    ],
)
def test_dimensions_a_tool_writes_with_their_unit(answer: str, expected: Verdict) -> None:
    assert identifier(answer)[1] == expected


def test_a_code_and_its_quantity_are_no_dimensions() -> None:
    facts = [(f.kind, f.text) for c in CHECKER.check("调拨单：HDM-220 × 300 件。", [RECORDS]).claims for f in c.facts]
    assert (FactKind.IDENTIFIER, "220 × 300") not in facts, facts


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Your flight VY 3308 leaves at 07:05.", S),
        ("Your flight VY 3309 leaves at 07:05.", U),
    ],
)
def test_a_flight_number_written_spaced(answer: str, expected: Verdict) -> None:
    assert identifier(answer)[1] == expected


PADDED = {"name": "get_itinerary", "args": {}, "status": "ok", "output": {"legs": [
    {"flight": "TP0432", "from": "LIS", "to": "ORY"}, {"flight": "TP0437", "from": "ORY", "to": "LIS"}]}}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("去程 TP 432，回程 TP 437。", [S, S]),  # the digits padded to four
        ("去程 TP 432，回程 TP 438。", [S, U]),
    ],
)
def test_a_flight_number_without_its_padding(answer: str, expected: list[Verdict]) -> None:
    facts = [f for c in CHECKER.check(answer, [PADDED]).claims for f in c.facts if f.kind == FactKind.IDENTIFIER]
    assert [f.verdict for f in facts] == expected, [(f.text, f.reason) for f in facts]
