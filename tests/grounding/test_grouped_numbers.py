"""Phone and meter numbers written in groups: one identifier, found in a tool's grouped or plain form."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
S, U, C = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED
LINES = {"name": "get_lines", "args": {"account": "A1"}, "status": "ok", "output": {"lines": [
    {"msisdn": "0421338910", "holder": "Maya", "status": "active"},
    {"msisdn": "+1 415-555-0143", "holder": "Sam", "status": "suspended"},
    {"msisdn": "447700900511", "holder": "Ahmed", "status": "active"}]}}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call 0421 338 910 today", [("identifier", "0421338910")]),
        ("call (415) 555-0143 today", [("identifier", "4155550143")]),
        ("call +44 7700 900412 today", [("identifier", "447700900412")]),
        ("call 07700 900412 today", [("identifier", "07700900412")]),
        ("lines +31 6 12345601 and", [("identifier", "31612345601")]),
        ("and 555-0102", [("identifier", "5550102")]),
        # not a phone: an amount with cents, two years, a short range, an identifier's own part
        ("amount 14250.00", [("number", "14250")]),
        ("the 2025-2026 school year", [("number", "2025"), ("number", "2026")]),
        ("3-5 days", [("number", "3"), ("number", "5")]),
    ],
)
def test_digits_in_groups_are_one_identifier(text: str, expected: list) -> None:
    got = [(m.kind.value, m.value) for m in CHECKER._mentions.extract(text)
           if m.kind in (FactKind.IDENTIFIER, FactKind.NUMBER)]
    assert got == expected


@pytest.mark.parametrize(
    ("answer", "said", "expected"),
    [
        ("Maya's line 0421 338 910 is active.", "0421 338 910", S),
        ("Sam's line (415) 555-0143 is suspended.", "(415) 555-0143", S),
        ("Sam's line +1 415 555 0143 is suspended.", "+1 415 555 0143", S),
        # the national form: a trunk 0 where the tool writes the country code
        ("Ahmed (07700 900511) is enabled.", "07700 900511", S),
        ("Ahmed (07700 900512) is enabled.", "07700 900512", U),
        # a digit off is another number, however many of its groups a tool gives
        ("Maya's line 0421 338 911 is active.", "0421 338 911", U),
        ("Sam's line 415-555-0144 is suspended.", "415-555-0144", U),
    ],
)
def test_a_grouped_number_is_compared_by_all_its_digits(answer: str, said: str, expected: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, [LINES]).claims for f in c.facts if f.text == said)
    assert fact.verdict == expected, fact.reason


def test_a_number_several_records_hold_names_none_of_them() -> None:
    calls = {"name": "get_call_detail", "args": {"msisdn": "13817729054"}, "status": "ok", "output": {"records": [
        {"time": "2025-05-02 21:14", "to": "+1 646 555 0182", "duration_min": 12},
        {"time": "2025-05-30 21:47", "to": "+1 646 555 0182", "duration_min": 40}]}}
    report = CHECKER.check("最长的是 5月30日 打给 +1 646 555 0182 的那通，40 分钟。", [calls])
    date = next(f for c in report.claims for f in c.facts if f.text == "5月30日")
    assert date.verdict == S, date.reason


def test_a_write_on_the_line_a_claim_names_gives_its_status() -> None:
    change = {"name": "request_plan_change", "args": {"msisdn": "07700900412", "new_plan": "SMART-30"},
              "status": "ok", "output": {"request_id": "CHG-5521907", "status": "pending_review", "sla_hours": 48}}
    other = {"name": "request_plan_change", "args": {"msisdn": "07700900999", "new_plan": "SMART-30"},
             "status": "ok", "output": {"request_id": "CHG-5521908", "status": "completed"}}
    moved = "Your number 07700 900412 has been moved to Smart 30GB."
    action = next(f for c in CHECKER.check(moved, [change]).claims for f in c.facts if f.text == "moved")
    assert action.verdict == C and "pending" in action.reason, action.reason
    action = next(f for c in CHECKER.check(moved.replace("900412", "900999"), [change, other]).claims
                  for f in c.facts if f.text == "moved")
    assert action.verdict == S, action.reason


CASE = {"name": "get_order", "args": {"order_id": "RF-30917"}, "status": "ok", "output": {
    "order_id": "RF-30917", "status": "on_hold",
    "pa_case": {"id": "PA-2025-114872", "status": "submitted", "expected_decision_by": "2025-05-05"}}}
RUNS = {"name": "jobs_history", "args": {"job": "nightly-export"}, "status": "ok", "output": [
    {"run_id": "r-9921", "status": "succeeded"}, {"run_id": "r-9890", "status": "failed"}]}
RETRY = {"name": "retry_job", "args": {"job": "nightly-export"}, "status": "ok", "output": {"queued": True}}
CERTS = {"name": "list_certificates", "args": {"account_id": "AC-1"}, "status": "ok", "output": {"certificates": [
    {"cert_no": "ZK-118862", "holder_name": "Zhang Xiaofeng", "status": "valid"}]}}
REISSUE = {"name": "request_reissue", "args": {"cert_no": "ZK-118862"}, "status": "ok",
           "output": {"ticket_id": "RI-55093", "cert_no": "ZK-118862", "status": "submitted"}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # a status of no concept said of a record named by its key, against that record's own status
        ("Your prior authorization (PA-2025-114872) was approved.", [CASE], "approved", C),
        ("Run r-9890 succeeded.", [RUNS, RETRY], "succeeded", C),
        ("Run r-9921 succeeded.", [RUNS, RETRY], "succeeded", S),
        # a list after a colon, another record's key in a ticket, a denied failure: not that record's status
        ("4 succeeded and 1 failed: run r-9890 hit AccessDenied.", [RUNS], "succeeded", S),
        ("Certificate ZK-118862 was issued to Zhang Xiaofeng.", [CERTS, REISSUE], "issued", S),
    ],
)
def test_a_status_said_of_a_keyed_record_is_its_own(answer: str, tools: list, said: str, expected: Verdict) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    assert fact.verdict == expected, fact.reason
