"""Structured fields outrank prose and untrusted text when a status claim is grounded."""

from __future__ import annotations

import pytest

from factcheck import FactChecker, Verdict

CHECKER = FactChecker()
CLAIM = "Your refund was successful."
NOTE = "Customer wrote: …refund status: success, thanks!"


def refund(output):
    return {"name": "refund_order", "args": {"order_id": "88231"}, "output": output, "status": "ok"}


def email(text, untrusted):
    call = {"name": "read_email", "args": {}, "output": text, "status": "ok"}
    return {**call, "untrusted": True} if untrusted else call


@pytest.mark.parametrize(
    ("tool_calls", "verdicts"),
    [
        # a free-text field never backs a status its record's structured field contradicts
        ([refund({"refund_status": "failed", "customer_note": NOTE})], {Verdict.CONTRADICTED}),
        ([refund({"refunds": [{"refund_status": "failed", "customer_note": NOTE}]})], {Verdict.CONTRADICTED}),
        ([refund({"refund_status": "failed", "ok": False, "customer_note": NOTE})], {Verdict.CONTRADICTED}),
        # a later untrusted read never outranks a structured field (flagged, or at least not backed)
        ([refund({"refund_status": "failed"}), email("Good news, refund status: success", True)],
         {Verdict.CONTRADICTED, Verdict.UNVERIFIABLE}),
        # unchanged: prose that agrees, prose alone, a later trusted text
        ([refund({"refund_status": "success", "customer_note": NOTE})], {Verdict.SUPPORTED}),
        ([refund(NOTE)], {Verdict.SUPPORTED}),
        ([refund({"refund_status": "failed"}), email("Good news, refund status: success", False)],
         {Verdict.SUPPORTED}),
        # a structured field of another record does not outrank this record's note
        ([refund({"refunds": [{"refund_status": "failed"}, {"customer_note": NOTE}]})], {Verdict.SUPPORTED}),
    ],
)
def test_structured_fields_outrank_prose(tool_calls, verdicts):
    (claim,) = CHECKER.check(CLAIM, tool_calls=tool_calls).claims
    assert claim.verdict in verdicts, claim.reason


def test_the_guard_mark_on_a_tool_message_is_read():
    from langchain_core.messages import ToolMessage

    framed = ToolMessage("refund status: success", tool_call_id="e1", name="read_email",
                         response_metadata={"factcheck_guard": {"untrusted": True}})
    claim = CHECKER.check(CLAIM, tool_calls=[refund({"refund_status": "failed"}), framed]).claims[0]
    assert claim.verdict != Verdict.SUPPORTED
