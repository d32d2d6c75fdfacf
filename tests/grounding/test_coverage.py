"""Claims about every member of a collection, when the run read only some of them."""

import pytest

from factcheck import CheckerConfig, FactChecker

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def call(name: str, args: dict, output: dict) -> dict:
    return {"name": name, "args": args, "output": output, "status": "ok"}


USER = call("get_user_details", {"user_id": "ben_6605"}, {"user_id": "ben_6605", "orders": ["#W1001871", "#W2774410",
                                                                                                   "#W3390125"]})
ORDERS = [call("get_order_details", {"order_id": oid}, {"order_id": oid, "items": [{"name": name}]})
          for oid, name in (("#W1001871", "Coffee Maker"), ("#W2774410", "T-Shirt"), ("#W3390125", "Toaster"))]
LINES = call("list_lines", {"customer_id": "C-55"}, {"lines": [{"number": "139****0871"}, {"number": "139****2245"},
                                                               {"number": "186****7730"}]})
ROAMING = [call("get_roaming_status", {"number": n}, {"number": n, "intl_roaming": "off"})
           for n in ("139****0871", "139****2245")]


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        ("None of your orders contain a blender.", [USER, *ORDERS[:2]], True),
        ("None of your orders contain a blender.", [USER, *ORDERS], False),  # all three were read
        ("All your orders have shipped.", [USER, *ORDERS[:1]], True),
        ("You have three orders on file.", [USER, *ORDERS[:1]], False),  # no claim about every member
        ("None of your orders contain a blender.", [USER], False),  # none opened: a claim of the list itself
        ("您名下共有 3 个号码，目前都没有开通国际漫游。", [LINES, *ROAMING], True),
        ("Would you like me to check all your orders for a blender?", [USER, *ORDERS[:2]], False),  # an offer
    ],
)
def test_a_claim_about_every_member_needs_every_member_read(answer, tools, flagged):
    report = CHECKER.check(answer, tools)
    coverage = [f for c in report.claims for f in c.facts if f.kind.value == "coverage"]
    assert bool(coverage) == flagged
    assert all(f.code == "incomplete_coverage" and f.verdict.flagged for f in coverage)


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("您名下的 4 个订单都没有发货。", True),  # 订单 before 都: the collection
        ("滨江都会酒店的订单 O-101 已确认。", False),  # 都 inside a hotel's name speaks of no collection
        ("Each order's status will change to 'return requested'.", False),  # "each" opens a plan, not a claim
    ],
)
def test_the_quantifier_must_speak_of_the_collection(answer, flagged) -> None:
    from factcheck import check

    tools = [{"name": "get_user", "args": {}, "output": {"orders": ["O-101", "O-102", "O-103", "O-104"]}},
             {"name": "get_order", "args": {"order_id": "O-101"}, "output": {"order_id": "O-101", "status": "pending"}}]
    report = check(answer, tools)
    assert any(f.code == "incomplete_coverage" for c in report.claims for f in c.facts) is flagged


@pytest.mark.parametrize(
    "answer",
    [
        "NONE of your orders contain a blender.",  # any case
        "None of your orders contain a blender, 谢谢。",  # not ASCII: the quick look still finds the quantifier
        "Neİther of your orders contains a blender.",  # İ and ı match the pattern's i case-blind; lower-cased
        "Neıther of your orders contains a blender.",  # they are no i, so the pattern is tried all the same
    ],
)
def test_the_quick_look_for_a_quantifier_misses_none_the_pattern_finds(answer) -> None:
    from factcheck.grounding.coverage import EN_ALL

    assert EN_ALL.search(answer) is not None
    report = CHECKER.check(answer, [USER, *ORDERS[:2]])
    assert any(f.code == "incomplete_coverage" for c in report.claims for f in c.facts)
