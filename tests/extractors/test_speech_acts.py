"""Speech acts: offers, questions, policy and the user's request keep only their exact facts."""

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.extractors.speech_acts import SpeechActClassifier
from factcheck.lexicon import load_lexicon
from factcheck.report import FactKind, SpeechAct, Verdict

CLASSIFY = SpeechActClassifier(load_lexicon()).classify
CHECKER = FactChecker(CheckerConfig(min_confidence=0))


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Would you like me to cancel order #W5061109?", SpeechAct.OFFER),
        ("Is there anything else I can help you with?", SpeechAct.OFFER),
        ("- **Please confirm** if you want to proceed with the exchange.", SpeechAct.OFFER),
        ("I will process the refund once you confirm.", SpeechAct.OFFER),
        ("I am processing your cancellation now.", SpeechAct.OFFER),
        ("是否需要我帮您取消这个订单？", SpeechAct.OFFER),
        ("如果您确认，我会为您办理退货。", SpeechAct.OFFER),
        ("You can only exchange delivered orders, according to our policy.", SpeechAct.POLICY),
        ("根据规定，已发货的订单只能申请退货。", SpeechAct.POLICY),
        ("You'd like to return the Smart Watch from order #W9389413.", SpeechAct.REQUEST),
        ("您希望把收货地址改成上海。", SpeechAct.REQUEST),
        # "as you asked" opens what was done, not the user's request
        ("按您的要求，工资卡已更换成功。", SpeechAct.ASSERTION),
        ("Please note that your refund has failed.", SpeechAct.ASSERTION),
        ("I can confirm that your order has been delivered.", SpeechAct.ASSERTION),
        ("Your order #W5061109 is pending.", SpeechAct.ASSERTION),
        # a bare verb opens a step or an option put to the user, not something done
        ("b) Cancel the entire pending order #W1603792, then place a new order.", SpeechAct.REQUEST),
        ("1) Update the shipping address on pending order #W1092119", SpeechAct.REQUEST),
        ("- Refund: $20 to PayPal", SpeechAct.ASSERTION),
        ("Return requested for item 1.", SpeechAct.ASSERTION),
        ("Cancelled order #W1.", SpeechAct.ASSERTION),
    ],
)
def test_a_claim_is_classified_by_its_words(text: str, act: SpeechAct) -> None:
    assert CLASSIFY(text, []) == act


def test_a_completed_action_is_an_action() -> None:
    report = CHECKER.check("I have cancelled your order.", [])
    assert report.claims[0].act == SpeechAct.ACTION


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # an offer claims no cancellation, so no missing cancel call flags it
        ("Would you like me to cancel order #W5061109?", False),
        # ...but an identifier inside it must still come from a tool
        ("Would you like me to cancel order #W9999999?", True),
        # the same words as an assertion claim the action
        ("I have cancelled order #W5061109.", True),
    ],
)
def test_only_exact_facts_of_an_offer_are_checked(answer: str, flagged: bool) -> None:
    tools = [{"name": "get_order_details", "args": {}, "output": {"order_id": "#W5061109", "status": "pending"},
              "status": "ok"}]
    report = CHECKER.check(answer, tools)
    assert (not report.ok) == flagged
    if report.claims[0].act != SpeechAct.ASSERTION and report.claims[0].act != SpeechAct.ACTION:
        assert all(f.kind not in (FactKind.STATUS, FactKind.ACTION) for f in report.claims[0].facts)


def test_a_flagged_offer_keeps_its_act_in_the_report() -> None:
    report = CHECKER.check("Would you like me to cancel order #W9999999?", [])
    claim = report.claims[0]
    assert claim.act == SpeechAct.OFFER and claim.verdict == Verdict.UNSUPPORTED
    assert "(offer)" in str(report)


@pytest.mark.parametrize(
    ("answer", "act"),
    [
        # an action said done before the rule of thumb: the claim reports it, the timing after it is no policy
        ("已为您成功取消订单 HX2P9L，票款将原路退回，一般 5–7 个工作日到账。", SpeechAct.ASSERTION),
        ("Your payment for order #10482 went through; refunds usually take 3–5 days.", SpeechAct.ASSERTION),
        # the rule first, or a state with no completion marker before it: a statement of policy
        ("一般 5–7 个工作日到账，订单取消后票款原路退回。", SpeechAct.POLICY),
        ("Orders that are pending can only be cancelled in full.", SpeechAct.POLICY),
        # the agent says it acted after the rule that let it: the rule is the reason, the claim reports the act
        ("The line is eligible for a refund, so I've refunded $7.48 to your Visa.", SpeechAct.ACTION),
        ("Refunds are eligible within 30 days, and refunds are issued to the original card.", SpeechAct.POLICY),
        # the completion marker is a past change's, not the state word's: still policy
        ("副卡改成 19 元套餐时系统报错：本账期已经在 4 月 3 日变更过一次套餐，每个账期只能变更一次。",
         SpeechAct.POLICY),
        # the rule in a reason clause after an action said of a record: the claim reports the action
        ("#W3307942 (Monitor Arm): cancelled; the refund goes to your card, since gift-card refunds are only "
         "allowed for orders paid by gift card.", SpeechAct.ACTION),
        ("Gift-card refunds are only allowed for orders paid by gift card, since the card is closed.",
         SpeechAct.POLICY),
    ],
)
def test_a_completed_action_before_a_policy_word_keeps_the_claim_an_assertion(answer: str, act: SpeechAct) -> None:
    assert CHECKER.check(answer, []).claims[0].act in (act, SpeechAct.ACTION if act == SpeechAct.ASSERTION else act)


_FAILED = [
    ("send_certificate", {"user_id": "u1", "amount": 100}, "CompensationError: a certificate was already issued"),
    ("issue_credit", {"msisdn": "15800217734", "amount": 20.0}, "CREDIT_LIMIT_EXCEEDED: 需提交主管审批"),
    ("cancel_pending_order", {"order_id": "#W3307942"}, "ValidationError: order not cancelled"),
]


@pytest.mark.parametrize(
    ("answer", "call"),
    [
        # a voucher or certificate said issued, a credit said refunded, an order said cancelled: each tool failed
        ("已为您发放一张 100 美元的代金券，可在账户中查看。", 0),
        ("20 元也已经退回到您的话费账户里。", 1),
        ("#W3307942 (Monitor Arm): cancelled; the refund goes to your card, since gift-card refunds are only "
         "allowed for orders paid by gift card.", 2),
    ],
)
def test_an_action_whose_own_tool_failed_is_contradicted(answer: str, call: int) -> None:
    name, args, error = _FAILED[call]
    report = CHECKER.check(answer, [{"name": name, "args": args, "output": error, "status": "error"}])
    assert any(f.kind == FactKind.ACTION and f.verdict == Verdict.CONTRADICTED
               for c in report.claims for f in c.facts), report.claims


DELIVERED = [{"name": "get_order_details", "args": {"order_id": "#W7895761"}, "status": "ok",
              "output": {"order_id": "#W7895761", "status": "delivered", "items": [{"name": "Tablet"}]}}]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        # the state a rule rests on, in a clause of its own: the claim asserts it of the record it names
        ("Your order #W7895761 is pending, so it can be cancelled.", True),
        ("Your order #W7895761 is pending, which means it can be cancelled.", True),
        ("The order #W7895761 has been pending, so it cannot be modified.", True),
        ("Order #W7895761 has been delivered, so it can be returned.", False),
        # a question or an offer that opens the claim asserts no state
        ("Would you like to cancel order #W7895761, which is pending?", False),
        ("Is order #W7895761 still pending, so it can be cancelled?", False),
        # the state after the rule's marker is the rule's own
        ("Only orders that are pending can be cancelled.", False),
    ],
)
def test_the_state_a_rule_rests_on_is_asserted(answer: str, flagged: bool) -> None:
    report = CHECKER.check(answer, DELIVERED)
    states = [f for c in report.claims for f in c.facts if f.kind == FactKind.STATUS]
    assert any(f.verdict == Verdict.CONTRADICTED and f.code == "record_state" for f in states) == flagged
