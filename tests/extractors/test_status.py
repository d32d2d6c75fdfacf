"""Status mentions: concept, polarity, negation and hedges, in both languages."""

import pytest

from factcheck import FactChecker

CHECKER = FactChecker()


def statuses(text: str) -> list[tuple[str | None, str]]:
    return [(s.concept, s.polarity) for s in CHECKER._statuses.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("已为您成功退款", [("refund", "positive")]),
        ("退款未成功", [("refund", "negative")]),
        ("未退款", [("refund", "negative")]),
        ("所以这次没有派送成功", [("delivery", "negative")]),  # the negator stands before the concept word
        # a parcel being delivered is out for delivery, not delivered ("已在派送": 已 marks the start, not the end)
        ("包裹今天已经在派送了", [("delivery", "pending")]),
        ("目前已在派送，请保持电话畅通", [("delivery", "pending")]),
        ("未发货的订单退款成功", [("shipping", "negative"), ("refund", "positive")]),
        ("您的退款申请已通过审核", [("refund", "positive")]),  # 申请 holds 请 but is no hedge
        ("请您稍后确认退款成功", []),
        # only a concept word right before the status word carries a negator before it to it
        ("Not run: the publish step already ran successfully", [("publish", "positive")]),
        ("The bank rejected it because it couldn't locate that account", [("account", "negative")]),
        ("没有退款", [("refund", "negative")]),
        ("退款失败", [("refund", "negative")]),
        ("订单已经发货", [("shipping", "positive")]),
        # the verb right after 成功 is what succeeded, not the record named before it
        ("该订单已于今日成功取消", [("cancel", "positive")]),
        # an attempt states nothing done
        ("我尝试直接创建索赔", []),
        ("I tried to cancel it", []),
        ("已于 9月20日 晚上签收", [("delivery", "positive")]),
        ("35 台已被订单预留", []),  # the orders reserved them: no completed order
        ("没有找到相关案例", [("search", "negative")]),
        ("Your refund has been approved", [("refund", "positive")]),
        ("The refund was not refunded", [("refund", "negative")]),
        ("Your payment did not go through", [("payment", "negative")]),
        ("The refund could not be processed", [("refund", "negative")]),
        ("I found 3 cases", [("search", "positive")]),
        ("No matching cases were found", [("search", "negative")]),
        ("Your table is confirmed", [("booking", "positive")]),
        ("neither search found a booking", [("search", "negative")]),
        # a concept word joined into a name says nothing of its concept
        ("build_revenue_mart never ran, even though extract_orders succeeded", [(None, "positive")]),
        # a status after a promised time ("3到5个工作日", "3 天内") is a promise, not a fact
        ("大约3到5个工作日到账", []),
        ("款项 3 天内到账", []),
        ("退款已到账", [("refund", "positive")]),
        # the clause after an opening condition claims nothing
        ("If it stays there at the cutoff, each missing night is charged", []),
        ("如果超过截止时间，订单将自动取消", []),
        ("如果超过截止时间，订单已取消", []),
        ("Your refund was issued, if you were wondering", [("refund", "positive")]),
        # "reset" after a determiner, or in "password reset", is the thing, not a claimed reset
        ("The reset was denied", [("account", "negative")]),
        ("The reset failed", [("account", "negative")]),
        ("I've sent a password reset link", [("send", "positive")]),
        ("I've reset your password", [("account", "positive")]),
        ("Flight UA88 is on time", [("on_time", "positive")]),
        ("航班已延误", [("on_time", "negative")]),
        ("The lamp is out of stock", [("stock", "negative")]),
        ("这款耳机目前有货", [("stock", "positive")]),
        ("0 in stock at all warehouses", [("stock", "negative")]),  # the number 0 right before negates
        ("10 in stock", [("stock", "positive")]),
        ("收货地址已改为体育西路 101 号", [("update", "positive")]),
        ("如需修改，可以改为其他地址", []),  # hedged
        ("如果退款成功，我们会通知您", []),
        ("Please wait until the refund is processed", []),
        ("退款审核通过后会原路退回", []),
        # what can, would or must be done is no fact
        ("It can be cancelled for free until July 10", []),
        ("The first night would be charged", []),
        ("It must be paid by 20 March", []),
        ("I can confirm the refund was processed", [("refund", "positive")]),
        ("Your refund has been issued", [("refund", "positive")]),
        # a negation carries over "or" to the next status word, not over "and" or a new clause
        ("I haven't cancelled it or issued a refund yet", [("cancel", "negative"), ("refund", "negative")]),
        ("The order was not cancelled and the refund was issued", [("cancel", "negative"), ("refund", "positive")]),
        ("没有取消订单，也没退款", [("cancel", "negative"), ("refund", "negative")]),
        # what will or would happen is no fact; a negation in its past form
        ("You'll be notified by email if a seat opens up", []),
        ("After that, you'd be charged for the first night", []),
        ("The order hadn't shipped yet", [("shipping", "negative")]),
        ("已为您关闭自动续费", [("cancel", "positive")]),
        ("目前 auto-renew 是关闭的", []),  # a state, no action
        ("I've switched the reservation to a standard SUV", [("update", "positive")]),
        # a concept word inside a hyphenated name is no concept
        ("payments-api finished rolling out successfully", [(None, "positive")]),
        # a concept word inside an aside closed before the status word is not its subject
        ("The refund (order 88231) succeeded", [("refund", "positive")]),
        ("Transfer to Lucia (CaixaBank, account ending 7781) completed", [(None, "positive")]),
        # the month May before a day is a date, not the hedge "may"
        ("Reservation K8P2QD (May 22–25) is now cancelled", [("cancel", "positive")]),
        ("The booking may be cancelled", []),
        # an alternative keeps the hedge of the clause it adds to
        ("可以在派送时联系快递员协商，或申请改为驿站自提", []),
        ("We'll need a different username, or the old account released, before I can retry", []),
        ("派送时联系了快递员，已改为驿站自提", [("update", "positive")]),
        # a clause opened by "nothing" negates its verb however far; "none of" is read whole by other checks
        ("Sorry, so nothing on order #W5120988 has changed.", [("update", "negative")]),
        ("Nothing on your order has changed — it was delivered.", [("update", "negative"), ("delivery", "positive")]),
        ("None of your other orders has any problem — they have all been delivered.", [("delivery", "positive")]),
    ],
)
def test_statuses(text, expected) -> None:
    assert statuses(text) == expected


@pytest.mark.parametrize(
    ("value", "field_concept", "expected"),
    [
        # a tool's status value is also read as what it says of its field's concept
        ("cancelled", "booking", [("cancel", "positive"), ("booking", "negative")]),
        ("CANCELED", "order", [("cancel", "positive"), ("order", "negative")]),
        ("已取消", "booking", [("cancel", "positive"), ("booking", "negative")]),
        ("cancelled", None, [("cancel", "positive")]),
        ("cancelled", "cancel", [("cancel", "positive")]),
        ("not cancelled", "booking", [("cancel", "negative")]),  # not cancelled is not booked either
        ("confirmed", "booking", [("booking", "positive")]),
        ("shipped", "order", [("shipping", "positive")]),  # no field polarity: speaks of shipping only
        # a hedged status in a tool's text is no fact either (a remark about what comes next)
        ("质检通过后 1-3 个工作日内原路退回", None, []),
        ("跨行转账，预计 2 小时内到账", None, []),
        ("The refund is expected to arrive in 3 days", None, []),
        ("退款已原路退回", None, [("refund", "positive")]),
    ],
)
def test_tool_values_speak_of_their_field(value: str, field_concept: str | None, expected: list) -> None:
    found = CHECKER._statuses.extract(value, default_concept=field_concept, claims=False)
    assert [(s.concept, s.polarity) for s in found] == expected


def test_answers_are_not_read_for_a_field() -> None:
    found = CHECKER._statuses.extract("Your booking was cancelled", default_concept="booking")
    assert [(s.concept, s.polarity) for s in found] == [("cancel", "positive")]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("没有检索到与「支付成功 订单未生成」相关的案例。", [("search", "negative")]),
        ("最相关的是「打印机无法连接 Wi-Fi」。", [("search", "positive")]),
        ('I searched for "refund failed" and found 2 cases.', [("search", "positive")]),
        ("订单状态为「已发货」。", [("shipping", "positive")]),  # a quoted status word alone still states it
        ('The status is "shipped".', [("shipping", "positive")]),
        ("《退款成功指南》已发送。", [("send", "positive")]),
    ],
)
def test_quoted_titles_state_no_status(answer: str, expected: list) -> None:
    facts = [f for c in CHECKER._claims.extract(answer) for f in c.facts if f.polarity]
    assert [(f.concept, f.polarity) for f in facts] == expected


def test_words_inside_links_are_not_statuses() -> None:
    report = CHECKER.check("![图](https://example.com/images/generated_6a7b.png)")
    kinds = {f.kind.value for c in report.claims for f in c.facts}
    assert kinds == {"url"}


@pytest.mark.parametrize(
    ("text", "concept", "action"),
    [
        ("已为订单 88231 退款", "refund", True),  # 已为 reaches past its object, the order, to the refund
        ("已为您生成两张新图片", "image", True),
        ("已为您的退款申请加急处理", None, None),  # 退款 names the 申请: no refund is claimed done
        # the submission is claimed done, as 已提交退款申请 and "I've submitted your refund request" are
        ("已为您提交退款申请", "refund", True),
        ("我已经帮您把自动续费关掉了", "cancel", True),  # turned off, as "turned off"
        ("已把集合时间和地点短信发到您的手机上", "send", True),  # 把 brings its object before the act: it is done
        ("已经把 2 个收纳袋从订单 SO-55910 里去掉了", None, None),  # the order is where they came from, no act
        ("自动还款已经帮你开通好了", "account", True),  # enabled, as 已开通
        ("The $163.99 has already been credited back to your gift card.", "refund", True),
        ("The refund of $249.99 has been credited to your Visa ending 7716.", "refund", True),
    ],
)
def test_completion_markers_that_reach_past_their_object(text, concept, action) -> None:
    from factcheck import check

    report = check(text, tool_calls=[{"name": "get_user", "args": {}, "output": {"u": 1}}])
    actions = [f for c in report.claims for f in c.facts if f.kind.value in ("action", "status")]
    if concept is None:
        assert not actions
    else:
        assert actions[0].concept == concept


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a negator does not reach past a table cell's bar or into an open parenthesis
        ("Move to 14B was not possible (seat unavailable)", [(None, "negative")]),
        ("| 王子墨 | 婴儿（不占座） | ❌ 未成功 | — |", [(None, "negative")]),
        ("| 未发货 | 已取消 |", [("shipping", "negative"), ("cancel", "positive")]),
        ("The item is not available | in stock", [("stock", "positive")]),
        # a closed parenthesis between them leaves the negator its reach
        ("It has not (yet) shipped", [("shipping", "negative")]),
        ("It has not shipped (tracking pending)", [("shipping", "negative"), (None, "pending")]),
    ],
)
def test_a_negator_stays_in_its_part(text, expected) -> None:
    assert statuses(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a negative term is turned round only by a negator right before it, not by one of the verb before it
        ("因合约未结清被拒（错误码 E409）", [(None, "negative")]),
        ("We could not pay it: card declined", [(None, "negative")]),
        ("未被拒", [(None, "positive")]),
        ("The transfer was not rejected", [(None, "positive")]),
        ("It hasn't been rejected", [(None, "positive")]),
        ("没有失败", [(None, "positive")]),
        # a positive term keeps the wider reach
        ("还没有给您退款", [("refund", "negative")]),
    ],
)
def test_a_negative_term_takes_only_a_negator_right_before_it(text, expected) -> None:
    assert statuses(text) == expected
