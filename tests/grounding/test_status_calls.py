"""A status said done of the record the answer names by its key, against that record's own status fields."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
REFUND = [
    {"name": "get_order_details", "args": {"order_id": "#W8850316"}, "status": "ok", "output": {
        "order_id": "#W8850316", "status": "returned", "items": [{"name": "扫地机器人 S8", "price": 1099.0}]}},
    {"name": "get_refund_status", "args": {"order_id": "#W8850316"}, "status": "ok", "output": {
        "order_id": "#W8850316", "refunds": [{"refund_id": "RF-88503-01", "amount": 1099.0, "status": "failed",
                                               "attempted_at": "2024-06-09T10:14:33"}]}}]
TICKETS = [
    {"name": "get_order", "args": {"order_id": "DM2025061200871"}, "status": "ok", "output": {
        "order_id": "DM2025061200871", "total_paid": 1215.0, "pay_status": "已支付", "paid_at": "2025-06-12 09:58:31"}},
    {"name": "get_delivery", "args": {"order_id": "DM2025061200871"}, "status": "ok", "output": {
        "order_id": "DM2025061200871", "status": "未发货"}}]
WAITLIST = [{"name": "query_waitlist", "args": {"order_no": "HB8812047"}, "status": "ok", "output": {
    "order_no": "HB8812047", "train": "G6015", "dep": "07:45", "status": "候补中", "success_rate": "较低"}}]


def statuses(answer: str, calls: list) -> list[tuple[str, Verdict]]:
    return [(f.text, f.verdict) for c in CHECKER.check(answer, calls).claims for f in c.facts
            if f.kind.value in ("status", "action") and f.verdict in (Verdict.CONTRADICTED, Verdict.SUPPORTED)]


@pytest.mark.parametrize(
    ("answer", "calls", "expected"),
    [
        # a clock time's colon between the key and the status is no list's colon: the failed refund contradicts it
        ("退款 RF-88503-01 已于 2024 年 6 月 9 日 10:14 成功退回至您的信用卡。", REFUND,
         [("成功退回", Verdict.CONTRADICTED)]),
        ("Refund RF-88503-01 went through at 10:14.", REFUND,
         [("Refund RF-88503-01 went through", Verdict.CONTRADICTED)]),
        # the payment of the named order is done; its delivery, read later, is another status of the record
        ("订单 DM2025061200871 已于今天 9:58 支付成功。", TICKETS, [("支付成功", Verdict.SUPPORTED)]),
        # 成功率 is a rate, no status said done
        ("订单 HB8812047（G6015 07:45 开）目前仍是候补中，系统显示成功率较低。", WAITLIST,
         [("候补", Verdict.SUPPORTED)]),
    ],
)
def test_a_status_of_the_keyed_record(answer: str, calls: list, expected: list) -> None:
    assert statuses(answer, calls) == expected
