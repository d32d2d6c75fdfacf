"""A count of the records in a state, recounted over the list whose status fields mix states."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
COURSES = {"name": "list_my_courses", "args": {}, "status": "ok", "output": {"courses": [
    {"id": "C101", "status": "completed"}, {"id": "C214", "status": "completed"},
    {"id": "C330", "status": "in_progress"}, {"id": "C402", "status": "completed"},
    {"id": "C515", "status": "cancelled"}, {"id": "C608", "status": "completed"}]}}
ORDERS = {"name": "list_orders", "args": {}, "status": "ok", "output": [
    {"order_id": "#W1", "status": "pending"}, {"order_id": "#W2", "status": "delivered"},
    {"order_id": "#W3", "status": "pending"}]}
ALL_DONE = {"name": "list_my_courses", "args": {}, "status": "ok", "output": {"courses": [
    {"id": "C101", "status": "cancelled"}, {"id": "C214", "status": "cancelled"}]}}
PAYOUTS = {"name": "get_payroll_run", "args": {}, "status": "ok", "output": {
    "headcount": 51, "succeeded": {"count": 48}, "failed": [{"emp_id": "E1033", "name": "张伟"},
                                                           {"emp_id": "E1187", "name": "李娜"}],
    "on_hold": [{"emp_id": "E0921", "name": "王强"}]}}
CHANGED = {"name": "update_attendees", "args": {}, "status": "ok", "output": {
    "succeeded": [{"ticket_id": "TK-2"}], "failed": [{"ticket_id": "TK-3"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        ("您一共报过 6 门课，其中已取消 2 门。", [COURSES], "2", Verdict.CONTRADICTED),
        ("您一共报过 6 门课，其中已取消 1 门。", [COURSES], "1", Verdict.SUPPORTED),
        ("You have 1 pending order.", [ORDERS], "1", Verdict.CONTRADICTED),
        ("You have 2 pending orders.", [ORDERS], "2", Verdict.SUPPORTED),
        # no list mixes the state: the count is no condition's
        ("您已取消 2 门课。", [ALL_DONE], "2", None),
        # the count stands far from the state word, in another clause
        ("您一共报过 6 门课，其中 1 门已取消。", [COURSES], "6", Verdict.SUPPORTED),
        # a time window counts too (not read); a number before 号 is a room's, no count
        ("In the last 7 days you have 1 pending order.", [ORDERS], "1", None),
        ("3号订单还在 pending。", [ORDERS], "3", None),
        ("1 of 3 orders pending so far.", [ORDERS], "3", None),
        ("In the last 7 days: 2 pending orders.", [ORDERS], "2", None),
        # lists under keys that name their state: the failed list has two entries, whatever 51 − 48 gives
        ("发放失败：3 人（张伟、李娜、王强）。", [PAYOUTS], "3", Verdict.CONTRADICTED),
        ("发放失败：2 人（张伟、李娜）。", [PAYOUTS], "2", Verdict.SUPPORTED),
        ("3 payments failed.", [PAYOUTS], "3", Verdict.CONTRADICTED),
        # the whole before a state another count of the clause takes (一位, which no fact reads)
        ("两位观演人只换成功了一位。", [CHANGED], "两", None),
    ],
)
def test_a_count_beside_a_state_is_recounted(answer: str, tools: list, said: str, expected: Verdict | None) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    if expected is None:  # not recounted: whatever else backs it
        assert "entries of" not in fact.reason and fact.code != "recomputed", fact
        return
    assert fact.verdict == expected, fact
    if expected == Verdict.CONTRADICTED:
        assert fact.code == "recomputed" and "entries of" in fact.reason, fact.reason


CLAIMS = {"name": "list_claims", "args": {}, "status": "ok", "output": {"claims": [
    {"claim_no": "HX-1", "status": "已赔付", "paid": 688.0}, {"claim_no": "HX-2", "status": "已赔付", "paid": 9920.0},
    {"claim_no": "HX-3", "status": "拒赔", "paid": 0.0}, {"claim_no": "HX-4", "status": "已赔付", "paid": 1080.0},
    {"claim_no": "HX-5", "status": "审核中", "paid": None}]}}
SHIPMENTS = {"name": "get_shipments", "args": {}, "status": "ok", "output": {"shipments": [
    {"shipment_id": "SHP-1", "status": "delivered"}, {"shipment_id": "SHP-2", "status": "delivered"},
    {"shipment_id": "SHP-3", "status": "exception"}, {"shipment_id": "SHP-4", "status": "in_transit"}]}}
PROCESSED = {"name": "list_orders", "args": {}, "status": "ok", "output": [
    {"order_id": "#W5100", "status": "processed"}, {"order_id": "#W5200", "status": "delivered"},
    {"order_id": "#W5300", "status": "pending"}]}
ROOMS = {"name": "get_group", "args": {}, "status": "ok", "output": {"rooms": [
    {"room": 1, "status": "active"}, {"room": 2, "status": "active"}, {"room": 3, "status": "cancelled"}]}}


PAYROLL = {"name": "get_disbursement_status", "args": {}, "status": "ok", "output": {"results": [
    {"name": n, "status": "success"} for n in ("吴昊", "郑爽", "冯涛", "何佳", "马超", "许静")] + [
    {"name": "孙丽", "status": "failed"}, {"name": "周杰", "status": "failed"}]}}
MATERIALS = {"name": "get_claim", "args": {}, "status": "ok", "output": {"materials": [
    {"name": "病历", "status": "已收到"}, {"name": "发票", "status": "已收到"},
    {"name": "诊断证明", "status": "已收到"}, {"name": "费用清单", "status": "待补充"},
    {"name": "身份证", "status": "待补充"}, {"name": "银行卡", "status": "待补充"}]}}


def _parcel(number: str, status: str) -> dict:
    return {"name": "track_parcel", "args": {"tracking_no": number}, "status": "ok",
            "output": {"tracking_no": number, "status": status}}


PARCELS = [_parcel("UPS311", "delivered"), _parcel("USPS314", "delivered"), _parcel("DHL669", "in_transit"),
           _parcel("DHL672", "in_transit"), _parcel("FDX793", "label_created")]


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # a status value the records hold, said as it is
        ("2025 年您共提交了 5 笔理赔，其中已赔付 4 笔。", [CLAIMS], "4", Verdict.CONTRADICTED),
        ("2025 年您共提交了 5 笔理赔，其中已赔付 3 笔。", [CLAIMS], "3", Verdict.SUPPORTED),
        # after the whole it is part of
        ("3 of the 4 have been delivered.", [SHIPMENTS], "3", Verdict.CONTRADICTED),
        ("2 of the 4 have been delivered.", [SHIPMENTS], "2", Verdict.SUPPORTED),
        # one record per call of one tool
        ("Of your 5 parcels, 3 delivered.", PARCELS, "3", Verdict.CONTRADICTED),
        ("Of your 5 parcels, 2 delivered.", PARCELS, "2", Verdict.SUPPORTED),
        # a state another may imply: a delivered order has shipped, a processed one may have
        ("2 have shipped.", [PROCESSED], "2", Verdict.SUPPORTED),
        ("3 have shipped.", [PROCESSED], "3", Verdict.CONTRADICTED),
        # controls: negated, either of two, the order's state and how it went, a name's number, a record's own line
        ("You have 2 orders that haven't shipped yet.", [PROCESSED], "2", None),
        ("其余 2 单是 pending/processed 状态。", [PROCESSED], "2", None),
        ("Your order shipped in 4 packages.", [SHIPMENTS], "4", None),
        ("The group now has 2 active rooms (room 3 was cancelled).", [ROOMS], "3", None),
        ("- #W5200: delivered — 2 items", [PROCESSED], "2", None),
        # in English a state after a count is its own, not the state of the count before
        ("Of the 4 shipments, 2 are delivered and 1 is in transit.", [SHIPMENTS], "1", Verdict.SUPPORTED),
        # in Chinese a state before a count is the count's: the count before it is the whole
        ("6 项材料已收到 3 项。", [MATERIALS], "6", None),
        ("6 项材料已收到 4 项。", [MATERIALS], "4", Verdict.CONTRADICTED),
        # 、 parts two counts: each has its own state
        ("目前 2 个已签收、3 个还在路上。", PARCELS, "3", None),
        # an operation's outcome (成功, failed) a count stands beside
        ("您组内 8 人中，7 人已成功到账。", [PAYROLL], "7", Verdict.CONTRADICTED),
        ("您组内 8 人中，6 人已成功到账。", [PAYROLL], "6", Verdict.SUPPORTED),
        ("2 payments failed.", [PAYROLL], "2", Verdict.SUPPORTED),
        # a state's label, a colon, then its count
        ("- 包裹：3 个", [SHIPMENTS], "3", None),
        ("状态汇总：\n- delivered：3 个", [SHIPMENTS], "3", Verdict.CONTRADICTED),
        ("- delivered：2 个", [SHIPMENTS], "2", Verdict.SUPPORTED),
        ("- Delivered: 3 of 4 shipments", [SHIPMENTS], "3", Verdict.CONTRADICTED),
        # controls: two states in one label; the first number is the whole ("4 个中的 3 个")
        ("- delivered 或 exception：3 个", [SHIPMENTS], "3", None),
        ("- delivered：4 个中的 2 个", [SHIPMENTS], "4", None),
    ],
)
def test_a_count_of_records_said_in_more_ways_is_recounted(
    answer: str, tools: list, said: str, expected: Verdict | None
) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    if expected is None:
        assert "entries of" not in fact.reason and fact.code != "recomputed", fact
        return
    assert fact.verdict == expected, fact
    assert "entries of" in fact.reason, fact.reason


BOOKINGS = {"name": "list_bookings", "args": {}, "status": "ok", "output": {"bookings": [
    {"booking_id": "CB-7101", "status": "confirmed"}, {"booking_id": "CB-7105", "status": "cancelled"},
    {"booking_id": "CB-7108", "status": "confirmed"}, {"booking_id": "CB-7110", "status": "confirmed"}]}}


@pytest.mark.parametrize(
    ("answer", "said", "expected"),
    [
        # a state no word of the claim names: as many entries as one status value holds, or all the others
        ("Acme has 3 active bookings for March.", "3", Verdict.UNVERIFIABLE),
        ("实际有效的是 3 单。", "3", Verdict.UNVERIFIABLE),
        # no status value holds that many, nor do all the others
        ("Acme has 2 active bookings for March.", "2", Verdict.UNSUPPORTED),
        # nothing but the count and its noun: it counts them all (four), not some state's
        ("I see 3 bookings here.", "3", Verdict.UNSUPPORTED),
        # a state the claim names is recounted by it, not excused
        ("3 of your bookings were cancelled.", "3", Verdict.CONTRADICTED),
    ],
)
def test_a_count_of_some_state_no_word_names_is_not_flagged(answer: str, said: str, expected: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, [BOOKINGS]).claims for f in c.facts if f.text == said)
    assert fact.verdict == expected, fact
