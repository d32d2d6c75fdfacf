"""What a run's writes say of a status claim: a write's error is no record state, a named write that failed, records
sorted by state."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def call(name: str, output, status: str = "ok") -> dict:
    return {"name": name, "args": {}, "output": output, "status": status}


@pytest.mark.parametrize(
    ("answer", "error", "flagged"),
    [
        # a write's error says its change failed: the record's state said beside it is not contradicted by it
        ("The order is already in processed status, so I couldn't cancel it.",
         "Error: non-pending order cannot be cancelled", False),
        ("It's already been processed, and only pending orders can be cancelled.",
         "Error: non-pending order cannot be cancelled", False),
        # ...unless the error names another state the record is in
        ("Your order is still pending.", "Error: order status changed to processed", True),
        # an act said done is the failed change's own
        ("Your order has been cancelled.", "Error: non-pending order cannot be cancelled", True),
    ],
)
def test_a_failed_write_says_nothing_of_the_records_state(answer: str, error: str, flagged: bool) -> None:
    tools = [call("cancel_pending_order", error, "error")]
    report = CHECKER.check(answer, tools)
    assert any(f.verdict.flagged for c in report.claims for f in c.facts
               if f.kind in (FactKind.STATUS, FactKind.ACTION)) == flagged


def test_a_failed_read_still_speaks_of_the_record_said_found() -> None:
    """"Order not found" from a read: the order said found and pending is contradicted by it."""
    tools = [call("get_order_details", "Error: Order not found", "error")]
    report = CHECKER.check("I found order #W9502127 and it is pending.", tools)
    assert any(f.verdict.flagged for c in report.claims for f in c.facts if f.kind == FactKind.STATUS)


REDELIVERY_REJECTED = call("request_redelivery", {"result": "REJECTED", "message": "Item already at the post office"})
DISPUTE_OPENED = call("create_dispute_case", {"case_no": "DS1", "status": "opened"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # no tool of the action's concept ran; the write whose name the action's clause says failed
        ("I've booked a redelivery for tomorrow.", [REDELIVERY_REJECTED, DISPUTE_OPENED], True),
        ("I've booked a redelivery for tomorrow.", [call("request_redelivery", "Error: 503", "error"), DISPUTE_OPENED],
         True),
        # it worked, or the claim's clause names another thing
        ("I've booked a redelivery for tomorrow.", [call("request_redelivery", {"result": "ACCEPTED"}),
                                                     DISPUTE_OPENED], False),
        ("The redelivery request was rejected, but I've booked a pickup slot.", [REDELIVERY_REJECTED, DISPUTE_OPENED],
         False),
    ],
)
def test_an_action_whose_named_write_failed(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.kind == FactKind.ACTION]
    assert any(f.verdict == Verdict.CONTRADICTED and f.code == "tool_error" for f in facts) == flagged, \
        [(f.text, f.verdict, f.reason) for f in facts]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("卡片已冻结，后续不会再被扣款。", True),  # freeze_card names the freeze: its error contradicts it
        ("冻结没有成功，请稍后再试。", False),
    ],
)
def test_a_freeze_said_done_after_freeze_card_failed(answer: str, flagged: bool) -> None:
    tools = [call("freeze_card", "CORE_TIMEOUT: core system timed out", "error"), DISPUTE_OPENED]
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.concept == "freeze"]
    assert any(f.verdict == Verdict.CONTRADICTED for f in facts) == flagged, [(f.text, f.reason) for f in facts]


TRACKS = [call("track", {"waybill": "YT8820013", "status": "delivered"}),
          call("track", {"waybill": "YT8820047", "status": "delivered"}),
          call("track", {"waybill": "YT8820095", "status": "in_transit"})]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the claim sorts several parcels by state: a parcel in the state backs it, not only the latest call
        ("三个包裹里有 2 个已经签收，还有 1 个在运输中。", False),
        ("Two parcels have been delivered and one is still in transit.", False),
        # one state said of the run's parcels: the latest call speaks
        ("您的包裹已经签收。", True),
        # a state of another concept sorts them too ("还在路上" is shipping, "签收" delivery)
        ("也就是 2 个已签收、1 个还在路上。", False),
        # the clause names its parcel by its code: that parcel's own state decides
        ("已签收的是 YT8820095，另一个 YT8820013 还在路上。", True),
        ("已签收的是 YT8820013，另一个 YT8820095 还在路上。", False),
    ],
)
def test_several_records_sorted_by_state(answer: str, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, TRACKS).claims for f in c.facts if f.concept == "delivery"]
    assert any(f.verdict.flagged for f in facts) == flagged, [(f.text, f.verdict, f.reason) for f in facts]


UNLOCK_FAILED = call("unlock_account", "403 Forbidden: tier-1 cannot unlock privileged accounts", "error")
TICKET_OPENED = call("create_ticket", {"ticket": "INC0048817", "status": "new"})


@pytest.mark.parametrize(
    ("answer", "tools", "flagged"),
    [
        # an action said done whose verb names the write that failed, beside another write that went through
        ("Good news: I've unlocked it, so you can sign in again.", [UNLOCK_FAILED, TICKET_OPENED], True),
        # the write the verb names went through (after a retry too), or the verb names the write that worked
        ("Good news: I've unlocked it, so you can sign in again.",
         [call("unlock_account", {"status": "unlocked"}), TICKET_OPENED], False),
        ("Good news: I've unlocked it, so you can sign in again.",
         [UNLOCK_FAILED, call("unlock_account", {"status": "unlocked"}), TICKET_OPENED], False),
        ("I've logged ticket INC0048817 for the IAM team.", [UNLOCK_FAILED, TICKET_OPENED], False),
    ],
)
def test_a_done_verb_that_names_a_failed_write(answer: str, tools: list, flagged: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.kind == FactKind.ACTION]
    assert any(f.verdict == Verdict.CONTRADICTED and f.code == "tool_error" for f in facts) == flagged, \
        [(f.text, f.verdict, f.reason) for f in facts]
