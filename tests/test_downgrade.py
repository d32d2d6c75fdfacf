"""Downgrading a flagged answer: drop keeps the rest of the text as it was written."""

from __future__ import annotations

import pytest

from factcheck import check
from factcheck.policy import apply_on_fail

FAILED = [{"name": "get_refund", "args": {}, "output": {"status": "failed"}, "status": "ok"}]


@pytest.mark.parametrize(
    ("answer", "dropped"),
    [
        ("Hello. Your refund of $45 went through. Bye.", "Hello. Bye."),
        ("Hello.\nYour refund of $45 went through.\nBye.", "Hello.\nBye."),
        ("您好。已为您成功退款。再见。", "您好。再见。"),
        ("Your refund of $45 went through. Bye.", "Bye."),
        ("Hello. Your refund of $45 went through.", "Hello."),
    ],
)
def test_drop_removes_the_flagged_claim_and_its_separator(answer: str, dropped: str) -> None:
    report = check(answer, tool_calls=FAILED)
    assert not report.ok
    assert apply_on_fail(report, "drop") == dropped
