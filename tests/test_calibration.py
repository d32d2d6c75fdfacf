"""The calibration table: fitting, confidences, abstention below the threshold, and bad files."""

import json

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.calibration import Calibration, fit
from factcheck.config import DEFAULT_MIN_CONFIDENCE
from factcheck.policy import apply_on_fail

REFUND_FAILED = {"name": "refund", "args": {"order_id": "88231"}, "output": {"refund_status": "FAILED"},
                 "status": "ok"}
ANSWER = "Your refund succeeded."


def table_file(tmp_path, bias: float, weights: dict[str, float] | None = None):
    path = tmp_path / "cal.json"
    Calibration(bias=bias, weights=weights or {}).save(path)
    return path


def test_fit_is_deterministic_and_orders_features_by_their_outcomes() -> None:
    samples = [(["kind:url"], True)] * 30 + [(["kind:url"], False)] * 2 + [(["kind:name"], True)] * 3 + [
        (["kind:name"], False)
    ] * 27
    first, second = fit(samples), fit(samples)
    assert first == second
    url, name = first.confidence(["kind:url"]), first.confidence(["kind:name"])
    assert url > 0.85 and name < 0.2
    assert first.samples == 62 and first.positives == 33
    # an unknown feature weighs nothing
    assert first.confidence(["kind:never-seen"]) == first.confidence([])


def test_fit_needs_samples() -> None:
    with pytest.raises(ValueError, match="no flagged facts"):
        fit([])


def test_every_flag_gets_a_confidence_from_the_table(tmp_path) -> None:
    sure = FactChecker(CheckerConfig(calibration_path=table_file(tmp_path, 5.0)))
    report = sure.check(ANSWER, [REFUND_FAILED])
    fact = report.claims[0].facts[0]
    assert fact.verdict == Verdict.CONTRADICTED and fact.confidence == pytest.approx(0.9933, abs=1e-4)
    assert not fact.uncertain and not report.ok and report.claims[0].confidence == fact.confidence


def test_a_flag_below_the_threshold_is_kept_but_does_not_count(tmp_path) -> None:
    unsure = FactChecker(CheckerConfig(calibration_path=table_file(tmp_path, -5.0), min_confidence=0.5))
    report = unsure.check(ANSWER, [REFUND_FAILED])
    claim, fact = report.claims[0], report.claims[0].facts[0]
    assert fact.verdict == Verdict.CONTRADICTED and fact.uncertain and not fact.flagged
    assert report.ok and claim.uncertain and not claim.flagged and report.uncertain == [claim]
    assert "uncertain" in claim.reason and "uncertain" in str(report)
    assert json.loads(report.model_dump_json())["claims"][0]["facts"][0]["uncertain"] is True
    # no downgrade touches it: the answer is given as it is
    assert apply_on_fail(report, "drop") == ANSWER
    # with min_confidence 0 the same flag counts
    strict = FactChecker(CheckerConfig(calibration_path=table_file(tmp_path, -5.0), min_confidence=0))
    assert not strict.check(ANSWER, [REFUND_FAILED]).ok


def test_the_same_answer_gives_the_same_confidences() -> None:
    checker = FactChecker()
    one, two = (checker.check("您的包裹已送到 5 栋。", [{"name": "get_delivery", "args": {},
                                                        "output": {"address": "3 栋"}, "status": "ok"}])
                for _ in range(2))
    assert one.model_dump(exclude={"elapsed_ms"}) == two.model_dump(exclude={"elapsed_ms"})


@pytest.mark.parametrize(
    ("answer", "tools"),
    [
        # seed 000: published with a link and a registration number, no call at all
        ("文章已发布成功！链接：https://mp.weixin.qq.com/s/AbC123xYz，登记号 DJ-2026-88231。", []),
        ("已为您发布到公众号并完成版权登记。", []),
        # seed 001: an image narrated with a URL and no call
        ("又为您生成了两张：https://cdn.example.com/img/8841.png", []),
        ("已为您成功退款，订单号 88231。", [{"name": "refund", "args": {"order_id": "88231"},
                                     "output": "refund result: 失败，订单号 88231 未退款", "status": "ok"}]),
        ("I found 3 matching orders for you.", [{"name": "search_orders", "args": {"q": "x"},
                                                  "output": {"orders": [], "total": 0}, "status": "ok"}]),
    ],
)
def test_seed_incidents_are_still_caught_at_the_default_threshold(answer, tools) -> None:
    report = FactChecker().check(answer, tools)
    assert not report.ok
    assert max(c.confidence or 0 for c in report.flagged) >= DEFAULT_MIN_CONFIDENCE


def test_an_action_narrated_with_no_tool_call_at_all_is_certain() -> None:
    report = FactChecker().check("已为您发布到公众号并完成版权登记。", [])
    assert report.flagged[0].confidence == 1.0


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "cannot read calibration file"), ('{"version": 99}', "version 99")],
)
def test_a_bad_calibration_file_is_a_clear_error(tmp_path, content, message) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        FactChecker(CheckerConfig(calibration_path=path))


def test_the_shipped_table_loads_and_says_what_it_was_fitted_on() -> None:
    table = Calibration.load()
    assert table.samples > 0 and table.weights and "real-fit" in table.fitted_on


def _reads(n: int) -> list[dict]:
    """Unrelated successful reads, as a realistic run holds beside the call that matters."""
    return [{"name": f"get_item_{i}", "args": {"id": str(i)}, "output": {"item_id": f"IT{i}00", "price": 10 + i},
             "status": "ok"} for i in range(n)]


@pytest.mark.parametrize("answer", ["The refund was successful.", "已为您成功退款。", ANSWER])
def test_unrelated_reads_never_make_a_contradiction_look_safer(answer) -> None:
    checker = FactChecker()
    confidences = [checker.check(answer, _reads(n) + [REFUND_FAILED]).claims[0].confidence for n in (0, 1, 5, 20)]
    assert confidences[0] is not None and len(set(confidences)) == 1, confidences


def test_a_second_false_claim_never_makes_the_first_look_safer() -> None:
    checker = FactChecker()
    refunds = [{"name": "refund_order", "args": {"order_id": str(100 + i)},
                "output": {"order_id": str(100 + i), "refund_status": "failed"}, "status": "ok"} for i in range(5)]
    one = checker.check("Order 100 has been refunded.", refunds[:1])
    five = checker.check(" ".join(f"Order {100 + i} has been refunded." for i in range(5)), refunds)
    first = one.claims[0].confidence
    assert first is not None and all(c.confidence is not None and c.confidence >= first for c in five.claims)


@pytest.mark.parametrize(
    "answer",
    [
        "Your refund of $45 was successful.",  # a second, unbacked fact in the same claim
        "Your refund of $45 to card 4471 was successful.",
    ],
)
def test_an_unbacked_fact_beside_a_contradiction_never_makes_it_look_safer(answer) -> None:
    checker = FactChecker()
    tools = [REFUND_FAILED]
    alone = checker.check("Your refund was successful.", tools).claims[0].facts[0].confidence
    status = next(f for f in checker.check(answer, tools).claims[0].facts if f.kind.value == "status")
    assert alone is not None and status.confidence is not None and status.confidence >= alone


_READS = [{"name": f"get_item_{i}", "args": {"id": str(i)}, "output": {"item_id": f"IT{i}00", "price": 10 + i},
           "status": "ok"} for i in range(20)]
_FAILED = {"name": "refund_order", "args": {"order_id": "88231"},
           "output": {"order_id": "88231", "refund_status": "failed", "message": "refund failed: card expired"}}


@pytest.mark.parametrize("reads", [0, 1, 5, 20])
@pytest.mark.parametrize("answer", ["The refund was successful.", "已为您成功退款。"])
def test_the_refund_seed_is_caught_at_0_9_whatever_the_unrelated_reads(answer, reads) -> None:
    report = FactChecker().check(answer, [*_READS[:reads], _FAILED])
    assert report.flagged and min(c.confidence or 0 for c in report.flagged) >= 0.9


def test_five_false_refund_claims_each_keep_their_confidence() -> None:
    fails = [{"name": "refund_order", "args": {"order_id": str(100 + i)},
              "output": f"refund of order {100 + i} failed", "status": "ok"} for i in range(5)]
    one = FactChecker().check("Order 100 has been refunded.", [*_READS[:5], fails[0]])
    five = FactChecker().check(" ".join(f"Order {100 + i} has been refunded." for i in range(5)), [*_READS[:5], *fails])
    confidences = [f.confidence for c in five.claims for f in c.facts if f.verdict.flagged]
    assert len(confidences) == 5 and min(confidences) >= 0.9
    assert min(confidences) >= max(f.confidence or 0 for c in one.claims for f in c.facts if f.verdict.flagged)


@pytest.mark.parametrize("answer", ["已为您生成两张新图片。", "已为您预订好。", "I've booked the flight for you."])
def test_an_action_the_agent_narrates_after_reads_only_is_an_unbacked_action(answer) -> None:
    report = FactChecker().check(answer, [{"name": "get_user", "args": {}, "output": {"user": "u1"}}])
    actions = [f for c in report.claims for f in c.facts if f.code == "no_tool_call"]
    assert actions and actions[0].strength == "no-write" and actions[0].confidence >= 0.9


_UPDATED = {"name": "update_reservation_flights", "args": {"reservation_id": "R1"}, "output": {"status": "updated"}}
_FIND_BY_EMAIL = {"name": "find_user_id_by_email", "args": {"email": "emma@example.com"}, "output": "emma_7"}
_CANCELLED = {"name": "cancel_pending_order", "args": {"order_id": "#W9284598"}, "output": {"status": "cancelled"}}
_SENDER = {"name": "send_email", "args": {"to": "emma@example.com"}, "output": {"status": "queued"}}


@pytest.mark.parametrize(
    ("answer", "calls", "strength"),
    [
        # a message the agent says it sent, where no call of the run sends anything, whatever else it wrote
        ("I've also emailed you the updated itinerary.", [_UPDATED], "no-write"),
        ("已为您设置就诊前一天的短信提醒。", [_UPDATED], "no-write"),
        # "sent" names no message ("I've sent the transfer"): only the run's calls being reads make it so
        ("I've sent the renewal request to your doctor.", [_UPDATED], "no-call"),
        ("I've sent the transfer to marcus@example.com.", [_UPDATED], "no-call"),
        # a message the claim names, after a curly apostrophe as real agents write it
        ("I’ve sent the updated order confirmation to emma@example.com.", [_UPDATED], "no-write"),
        ("I've also emailed you the itinerary.", [{"name": "get_user", "args": {}, "output": {"user": "u1"}}],
         "no-write"),
        # said sent by no one in particular ("has been sent", 已发送) it is the run's message all the same, and a read
        # whose name holds a message word (find_user_id_by_email) sends none
        ("A cancellation confirmation email has been sent to emma@example.com.", [_FIND_BY_EMAIL, _CANCELLED],
         "no-write"),
        ("Confirmation email 已发送到 li.na@example.com。", [_UPDATED], "no-write"),
        # but the run did call a sender
        ("A confirmation email has been sent to emma@example.com.", [_CANCELLED, _SENDER], None),
    ],
)
def test_a_message_no_call_could_have_sent_is_an_unbacked_action(answer, calls, strength) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, calls)
    actions = [f for c in report.claims for f in c.facts if f.code == "no_tool_call" and f.concept == "send"]
    if strength is None:  # a call of the run sends: no unbacked send
        assert not actions, actions
        return
    assert actions and actions[0].strength == strength, actions


def test_a_record_history_after_reads_is_no_narrated_action_of_the_agent() -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(
        "A $38.00 late fee was added.", [{"name": "get_rental", "args": {}, "output": {"late_fee": 38}}])
    assert all(f.strength != "no-write" for c in report.claims for f in c.facts)


_QUOTE = {"name": "quote_express", "args": {"to": "成都"}, "output": {"total": 127, "eta_days": 3}, "status": "ok"}
_PICKUP = {"name": "create_pickup_order", "args": {"date": "2025-03-19"}, "status": "error",
           "output": "ERR_CAPACITY_FULL: 2025-03-19 上午时段运力已满，请选择其他时段"}
_ISSUED = {"name": "create_pickup_order", "args": {"date": "2025-03-18"}, "status": "ok",
           "output": {"pickup_id": "PK-1", "status": "created"}}


@pytest.mark.parametrize(
    ("calls", "strength"),
    [
        # the run's one write failed: its error speaks of the action the agent says it did, whatever its name
        ([_QUOTE, _PICKUP], "own-tool"),
        # another call of the same tool went through: the failed one may be another pickup than the one said
        ([_QUOTE, _ISSUED, _PICKUP], "other-tool"),
    ],
)
def test_a_failed_write_is_the_acting_tools_own_evidence_when_it_is_the_runs_only_one(calls, strength) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check("已为您预约明天上午上门取件。", calls)
    flags = [f for c in report.claims for f in c.facts if f.code == "tool_error"]
    assert flags and flags[0].strength == strength


_INTERCEPT_FAILED = {"name": "intercept_shipment", "args": {"waybill": "YT9981203374566"}, "status": "ok",
                     "output": {"result": "FAILED", "code": "E_OUT_FOR_DELIVERY",
                                "message": "快件已在派送中，无法发起拦截"}}
_INTERCEPT_QUEUED = {**_INTERCEPT_FAILED, "output": {"result": "QUEUED", "message": "拦截申请处理中"}}


@pytest.mark.parametrize(
    ("answer", "calls", "flagged"),
    [
        # a submission said done where the acting write's own field says it failed: as strong as a success said
        ("拦截申请已提交成功，包裹会退回给您。", [_INTERCEPT_FAILED], True),
        ("Your intercept request has been submitted.", [_INTERCEPT_FAILED], True),
        # the write's own field says it is queued: a submission is what it is
        ("拦截申请已提交成功，包裹会退回给您。", [_INTERCEPT_QUEUED], False),
    ],
)
def test_a_submission_against_its_writes_failed_field(answer: str, calls: list, flagged: bool) -> None:
    facts = [f for c in FactChecker().check(answer, calls).claims for f in c.facts if f.kind.value == "action"]
    assert any(f.verdict.flagged for f in facts) is flagged
    assert not flagged or any(f.strength == "not-done-field" and (f.confidence or 0) >= 0.7 for f in facts)


_PASSENGERS = {"name": "get_reservation_details", "args": {"reservation_id": "R1"}, "status": "ok", "output": {
    "passengers": [{"first_name": "Ana", "last_name": "Ruiz", "dob": "1984-07-29"},
                   {"first_name": "Leo", "last_name": "Ruiz", "dob": "2015-11-02"}]}}


@pytest.mark.parametrize(
    ("answer", "swapped"),
    [
        # two records' values traded: each flag's evidence is the other's record, at least 0.9 each
        ("Ana Ruiz was born on November 2, 2015 and Leo Ruiz on July 29, 1984.", True),
        # one value of another record: its confidence is its own
        ("Ana Ruiz was born on November 2, 2015 and Leo Ruiz on November 2, 2015.", False),
    ],
)
def test_a_swap_of_two_records_values_is_evidence_of_its_own(answer, swapped) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, [_PASSENGERS])
    wrong = [f for c in report.claims for f in c.facts if f.code == "wrong_record"]
    assert wrong
    assert all((f.strength == "swapped") == swapped for f in wrong)
    if swapped:
        assert len(wrong) == 2 and min(f.confidence or 0 for f in wrong) >= 0.9

