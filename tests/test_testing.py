"""`assert_grounded` for users' own test suites."""

from __future__ import annotations

import pytest

from factcheck import CheckerConfig, Report
from factcheck.testing import assert_grounded

REFUND_FAILED = {"name": "refund_order", "args": {"order_id": "88231"},
                 "output": {"order_id": "88231", "refund_status": "FAILED", "amount": 299.0},
                 "status": "ok"}


def test_grounded_answer_passes_and_returns_the_report():
    report = assert_grounded("抱歉，订单 88231 退款失败，299 元暂时无法退回。", [REFUND_FAILED])
    assert isinstance(report, Report) and report.ok and report.claims


def test_failure_lists_each_flagged_claim_and_why():
    answer = "Your refund succeeded. We also emailed you the receipt."
    with pytest.raises(AssertionError) as err:
        assert_grounded(answer, [REFUND_FAILED], lang="en", min_confidence=0)
    msg = str(err.value)
    first = msg.splitlines()[0]
    assert first.startswith("answer is not grounded in the tool outputs:")
    report_lines = [line for line in msg.splitlines() if line.startswith("- [")]
    assert len(report_lines) == 2 and "succeeded" in report_lines[0]
    assert all(": " in line.split("]", 1)[1] for line in report_lines)  # each has a reason
    assert "refund_status" in msg  # the evidence that contradicts it
    assert msg.splitlines()[-1] == f"answer: {answer!r}"


def test_context_backs_facts():
    answer = "已将收货地址改为上海市徐汇区漕溪北路 88 号 3 栋 502。"
    tools = [{"name": "update_address", "args": {}, "output": {"ok": True}, "status": "ok"}]
    with pytest.raises(AssertionError):
        assert_grounded(answer, tools, min_confidence=0)
    assert_grounded(answer, tools, context=["请把地址改成上海市徐汇区漕溪北路 88 号 3 栋 502"], min_confidence=0)


def test_config_arguments():
    with pytest.raises(TypeError, match="either config"):
        assert_grounded("ok", [], config=CheckerConfig(), derive_arithmetic=False)
    tools = [{"name": "cart", "args": {}, "output": {"items": [{"price": 20}, {"price": 25}]},
              "status": "ok"}]
    assert_grounded("Your total is 45.", tools, derive_arithmetic=True)
    with pytest.raises(AssertionError, match="45"):
        assert_grounded("Your total is 45.", tools, config=CheckerConfig(derive_arithmetic=False, min_confidence=0))
