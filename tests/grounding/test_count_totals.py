"""A whole count after the counts the answer lists of the same unit, added up from those lines."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
BAGS = {"name": "get_baggage_records", "args": {"booking": "FD8K2Q"}, "status": "ok", "output": {"bags": [
    {"passenger": "李明", "count": 2, "weights_kg": [23, 19]},
    {"passenger": "王芳", "count": 2, "weights_kg": [21, 22.5]},
    {"passenger": "李小雨", "count": 1, "weights_kg": [15]}], "allowance_per_passenger": 2}}
PO = {"name": "get_po", "args": {"po": "PO-55810"}, "status": "ok", "output": {"ordered": 400, "shipments": [
    {"id": "SHP-30112", "qty": 120, "status": "delivered"}, {"id": "SHP-30118", "qty": 80, "status": "delivered"},
    {"id": "SHP-30125", "qty": 150, "status": "in_transit"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "recounted"),
    [
        ("托运行李：\n- 李明：2 件\n- 王芳：2 件\n- 李小雨：1 件\n\n合计 6 件。", [BAGS], "6", True),
        ("Checked bags:\n- 李明: 2 bags\n- 王芳: 2 bags\n- 李小雨: 1 bag\nIn total 6 bags.", [BAGS], "6",
         True),
        ("托运行李：\n- 李明：2 件\n- 王芳：2 件\n- 李小雨：1 件\n\n合计 5 件。", [BAGS], "5", False),
        # controls: a count said of each is a factor, not a line; the whole of those its condition keeps
        ("每位乘客免费 2 件。\n- 李小雨：1 件\n全家合计 6 件额度。", [BAGS], "6", False),
        ("- SHP-30112：120 箱，已签收\n- SHP-30118：80 箱，已签收\n- SHP-30125：150 箱，运输中\n已到货合计 200 箱。",
         [PO], "200", False),
        # the claim's own counts are its factors ("每人 2 件，3 位共 6 件")
        ("- 李明：2 件\n- 王芳：2 件\n每人 2 件，3 位乘客共 6 件免费额度。", [BAGS], "6", False),
    ],
)
def test_a_whole_after_listed_counts_adds_them_up(answer: str, tools: list, said: str, recounted: bool) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert ("the answer's own counts" in fact.reason) is recounted, fact
    if recounted:
        assert fact.verdict == Verdict.CONTRADICTED and fact.code == "recomputed", fact
