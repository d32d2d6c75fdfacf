"""Grounding verdicts: exact facts exactly, statuses by polarity, numbers by field."""

from decimal import Decimal
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.matcher import Matcher

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention


def verdict(answer: str, tool_calls: list, context: list | None = None) -> Verdict:
    report = CHECKER.check(answer, tool_calls, context or [])
    assert len(report.claims) == 1, report
    return report.claims[0].verdict


def call(name: str, output, status: str = "ok") -> dict:
    return {"name": name, "args": {}, "output": output, "status": status}


S, C, U, V = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED, Verdict.UNVERIFIABLE
_TWO_READINGS = [call("get_deployment", {"state": "in_progress"}), call("get_deployment", {"state": "succeeded"})]
_ADS = {"revenueCents": 9802500, "spendCents": 3125000}
_FEES = {"totalDueCents": 635000, "paidCents": 480000, "outstandingCents": 155000}
_STATEMENT = {"statement_balance": 8426.37, "min_payment": 842.64, "payments": [{"amount": 3000.0}]}
_CHARGES = {"charges": [{"desc": "Tuition", "amount": 6850.0}, {"desc": "Student activity fee", "amount": 185.0},
                        {"desc": "Lab fee – CHEM 221", "amount": 75.0}]}
_LEAVE = {"annual_leave_total": 10, "annual_leave_used": 4, "pending_request": {"days": 2, "status": "pending"}}
_HOLD = {"entryNo": "ABC-1234567-8", "status": "HOLD", "released": False}
_QA = {"errors": 0, "warnings": 3, "warningTypes": ["overflow"]}
_HTTP_402 = 'HTTP 402: {"outstanding_cents": 1799}'


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("已为您成功退款。", [call("refund", {"refund_status": "failed"})], C),
        ("退款没有成功。", [call("refund", {"refund_status": "FAILED"})], S),
        ("Your refund has been approved.", [call("refund", {"status": "declined"})], C),
        ("The refund could not be processed.", [call("refund", {"status": "declined"})], S),
        ("The refund did not go through.", [call("refund", "refund result: FAILED")], S),
        ("Your payment didn’t go through.", [call("pay", {"payment_status": "success"})], C),  # curly apostrophe
        ("We couldn’t find any cases.", [call("search_cases", {"results": []})], S),
        ("Refunded ¥1,299.", [call("refund", {"refund_status": "success", "amount": 1299.0})], S),
        ("退款 1,299 元。", [call("refund", {"refund_amount": 1299})], S),
        ("Refund of $45.", [call("refund", {"refund_amount": 30, "order_amount": 45})], C),
        # "costs" is a plain amount: a refund amount does not speak for it, an item's price may
        ("It costs $12.50.", [call("order", {"refund_amount": 45, "items": [{"price": 12.5}]})], S),
        ("It costs $13.50.", [call("order", {"refund_amount": 45, "items": [{"price": 12.5}]})], U),
        ("The shipping costs $5.", [call("order", {"shipping_fee": 7})], C),
        # a plain amount is also the value of a money field of another name; never of a count's
        ("Each extra bag cost £7.00.", [call("add_bags", {"added": [{"price": 7.0}] * 3, "charged": 21.0})], S),
        ("Each extra bag cost £8.00.", [call("add_bags", {"added": [{"price": 7.0}] * 3, "charged": 21.0})], C),
        ("The bags cost $3.", [call("add_bags", {"charged": 21.0, "total_baggages": 3})], C),
        ("A 15% discount.", [call("quote", {"discount_rate": 0.15})], S),
        ("优惠 9.1 元。", [call("quote", {"discount": 2.1})], C),
        ("订单号 88321。", [call("order", {"order_id": 88231})], U),
        ("订单号 88231。", [call("order", {"order_id": 88231})], S),
        ("找到 3 个案例。", [call("search_cases", {"results": []})], C),
        ("没有找到相关案例。", [call("search_cases", {"results": []})], S),
        ("The most relevant one suggests clearing the cache.", [call("search_cases", {"results": []})], C),
        ("The most relevant one suggests clearing the cache.", [call("search_cases", {"results": [{"id": "a"}]})], S),
        ("其中最相关的是打印机问题。", [call("search_cases", {"total": 0, "cases": []})], C),
        ("I found 2 cases.", [call("search_cases", {"results": [{"id": "a"}, {"id": "b"}]})], S),
        ("已发布，链接 https://x.example/a/1。", [], U),
        ("已发布。", [call("publish_article", "TimeoutError: upstream", "error")], C),
        ("已发布。", [call("publish_article", {"url": "https://x.example/a/1"})], S),
        # a text's key=number pairs are fields: fine_cents is in cents
        ("目前有1.5元的逾期费。", [call("renew_loan", "HTTP 409: renewal blocked; fine_cents=150", "error")], S),
        ("目前有2.5元的逾期费。", [call("renew_loan", "HTTP 409: renewal blocked; fine_cents=150", "error")], U),
        # JSON after an error's status line: its cents field backs the dollars
        ("A past-due balance of $17.99 blocked it.", [call("change_plan", _HTTP_402, "error")], S),
        ("A past-due balance of $17.90 blocked it.", [call("change_plan", _HTTP_402, "error")], C),
        ("发布尚未完成。", [], S),
        ("Total $43.00.", [call("order", {"items": [{"price": 12.5, "qty": 2}, {"price": 18.0, "qty": 1}]})], S),
        ("本单可享 9 折，折后 270 元。", [call("get_member", {"discount": 0.9}), call("get_cart", {"total": 300})], S),
        ("本单可享 9 折，折后 280 元。", [call("get_member", {"discount": 0.9}), call("get_cart", {"total": 300})], U),
        # 八折 is 20% off: a discount given as a percentage taken off or kept backs it, another one does not
        ("这件衣服打八折。", [call("calculate_discount", {"discount_percentage": 20, "discounted_price": 160})], S),
        ("这件衣服打八折。", [call("calculate_discount", {"discount_percentage": 80})], S),
        ("这件衣服打八折。", [call("calculate_discount", {"discount_percentage": 25, "discounted_price": 150})], U),
        ("地址是 3 栋。", [call("address", {"address": "幸福小区5栋302室"})], C),
        ("Shipped on Dec. 3.", [call("ship", {"status": "shipped", "shipped_at": "2026-12-03T10:00:00Z"})], S),
        ("Send it to li@example.com.", [call("ship", {"status": "ok"})], U),
        ("航班 CA1234 准点起飞。", [call("flight_status", {"flight": "CA1234", "status": "DELAYED"})], C),
        ("Flight UA88 is delayed.", [call("flight_status", {"flight": "UA88", "status": "DELAYED"})], S),
        ("The item is out of stock.", [call("check_stock", {"sku": "A1", "in_stock": True})], C),
        ("The item is in stock.", [call("check_stock", {"stock_status": "OUT_OF_STOCK"})], C),
        ("It is out of stock.", [call("check_inventory", "SKU LMP-220: 0 in stock at all warehouses")], S),
        ("Your booking is confirmed.", [call("get_booking", {"booking_status": "cancelled"})], C),
        ("Your booking is confirmed.", [call("get_booking", {"status": "canceled"})], C),
        ("您的预订已确认。", [call("query_booking", {"预订状态": "已取消"})], C),
        ("Your order is confirmed.", [call("lookup", {"order_status": "cancelled"})], C),
        ("Your booking was cancelled.", [call("get_booking", {"booking_status": "cancelled"})], S),
        # digits after a suffix cue end an identifier: never an amount of a field the claim names
        ("退税可以退到尾号0937的卡上。", [call("get_tax", {"taxDue": 12120, "card": "招商银行(尾号0937)"})], S),
        ("退税可以退到尾号0938的卡上。", [call("get_tax", {"taxDue": 12120, "card": "招商银行(尾号0937)"})], U),
        # an identifier may be a field's name: outputs keyed by names
        ("EC2 was flat.", [call("get_costs", {"periods": [{"byService": {"EC2": 1890000, "S3": 612000}}]})], S),
        ("EC3 was flat.", [call("get_costs", {"periods": [{"byService": {"EC2": 1890000, "S3": 612000}}]})], U),
        ("The p95 latency is 842 ms.", [call("get_metrics", {"variant": {"p95LatencyMs": 842}})], S),  # a word of it
        ("The p99 latency is 842 ms.", [call("get_metrics", {"variant": {"p95LatencyMs": 842}})], U),
        # an identifier of letters and digits may be one part of a longer name; an ID's prefix never is
        ("其中 9kx2p 这个 pod 重启过。", [call("get_pods", {"items": [{"name": "indexer-5d8b7c9f4-9kx2p"}]})], S),
        ("其中 9kx2q 这个 pod 重启过。", [call("get_pods", {"items": [{"name": "indexer-5d8b7c9f4-9kx2p"}]})], U),
        ("登记号是 CT-20260922。", [call("get_ledger", {"rows": [{"登记号": "CT-20260922-001"}]})], U),
        # what a search claim says was not found is read from the count of that name, if the output keeps one
        ("QA found no errors.", [call("get_qa_checks", _QA)], S),
        ("QA found no warnings.", [call("get_qa_checks", _QA)], C),
        ("QA found no errors.", [call("get_qa_checks", {"errors": ["E1"], "warnings": []})], C),
        ("QA found no issues.", [call("get_qa_checks", _QA)], C),
        # a dispute or appeal (申诉, 争议) and its status
        ("您的申诉成功了。", [call("list_disputes", {"disputes": [{"status": "REJECTED"}]})], C),
        ("很遗憾，申诉没有成功。", [call("list_disputes", {"disputes": [{"status": "REJECTED"}]})], S),
        ("Your dispute was approved.", [call("list_disputes", {"disputes": [{"status": "REJECTED"}]})], C),
        # customs: cleared customs, 已清关; a record's released: false is no clearance
        ("It has cleared customs and is released.", [call("get_customs_status", _HOLD)], C),
        ("It hasn't cleared customs yet.", [call("get_customs_status", _HOLD)], S),
        ("货物已清关。", [call("get_customs_status", _HOLD)], C),
        ("The lockout is cleared.", [call("get_customs_status", _HOLD)], V),
        # a deploy: rolled out, 已部署; a canary call that failed contradicts it
        ("It has been rolled out to prod.", [call("start_canary", "RolloutAborted: step 1 failed", "error")], C),
        ("It has been rolled out to prod.", [call("start_canary", {"state": "succeeded"})], S),
        ("已部署到生产环境。", [call("start_canary", "RolloutAborted: step 1 failed", "error")], C),
        # a status said of an earlier call ("when I first checked") is compared with every call, not the latest
        ("When I first checked, the rollout was still in progress.", _TWO_READINGS, S),
        ("The rollout is still in progress.", _TWO_READINGS, C),
        ("起初部署还在进行中。", _TWO_READINGS, S),
        # a claim that speaks of a rate may multiply or divide two numbers
        ("Revenue $98,025 on $31,250 spent: $3.14 back per dollar.", [call("get_ads", _ADS)], S),
        ("Revenue $98,025 on $31,250 spent: $3.41 back per dollar.", [call("get_ads", _ADS)], U),
        ("Revenue $98,025 on $31,250 spent: $3.14 back.", [call("get_ads", _ADS)], U),
        # a whole hour said loosely: 点多 is within the hour after it, 左右 within half an hour
        ("审核员上午 9 点多复核。", [call("get_appeal", {"reviewedAt": "2025-11-20T09:12:44+08:00"})], S),
        ("审核员上午 10 点多复核。", [call("get_appeal", {"reviewedAt": "2025-11-20T09:12:44+08:00"})], U),
        ("审核员上午 9 点左右复核。", [call("get_appeal", {"reviewedAt": "2025-11-20T09:12:44+08:00"})], S),
        ("It was reviewed at 9 PM or so.", [call("get_appeal", {"reviewedAt": "2025-11-20T21:12:44+08:00"})], S),
        ("It was reviewed at 8 PM or so.", [call("get_appeal", {"reviewedAt": "2025-11-20T21:12:44+08:00"})], U),
        # a time zone's offset (+08:00) is no time of day
        ("审核员早上 8 点复核。", [call("get_appeal", {"reviewedAt": "2025-11-20T09:12:44+08:00"})], U),
        # what was delivered to an address was sent there
        ("发票已发送到 a@b.cn。", [call("issue_invoice", {"deliveredTo": "a@b.cn", "status": "issued"})], S),
        ("发票已发送到 a@b.cn。", [call("issue_invoice", {"status": "issued"})], U),
        # a count of words is no amount of money: a total in cents does not speak for it
        ("文档一共约 1.25 万词。", [call("get_quote", {"wordCount": 12480, "totalCents": 476238})], S),
        ("文档一共约 1.35 万词。", [call("get_quote", {"wordCount": 12480, "totalCents": 476238})], U),
        # 层高 is a height, not a floor (层)
        ("这个厅层高6.5米、无柱。", [call("get_hall", {"floor": 3, "ceilingHeight_m": 6.5})], S),
        ("这个厅层高8米、无柱。", [call("get_hall", {"floor": 3, "ceilingHeight_m": 6.5})], C),
        ("这个厅在3层。", [call("get_hall", {"floor": 3, "ceilingHeight_m": 6.5})], S),
        # dimensions: as a tool writes them, or side by side
        ("尺寸是 1024×1024。", [call("gen_image", {"images": [{"size": "1024x1024"}]})], S),
        ("The crate is 91 × 61 × 66 cm.", [call("get_policy", {"cm": {"length": 91, "width": 61, "height": 66}})], S),
        ("The crate is 91 × 61 × 68 cm.", [call("get_policy", {"cm": {"length": 91, "width": 61, "height": 66}})], U),
        # 半 after a count noun adds a half
        ("年假已经休了六天半。", [call("get_leave", {"used_days": 6.5})], S),
        ("年假已经休了五天半。", [call("get_leave", {"used_days": 6.5})], C),
        # 还欠 is a balance, 缴了 an amount paid
        ("目前还欠 1550 元。", [call("get_fee_statement", _FEES)], S),
        ("目前还欠 4800 元。", [call("get_fee_statement", _FEES)], C),
        ("已经缴了 4800 元。", [call("get_fee_statement", _FEES)], S),
        ("已经缴了 1550 元。", [call("get_fee_statement", _FEES)], C),
        # 金额 names no field: the statement's balance is its amount, whatever the record's other amounts are
        ("本期账单金额：¥8,426.37。", [call("get_card_statement", _STATEMENT)], S),
        ("本期账单金额：¥8,246.37。", [call("get_card_statement", _STATEMENT)], C),
        ("已经缴了 8426.37 元。", [call("get_card_statement", _STATEMENT)], C),
        # 可退金额 is a refund's amount
        ("本次可退金额：¥3,200.00。", [call("apply_refund", {"unused_fee": 3200.0, "refund_amount": 3040.0})], C),
        ("本次可退金额：¥3,040.00。", [call("apply_refund", {"unused_fee": 3200.0, "refund_amount": 3040.0})], S),
        # a fee named by a word of its line's text is that line's amount
        ("Fees: activity fee $185, CHEM 221 lab fee $75.", [call("get_student_account", _CHARGES)], S),
        ("Fees: activity fee $75, CHEM 221 lab fee $185.", [call("get_student_account", _CHARGES)], C),
        # 天 is a unit, no field: 共 10 天 and 已休 4 天 are the leave record's, whatever a request's days are
        ("今年年假共 10 天，已休 4 天。", [call("get_leave_balance", _LEAVE)], S),
        ("今年年假共 12 天，已休 4 天。", [call("get_leave_balance", _LEAVE)], C),
        # a credit is an adjustment's amount (written negative), not the balance
        ("A credit of $74.25 was applied.", [call("get_account", {"adjustments": [{"amount_cents": -7425}],
                                                                  "balance_cents": 9447})], S),
        # an approval (审核通过) is what a request's status field says, when nothing states an approval itself
        ("您的申请已审核通过。", [call("get_withdrawal_apps", {"applications": [{"status": "approved"}]})], S),
        ("您的申请已审核通过。", [call("get_refund_application", {"applications": [{"audit_status": "REJECTED"}]})], C),
        ("您的理赔已审核通过。", [call("get_claim", {"status": "PENDING_DOCUMENTS"})], C),
        ("您的申请已审核通过。", [call("get_claim", {"amount": 3})], U),
        # a parcel's SIGNED is its delivery (签收); "signed" in an answer claims nothing
        ("订单在 5 月 2 日已签收。", [call("get_order", {"status": "SIGNED", "signed_at": "2025-05-02 16:20"})], S),
        ("订单已签收。", [call("get_order", {"status": "PENDING"})], U),
        ("The contract was signed.", [call("get_contract", {"status": "DRAFT"})], V),
        ("Your booking is confirmed.", [call("get_booking", {"booking_status": "confirmed"})], S),
    ],
)
def test_verdicts(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


def test_context_backs_but_says_so() -> None:
    report = CHECKER.check("We accept returns within 7 days.", [], ["Policy: returns within 7 days."])
    fact = report.claims[0].facts[0]
    assert fact.verdict == Verdict.SUPPORTED and fact.code == "context"
    assert fact.evidence[0].source == "context"


def test_tool_contradiction_beats_context() -> None:
    report = CHECKER.check(
        "Your refund was approved.", [call("refund", {"status": "declined"})], ["User: was my refund approved?"]
    )
    assert report.claims[0].verdict == Verdict.CONTRADICTED


def test_tool_messages_are_evidence() -> None:
    from langchain_core.messages import ToolMessage

    msg = ToolMessage(content='{"refund_status": "failed"}', tool_call_id="1", name="refund")
    report = CHECKER.check("已为您成功退款。", [msg])
    assert report.claims[0].verdict == Verdict.CONTRADICTED
    err = ToolMessage(content="boom", tool_call_id="2", name="publish_article", status="error")
    assert CHECKER.check("Published.", [err]).claims[0].verdict == Verdict.CONTRADICTED


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("The booking is under the name Emily Carson.", [call("booking", {"guest_name": "Emily Carter"})], U),
        ("The booking is under the name Emily Carter.", [call("booking", {"guest_name": "Emily Carter"})], S),
        ("You stay at Hotel Lumière tonight.", [call("booking", {"hotel": "Hotel Lumiere"})], S),
        ("Your order has two Ceramic Mugs.", [call("order", {"items": [{"name": "Ceramic Mug", "qty": 2}]})], S),
        # a name like no tool string at all is a translation or an expansion: not compared
        ("It is at the Shenzhen Bao'an hub.", [call("track", {"最新动态": "快件已到达 深圳宝安转运中心"})], V),
        ("You fly from London Heathrow.", [call("flight", {"from": "LHR", "to": "MAD"})], V),
        ("The Latin America pass covers Brazil.", [call("offers", {"countries": ["US", "CA"]})], V),  # not "CA"
        ("The booking is under the name Emily Carson.", [], U),  # no output at all: nothing excuses it
    ],
)
def test_names_are_matched_with_spelling_tolerance_only(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


def test_fuzzy_name_match_never_makes_numbers_equal() -> None:
    tools = [call("order", {"order_id": 88231, "name": "Emily Carter"})]
    report = CHECKER.check("Order 88321 for Emily Carter.", tools)
    facts = {f.kind.value: f.verdict for f in report.claims[0].facts}
    assert facts == {"identifier": U, "name": S}


_DELIVERED = call("get_order_details", {"order_id": "#W1", "status": "delivered"})
_RETURNED = call("return_delivered_order_items", {"order_id": "#W1", "return_id": "RT-1", "status": "return_requested"})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # an action the agent says it did is no record state a read returned, even beside a write of another act
        ("I've also emailed a copy to the address on your account.", [_DELIVERED, _RETURNED], U),
        ("I've refunded order #W1.", [call("get_order_details", {"order_id": "#W1", "status": "refunded"})], U),
        ("已为您退款。", [call("get_order_details", {"order_id": "#W1", "status": "refunded"})], U),
        # the record's own state, said as the record's, or after the agent found it
        ("Order #W1 has been refunded.", [call("get_order_details", {"order_id": "#W1", "status": "refunded"})], S),
        ("I found order #W1 and it has been delivered.", [_DELIVERED], S),
        ("I've also emailed a copy.", [_DELIVERED, call("send_email", {"status": "sent"})], S),
    ],
)
def test_an_action_of_this_turn_is_no_state_a_read_returned(answer: str, tools: list, expected: Verdict) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.kind.value == "action"]
    assert [f.verdict for f in facts] == [expected], facts


@pytest.mark.parametrize(
    ("answer", "expected", "code"),
    [
        # some of a field's values added up: a total for a condition nothing checks, neither backed nor flagged
        ("Completed orders total $85.71.", Verdict.UNVERIFIABLE, "not_found"),
        ("Completed orders total $85.72.", C, "value_mismatch"),  # no records' sum
        ("Your orders total $113.03.", S, "derived"),  # all of them
    ],
)
def test_a_sum_of_some_records_is_no_contradiction(answer: str, expected: Verdict, code: str) -> None:
    orders = call("list_orders", {"orders": [
        {"id": "A1", "status": "completed", "total": 16.51}, {"id": "A2", "status": "completed", "total": 23.75},
        {"id": "A3", "status": "refunded", "total": 27.32}, {"id": "A4", "status": "completed", "total": 45.45}]})
    fact = next(f for c in CHECKER.check(answer, [orders]).claims for f in c.facts if f.kind.value == "number")
    assert (fact.verdict, fact.code) == (expected, code), fact


def test_a_read_only_tool_never_backs_an_action() -> None:
    lookup = call("get_refund_eligibility", {"order_id": "88231", "eligible": True})
    report = CHECKER.check("已为您退款，订单号 88231。", [lookup])
    refund = next(f for f in report.claims[0].facts if f.concept == "refund")
    assert refund.verdict == U and refund.code == "no_tool_call"
    assert verdict("已为您退款。", [call("refund_order", {"ok": True})]) == S


@pytest.mark.parametrize(
    "answer",
    ["Your refund for order 88231 succeeded.", "The refund on your order went through.", "订单 88231 的退款成功了。"],
)
def test_status_speaks_of_the_head_concept(answer: str) -> None:
    assert verdict(answer, [call("refund_order", {"order_id": 88231, "refund_status": "FAILED"})]) == C


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("Here are two new variations: https://cdn.example.com/a.png", [], U),
        ("Here are a few things you can try.", [], Verdict.UNVERIFIABLE),
        ("Here are your two product shots.", [call("image_generate", {"images": ["a", "b"]})], S),
    ],
)
def test_narrated_results_need_a_tool_call(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


FLIGHTS = call("search_flights", {"flights": [
    {"flight_no": "MU5401", "airline": "东方航空", "dep_time": "07:05", "fare": 1260.0},
    {"flight_no": "CA4508", "airline": "中国国航", "dep_time": "08:30", "fare": 980.0},
]})
REFUNDED = call("get_refund", {"items_refunded": [
    {"name": "Wireless Mouse", "amount": 24.99}, {"name": "USB-C Cable", "amount": 9.99},
]})
PAPER_AND_PENS = call("get_order_items", {"items": [
    {"name": "A4 打印纸", "qty": 5, "unit_price": 32.5}, {"name": "中性笔 (12支装)", "qty": 2, "unit_price": 18.0},
]})
MUG_AND_TEA = call("get_order", {"items": [{"name": "Mug", "price": 12.5}, {"name": "Tea", "price": 18.0}]})
LONG_LIST = call("get_order", {"items": [{"name": "Mug", "price": 12.5}, {"name": "Tea", "price": 18.0}]
                                + [{"name": f"Item {i}", "price": 100 + i} for i in range(19)]})
ORDERS = call("list_orders", [{"order_id": "80112", "status": "DELIVERED"}, {"order_id": "80345", "status": "SHIPPED"}])
NESTED = call("get_orders", {"orders": [
    {"order_id": "A-1001", "items": [{"sku": "SKU-1", "price": 5}]},
    {"order_id": "A-1002", "items": [{"sku": "SKU-2", "price": 7}]},
]})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("MU5401，票价 980 元。", [FLIGHTS], C),  # 980 is the fare of CA4508
        ("MU5401 costs ¥980.", [FLIGHTS], C),
        ("MU5401，票价 1,260 元。", [FLIGHTS], S),
        ("CA4508，票价 980 元。", [FLIGHTS], S),
        ("CA4508，票价 1,260 元。", [FLIGHTS], C),
        ("MU5401 最早，CA4508 票价 980 元。", [FLIGHTS], S),  # both records named
        ("最早的是 MU5401，票价最低的 980 元是 CA4508。", [FLIGHTS], S),  # named after the number
        ("MU5401 最早；中国国航的票价 980 元。", [FLIGHTS], S),  # the other record named by a string of it
        ("票价 980 元。", [FLIGHTS], S),  # no record named
        ("$24.99 for the Wireless Mouse and $9.99 for the USB-C Cable.", [REFUNDED], S),
        ("The Wireless Mouse was refunded $9.99.", [REFUNDED], C),
        ("SKU-1 costs $5.", [NESTED], S),
        ("SKU-1 costs $7.", [NESTED], C),  # the innermost list item: orders[0].items[0]
        ("Order A-1001 has SKU-2 at $7.", [NESTED], S),
        # the claim names the second item by a word of its name ("中性笔" of "中性笔 (12支装)")
        ("A4 打印纸 5 包，每包 32.5 元；中性笔两盒，每盒 18 元。", [PAPER_AND_PENS], S),
        ("A4 打印纸 5 包，每包 18 元。", [PAPER_AND_PENS], C),
        # with no identifier or name, a word only one item has names it (a table row)
        ("| Mug | $18.00 |", [MUG_AND_TEA], C),
        ("| Mug | $12.50 |", [MUG_AND_TEA], S),
        ("The mug is $18.00.", [MUG_AND_TEA], C),
        ("Mug and Tea cost $12.50 and $18.00.", [MUG_AND_TEA], S),  # both named
        ("Prices: $12.50 and $18.00.", [MUG_AND_TEA], S),  # none named
        ("The mug is $18.00.", [LONG_LIST], S),  # rows of a long list are not named by words
        ("MU5401 08:30 起飞。", [FLIGHTS], C),  # a time of the other flight
        ("MU5401 07:05 起飞。", [FLIGHTS], S),
        ("MU5401 和 CA4508 分别 07:05 和 08:30 起飞。", [FLIGHTS], S),
        # a record's key names that record: 80345 is the second order's own number
        ("80112 已经签收，80345 已经发货。", [ORDERS], S),
    ],
)
def test_a_number_comes_from_the_record_the_claim_names(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


STOCK = call("check_stock", {"sku": "MUG-0450", "stock": [{"wh": "北京仓", "qty": 120}, {"wh": "武汉仓", "qty": 8}]})
SHIPMENTS = call("list_orders", [
    {"order_id": "O-6601", "status": "已发货", "carrier": "顺丰", "tracking": "SF1420993817265"},
    {"order_id": "O-6603", "status": "待发货", "carrier": None, "tracking": None},
])
TICKETS = call("list_tickets", [
    {"id": "INC-2291", "title": "Webhook 推送延迟", "status": "in_progress", "owner": "Kevin Zhao"},
    {"id": "INC-2305", "title": "Dashboard 导出 CSV 失败", "status": "resolved", "owner": "Lily Wang"},
])
PAYOUTS = call("list_payouts", [
    {"payout_id": "po_5602", "amount": "1,106.40", "status": "in_transit"},
    {"payout_id": "po_5531", "amount": "842.17", "status": "paid"},
])
ITEMS = call("get_order_items", {"items": [
    {"sku": "KB-210", "name": "Mechanical Keyboard K2", "status": "shipped", "shipped_at": "2026-05-02"},
    {"sku": "MS-88", "name": "Wireless Mouse M3", "status": "backordered", "restock_eta": "2026-05-27"},
]})


STORES = call("check_stock", [
    {"门店": "上海徐汇店", "门店编号": "SH-XH-03", "库存": 12},
    {"门店": "上海静安店", "门店编号": "SH-JA-01", "库存": 1},
    {"门店": "上海浦东店", "门店编号": "SH-PD-07", "库存": 7},
])
PAYOUTS_BANK = call("list_payouts", [
    {"payout_id": "po_5602", "status": "in_transit", "bank": "Chase 4471"},
    {"payout_id": "po_5531", "status": "paid", "bank": "Chase 4471"},
])
DELIVERIES = call("list_orders", {"orders": [
    {"order_id": "FD-1", "restaurant": "Pho Saigon", "status": "DELIVERED"},
    {"order_id": "FD-2", "restaurant": "Thai Garden", "status": "OUT_FOR_DELIVERY"},
    {"order_id": "FD-3", "restaurant": "Sweet Tooth", "status": "DELIVERED"},
]})
RIDES = call("list_trips", {"trips": [{"trip_id": "TR-1", "price": 2.7}, {"trip_id": "TR-2", "price": 4.0}]})
INVOICES = call("list_invoices", [
    {"invoice_no": "KL-1187", "amount": "EUR 1,200.00", "status": "paid"},
    {"invoice_no": "KL-1203", "amount": "EUR 1,200.00", "status": "open"},
    {"invoice_no": "KL-1219", "amount": "EUR 1,950.00", "status": "open"},
])


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # each clause names its own record
        ("武汉仓还剩 120 件，北京仓只有 8 件。", [STOCK], C),
        ("北京仓还剩 120 件，武汉仓只有 8 件。", [STOCK], S),
        # a status is the named record's, not a neighbour's
        ("O-6603 已经发货了。", [SHIPMENTS], C),
        ("O-6601 已经发货了。", [SHIPMENTS], S),
        ("O-6601 已经发货了，O-6603 还没有发货。", [SHIPMENTS], S),
        ("INC-2291 has been resolved.", [TICKETS], C),
        ("INC-2305 has been resolved.", [TICKETS], S),
        ("Your payout po_5531 was deposited.", [PAYOUTS], S),
        ("Your payout po_5602 was deposited.", [PAYOUTS], U),  # only the other payout states it
        # a thing said not done: another record's state does not speak against it
        ("Your payout po_5602 has not been deposited yet.", [PAYOUTS], S),
        ("Your Wireless Mouse M3 shipped on May 2.", [ITEMS], U),
        ("Your Mechanical Keyboard K2 shipped on May 2.", [ITEMS], S),
        ("O-6601 已经发货了，其余订单还没有发货。", [SHIPMENTS], S),  # the clause speaks of the other records
        ("Order O-6603 is pending; the other orders have shipped.", [SHIPMENTS], S),
        # the named record holds the same string as an earlier one (strings are indexed once)
        ("FD-3 was delivered.", [DELIVERIES], S),
        ("FD-2 was delivered.", [DELIVERIES], C),
        ("KL-1203 comes to €1,200.00.", [INVOICES], S),
        ("KL-1203 comes to €1,950.00.", [INVOICES], C),
        # a clause that names a record in words no tool uses (a translation) is not tied to the claim's record
        ("The Xuhui store (上海徐汇店) has 12 in stock (Pudong has 7, Jing'an just 1).", [STORES], S),
        ("The Xuhui store (上海徐汇店) has 7 in stock.", [STORES], C),
        ("Your payout (po_5602) was deposited to your Chase account.", [PAYOUTS_BANK], U),  # Chase is the tools' word
        ("Your payout (po_5602) was deposited on May 22.", [PAYOUTS_BANK], U),  # a month name names no record
        # a status value never names its own record ("resolved" is INC-2305's status)
        ("Two tickets: one is resolved, one is in progress.", [TICKETS], S),
        # a parenthesis speaks of what stands before it
        ("INC-2305（Dashboard 导出 CSV 失败，已解决）和 INC-2291（还在处理中）。", [TICKETS], S),
        # an identifier or name of another record than the one the clause names by its key
        ("O-6603 的运单号是 SF1420993817265。", [SHIPMENTS], C),
        ("O-6601 的运单号是 SF1420993817265。", [SHIPMENTS], S),
        ("INC-2291 的负责人是 Lily Wang。", [TICKETS], C),
        ("INC-2305 的负责人是 Lily Wang。", [TICKETS], S),
        # another record's value of another kind: a count is no price, an amount of money no count
        ("行程 TR-1 骑了 4 次。", [RIDES], S),
        ("行程 TR-1 的费用是 ¥4.00。", [RIDES], C),
    ],
)
def test_facts_come_from_the_record_the_clause_names(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("电子版已发送至 caiwu@muhe.cn。", {"invoice_no": "INV-1", "sent_to": "caiwu@muhe.cn"}, S),
        ("电子版已发送。", {"invoice_no": "INV-1", "sent_to": ""}, U),  # an empty field states nothing
        ("The invoice was sent.", {"invoice_no": "INV-1", "sentAt": "2026-05-20T10:04:00Z"}, S),
        ("货物目前在途。", {"sku": "TSH-1", "in_transit": {"qty": 200, "eta": "2026-12-09"}}, S),
        ("货物目前在途。", {"sku": "TSH-1", "in_transit": {"qty": 0}}, U),  # zero fills nothing
        ("The total charged was $168.30.", {"recordLocator": "QJ8T5W", "totalCharged": {"amount": "168.30"}}, S),
        ("Two units are already reserved.", {"sku": "MON-27Q", "on_hand": 6, "reserved": 2}, S),
        ("Some units are already reserved.", {"sku": "MON-27Q", "on_hand": 6, "reserved": 0}, C),  # zero: none are
        # a number in a field named by a negative status states it; a zero states the opposite
        ("ICE 578 is running on time.", {"train": "ICE 578", "delay_min": 0}, S),
        ("ICE 578 is running on time.", {"train": "ICE 578", "delay_min": 12}, C),
        ("ICE 578 is delayed.", {"train": "ICE 578", "delay_min": 0}, C),
        ("G12 次列车准点。", {"train": "G12", "延误分钟": 0}, S),
        ("It has been refunded.", {"order": "A-1", "refunded_amount": 0}, C),
    ],
)
def test_a_filled_field_named_by_a_status_states_it(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("get_record", output)]) == expected


def test_an_identifier_of_another_record_shows_the_named_records_key() -> None:
    fact = CHECKER.check("O-6603 的运单号是 SF1420993817265。", [SHIPMENTS]).claims[0].facts[-1]
    assert (fact.text, fact.verdict, fact.code) == ("SF1420993817265", C, "wrong_record")
    assert [e.path for e in fact.evidence] == ["[0].tracking", "[1].order_id"]


def test_a_wrong_record_names_both_values() -> None:
    fact = CHECKER.check("MU5401，票价 980 元。", [FLIGHTS]).claims[0].facts[-1]
    assert (fact.verdict, fact.code) == (C, "wrong_record")
    assert [(e.path, e.text) for e in fact.evidence] == [("flights[0].fare", "1260"), ("flights[1].fare", "980")]


PAUSE = call("get_subscription_pause", {"status": "paused", "paused_from": "2026-11-01", "paused_until": "2026-11-15"})
STAY = call("get_booking", {"check_in": "2026-12-03", "check_out": "2026-12-06"})
NEW_YEAR = call("get_booking", {"check_in": "2026-12-30", "check_out": "2027-01-02"})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("Paused for two weeks, from Nov. 1 through Nov. 15.", [PAUSE], S),
        ("Paused for 14 days, from Nov. 1 to Nov. 15.", [PAUSE], S),
        ("Paused for three weeks, from Nov. 1 through Nov. 15.", [PAUSE], U),
        ("Paused for two weeks.", [PAUSE], U),  # no dates in the claim to count between
        ("12月3日入住，12月6日退房，共 3 晚。", [STAY], S),
        ("12月3日入住，12月6日退房，共 4 晚。", [STAY], C),  # the stay's dates give 3 nights (stay_nights)
        ("入住 3 晚，12月3日到12月6日。", [STAY], S),  # the dates may follow the number
        ("Dec. 3 to Dec. 9, 6 nights.", [STAY], U),  # Dec. 9 is no tool's date
        ("Dec. 30, 2026 to Jan. 2, 2027: 3 nights.", [NEW_YEAR], S),
        ("Check-in Dec. 3, check-out Dec. 6: 3 items.", [STAY], U),  # not a duration unit
    ],
)
def test_a_duration_may_be_the_days_between_backed_dates(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


def test_durations_are_arithmetic_and_can_be_switched_off() -> None:
    from factcheck import CheckerConfig

    checker = FactChecker(CheckerConfig(derive_arithmetic=False, min_confidence=0))
    report = checker.check("Paused for two weeks, from Nov. 1 through Nov. 15.", [PAUSE])
    assert report.claims[0].verdict == U
    fact = CHECKER.check("Paused for two weeks, from Nov. 1 through Nov. 15.", [PAUSE]).claims[0].facts[0]
    assert (fact.code, [e.path for e in fact.evidence]) == ("derived", ["paused_from", "paused_until"])


STORE_CREDIT = call("get_refund", {"refund_status": "completed", "amount": 22.0, "destination": "store_credit"})
WECHAT = call("get_refund", {"refund_status": "PROCESSING", "channel": "wechat_pay"})
ORIGINAL = call("get_refund", {"refund_status": "completed", "refund_method": "ORIGINAL_PAYMENT"})
FAILED_TO_CARD = call("refund_to", {"destination": "card"}, status="error")


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("The $22 went back to your credit card.", [STORE_CREDIT], C),
        ("The $22 was issued as store credit.", [STORE_CREDIT], S),
        ("退款将退回到您的微信支付。", [WECHAT], S),
        ("退款将退回到您的支付宝。", [WECHAT], C),
        ("The $22 went back to your credit card.", [ORIGINAL], V),  # which method is original is not stated
        ("The $22 went back to your original payment method.", [STORE_CREDIT], V),
        ("已原路退回。", [ORIGINAL], S),
        ("The $22 went back to your credit card.", [call("get_refund", {"refund_status": "completed"})], V),
        ("The $22 went back to your credit card.", [FAILED_TO_CARD], V),  # a failed call gives no method
        ("The $22 went back to your credit card.", [call("get_refund", {"note": "card"})], V),  # not a method field
    ],
)
def test_payment_methods(answer: str, tools: list, expected: Verdict) -> None:
    report = CHECKER.check(answer, tools)
    method = next(f for c in report.claims for f in c.facts if f.kind.value == "method")
    assert method.verdict == expected


def _reference_arithmetic(values: list[Decimal], claimed: Decimal, exponent: int) -> str | None:
    """The arithmetic backing, worked out in Decimals only: sum of all, then each pair's operations in order."""
    from factcheck.grounding.arithmetic import equal_at, sum_text

    if len(values) > 1 and equal_at(sum(values), claimed, exponent):
        return sum_text([str(v) for v in values])  # shortened past six terms
    for a, b in combinations(values, 2):
        results = [(a + b, f"{a} + {b}"), (abs(a - b), f"{max(a, b)} − {min(a, b)}")]
        if any(v == int(v) and 2 <= v <= 100 for v in (a, b)):
            results.append((a * b, f"{a} × {b}"))
        for base, rate in ((a, b), (b, a)):
            if 0 < rate < 1 <= base:
                results.append((base * (1 - rate), f"{base} × (1 − {rate})"))
                results.append((base * (1 + rate), f"{base} × (1 + {rate})"))
                results.append((base * rate, f"{base} × {rate}"))
        for total, how in results:
            if total and equal_at(total, claimed, exponent):
                return how
    return None


_OPERAND = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("100000"), places=2, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(_OPERAND | st.sampled_from([Decimal(3), Decimal("0.15"), Decimal(100)]), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=1_000_000), st.sampled_from([-2, -1, 0]), st.booleans())
def test_arithmetic_in_floats_first_finds_what_decimals_find(values, seed, exponent, from_pair) -> None:
    """Filtering candidates in floats never changes which arithmetic backs a number, or how it is said."""
    import random

    rng = random.Random(seed)
    if from_pair and len(values) > 1:  # a claim one operation away, written at the precision given
        a, b = rng.sample(values, 2)
        claimed = rng.choice([a + b, abs(a - b), a * b, a * (1 - b)]).quantize(Decimal(1).scaleb(exponent))
    else:
        claimed = Decimal(rng.randint(1, 200000)).scaleb(exponent)
    index = EvidenceIndex([], [], CHECKER.config, CHECKER.lexicon, CHECKER._mentions, CHECKER._statuses)
    matcher = Matcher(index, {}, derive=True)
    found = matcher._arithmetic([(v, None) for v in values], claimed, exponent)
    expected = _reference_arithmetic(values, claimed, exponent)
    assert (found[1].removeprefix("number equals ") if found else None) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("The refund of ¥45 was approved.", {"amount": 45, "currency": "USD"}, C),
        ("The refund of $45 was approved.", {"amount": 45, "currency": "USD"}, S),
        ("The refund of $45 was approved.", {"amount": 45, "currency": "CAD"}, S),  # $ may be Canadian dollars
        ("The refund of ¥4,500 was approved.", {"amount": 4500, "currency": "JPY"}, S),  # ¥ may be yen
        ("退款 45 美元。", {"amount": 45, "currency": "CNY"}, C),
        ("退款 45 元。", {"amount": 45, "币种": "人民币"}, S),
        ("退款 45 美元。", {"amount": "45人民币"}, C),  # the currency word after the digits
        ("退款 45 元。", {"amount": "45 人民币"}, S),
        ("Refund of €45.", {"refund": {"amount": 45, "currency": "eur"}}, S),
        ("Refund of £45.", {"amount_usd": 45}, C),  # the field name gives the currency
        ("Refund of ¥320.", {"amount": 45, "currency": "USD", "amount_cny": 320}, S),
        ("Refund of $320.", {"amount": 45, "currency": "USD", "amount_cny": 320}, C),
        ("余额 ¥0.00。", {"balance": 0, "currency": "HKD"}, S),  # nothing is nothing in any currency
        ("Refund of $45.", "refund 45 EUR approved", C),
        ("Refund of $45.", {"amount": 45}, S),  # no currency given: not compared
        ("Refund of 45.", {"amount": 45, "currency": "USD"}, S),  # none written: not compared
        ("Refund of $45.", {"lines": [{"amount": 45, "currency": "EUR"}, {"amount": 45, "currency": "USD"}]}, S),
    ],
)
def test_an_amount_is_in_the_currency_the_tool_gives(answer: str, output, expected: Verdict) -> None:
    assert verdict(answer, [call("refund", output)]) == expected


@pytest.mark.parametrize(
    ("output", "context", "expected"),
    [
        # a tool's bare 元 is the unit of the currency the user's own messages give amounts in
        ({"monthly_payment": "1073.64元"}, ["本金是200,000美元，年利率是5%。"], S),
        ({"monthly_payment": "1073.64元"}, ["本金是200,000，年利率是5%。"], C),
        ({"monthly_payment": "1073.64元"}, ["本金是200,000元。"], C),
        ({"monthly_payment": "¥1073.64"}, ["本金是200,000美元。"], C),  # a symbol is no generic word
        ({"monthly_payment": 1073.64, "currency": "CNY"}, ["本金是200,000美元。"], C),
    ],
)
def test_a_generic_currency_word_takes_the_users_currency(output, context: list, expected: Verdict) -> None:
    assert verdict("您每月的还款额是1073.64美元。", [call("calculate_loan_payment", output)], context) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a tool's numbers written in words back the answer's, in either script
        ("图片里有3个成年人和2个小孩。", "这张图片有三名成年人和两个小孩。", S),
        ("图片里有三个成年人。", "这张图片有三名成年人。", S),
        ("图片里有四个成年人。", "这张图片有三名成年人。", U),
        ("The picture shows 3 adults.", "The picture shows three adults.", S),
        ("The picture shows 4 adults.", "The picture shows three adults.", U),
        ("年龄差距是5年、3个月、5天。", "五年三个月五天", S),
    ],
)
def test_numbers_a_tool_writes_in_words(answer: str, output: str, expected: Verdict) -> None:
    assert verdict(answer, [call("analyze_image", {"description": output})]) == expected


def test_a_wrong_currency_shows_where_the_currency_is_given() -> None:
    fact = CHECKER.check("The refund of ¥45 was approved.", [call("refund", {"amount": 45, "currency": "USD"})])
    number = next(f for f in fact.claims[0].facts if f.kind.value == "number")
    assert (number.verdict, number.reason) == (C, "tool gives 45 USD (amount), not ¥45")
    assert [(e.path, e.text) for e in number.evidence] == [("currency", "USD"), ("amount", "45")]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        ("Scheduled for Monday, Dec. 7 at 10 AM.", [call("schedule", {"ok": True, "start": "2026-12-07T10:00"})], S),
        ("Scheduled for Tuesday, Dec. 7 at 10 AM.", [call("schedule", {"ok": True, "start": "2026-12-07T10:00"})], C),
        ("订在 9月26日 周六晚上 7 点。", [call("book", {"date": "2026-09-26", "time": "19:00"})], S),
        ("订在 9月26日 周五晚上 7 点。", [call("book", {"date": "2026-09-26", "time": "19:00"})], C),
        ("See you Monday, Dec. 8, 2026.", [], C),  # the answer's own date and year disagree with its day
        ("See you Monday, Dec. 8.", [], U),  # the date is unbacked (the day is not compared: no year)
    ],
)
def test_a_day_of_the_week_is_its_dates(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("Your membership tier is Gold.", {"tier": "Silver"}, C),
        ("Your membership tier is Gold.", {"tier": "GOLD"}, S),
        ("You are a Gold member.", {"member_level": "gold"}, S),
        ("Your membership tier is Gold.", {"tier": "Silver", "next_tier": "Gold"}, C),  # the field named tier speaks
        ("您的会员等级是黄金会员。", {"会员等级": "白银"}, C),
        ("Your Premium plan renews on Dec. 3.", {"plan": "basic", "renews": "2026-12-03"}, C),
        ("Your Premium plan renews on Dec. 3.", {"sub": {"plan_name": "Premium Annual", "renews": "2026-12-03"}}, S),
        ("Your membership tier is Gold.", {"points": 300}, Verdict.UNVERIFIABLE),  # no tool gives a tier
    ],
)
def test_a_tier_or_plan_is_the_one_the_tool_gives(answer: str, output, expected: Verdict) -> None:
    assert verdict(answer, [call("get_member", output)]) == expected


POINTS = call("get_loyalty_balance", {"points": 3400})
RULES = ["Program rules: members earn 1 point per $1 spent. 100 points = $1 in reward credit."]


@pytest.mark.parametrize(
    ("answer", "context", "expected"),
    [
        ("You have 3,400 points, worth $34 in reward credit.", RULES, S),
        ("You have 3,400 points, worth $340 in reward credit.", RULES, U),
        ("You have 3,400 points, worth $34 in reward credit.", [], U),  # no conversion stated
        ("您有 3,400 积分，可抵 34 元。", ["规则：每 100 积分可抵 1 元。"], S),
    ],
)
def test_a_conversion_the_context_states_backs_a_number(answer: str, context: list, expected: Verdict) -> None:
    assert verdict(answer, [POINTS], context) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        ("The transfer to your account ending in 0921 failed.", {"account": "ba_1PzQ0921"}, S),
        ("The transfer to your account ending in 0922 failed.", {"account": "ba_1PzQ0921"}, U),
        ("退款退回尾号 4471 的银行卡。", {"card": "Chase ••••4471"}, S),
        ("Your account 0921 is active.", {"account": "ba_1PzQ0921"}, U),  # no cue: the whole number
        # no cue, but the digits are the identifier's last segment: a reference to it
        ("3315 那笔付款被退回了。", {"invoice": "INV-NB-3315"}, S),
        ("3316 那笔付款被退回了。", {"invoice": "INV-NB-3315"}, U),
        ("Flight 1184 leaves at seven.", {"flight": "UA 1184"}, S),
        ("The card ending in 921 is on file.", {"account": "ba_1PzQ0921"}, S),
        ("The card ending in 9210 is on file.", {"account": "ba_1PzQ0921"}, U),
        # the end of an identifier is never a sum: 7312 + 200 is no card
        ("I'll charge your card ending in 7512.", {"card": {"last_four": "7312"}, "balance": 200}, U),
    ],
)
def test_digits_after_a_suffix_cue_end_an_identifier(answer: str, output: dict, expected: Verdict) -> None:
    report = CHECKER.check(answer, [call("lookup", output)])
    assert next(f.verdict for f in report.claims[0].facts if f.kind.value == "number") == expected


RENTAL = {"quote": {"days": 3, "dailyRate": 54.0, "taxesAndFees": 23.76, "currency": "USD"}}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the total is said before the parts it is the sum of
        ("You're looking at $185.76 in total: 3 days at $54/day ($162.00) plus $23.76 in taxes.", S),
        # one digit off what its own parts come to, its cue ("in total") after it: the slip is the evidence
        ("You're looking at $195.76 in total: 3 days at $54/day ($162.00) plus $23.76 in taxes.", C),
        ("You're looking at $205.76: 3 days at $54/day ($162.00) plus $23.76 in taxes.", U),
        ("You're looking at $185.76 in total.", U),  # no parts said: two steps of arithmetic are not tried
    ],
)
def test_a_total_may_come_before_its_parts(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [call("quote_rental", RENTAL)]) == expected


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # what a tool's status of one concept says of another (out for delivery: it has shipped)
        ("Your order is on its way.", [call("get_order", {"status": "OUT_FOR_DELIVERY"})], S),
        ("喜茶那单正在配送中。", [call("list_orders", {"status": "DELIVERING"})], S),
        ("Your order is on its way.", [call("get_order", {"status": "CANCELLED"})], U),
        # a generic concept (an order, a ticket) with no status of its own takes the run's plain statuses
        ("已为您修改成功，订单已确认。", [call("modify_hotel_booking", {"status": "CONFIRMED"})], S),
        ("订单已确认。", [call("modify_hotel_booking", {"status": "FAILED"})], C),
        ("Ticket WO-88120 was marked completed.", [call("get_workorder_log", "WO-88120 状态: 已完成")], S),
        # a redirect that errored was not done; one that ran was
        ("我已为您成功提交拦截申请。", [call("intercept_parcel", "UpstreamTimeout", status="error")], C),
        ("I've redirected parcel GX4471029833.",
         [call("redirect_parcel", "503 Service Unavailable for GX4471029833", status="error")], C),
        ("The parcel was redirected.", [call("redirect_parcel", {"ok": True})], S),
        ("两张海报已生成。", [call("poster_generate", {"images": ["https://a.cn/1.png", "https://a.cn/2.png"]})], S),
        # a failed call retried with success (the same tool, or one doing the same by another key) is superseded
        ("I have successfully located your account.",
         [call("find_user_id_by_email", "Error: user not found", status="error"),
          call("find_user_id_by_name_zip", "chen_johnson_4204")], S),
        ("I have successfully located your account.",
         [call("find_user_id_by_email", "Error: user not found", status="error")], C),
        ("I have successfully located your account.",
         [call("find_user_id_by_name_zip", "chen_johnson_4204"),
          call("find_user_id_by_email", "Error: user not found", status="error")], C),
        ("I have successfully located your account.",
         [call("find_user_id_by_email", "Error: user not found", status="error"), call("get_weather", "sunny")], C),
        ("退款已成功提交。",
         [call("submit_refund", "Error: timeout", status="error"), call("submit_refund", {"refund_id": "R-1"})], S),
    ],
)
def test_statuses_across_concepts(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


CBEC = {"declaredValue": 1299.0, "comprehensiveRate": 0.091, "tax": 118.21}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a rate and a declared value are fields of their own, not the tax
        ("按综合税计算：申报价值 ¥1,299.00，综合税率 9.1%，预估税费约 118.21 元，一共约 1,417.21 元。", S),
        ("按综合税计算：申报价值 ¥1,299.00，综合税率 9.1%，预估税费约 128.21 元。", C),
        ("The tax rate is 9.1% and the declared value $1,299.", S),
        ("The tax rate is 9.5%.", C),
    ],
)
def test_rates_and_values_are_their_own_fields(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [call("estimate_tax", CBEC)]) == expected


PIPELINE = [
    call("humanize_rewrite", {"ok": True, "score": 76}),
    call("publish_article", "PublishError: 平台登录态失效 (HTTP 401)", status="error"),
]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # said of everything the run did, a failed call contradicts it
        ("今日任务全部完成。", PIPELINE, C),
        ("All steps completed.", PIPELINE, C),
        ("Done!", PIPELINE, C),  # nothing but a status word: said of everything
        ("All done.", PIPELINE, C),
        ("Today's job is done.", PIPELINE, C),
        ("Today's run is done: the publish step failed.", PIPELINE, S),  # the run ended, not all went well
        ("Done!", PIPELINE[:1], S),
        ("Once that is done, log in again.", PIPELINE, V),  # "done" of nothing in particular
        ("润色完成。", PIPELINE[:1], S),
        ("今日任务全部完成。", PIPELINE[:1], S),
        ("今日任务全部完成。", [*PIPELINE, call("publish_article", {"ok": True})], S),  # the failed call was retried
        # 拿回 names the refund: another field's number is not it
        ("扣除后您可以拿回 ¥1,680.00。", [call("refund_quote", {"ticketPrice": 1680, "refundAmount": 1394})], C),
        ("扣除后您可以拿回 ¥1,394.00。", [call("refund_quote", {"ticketPrice": 1680, "refundAmount": 1394})], S),
    ],
)
def test_all_done_and_refund_words(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("课程总共 48 节，您已上 12 节，还剩 36 节（占 75%）。", S),  # 36 of 48
        ("课程总共 48 节，您已上 12 节，还剩 36 节（占 70%）。", U),
        ("还剩 75% 的课程。", U),  # no backed number of the answer to divide
        ("已上 12 节，占全部课程的 25%。", S),  # 12 of the tool's 48
        ("已上 12 节，占全部课程的 20%。", U),
        ("You've used 12 lessons, 12.5% of the plan.", U),  # 12 of 96: no tool number is 96
    ],
)
def test_a_percentage_of_two_backed_numbers(answer: str, expected: Verdict) -> None:
    output = {"lessonsTotal": 48, "lessonsUsed": 12}
    assert verdict(answer, [call("calc_refund", output)]) == expected


def test_a_tools_floor_code_is_a_number_while_an_answers_code_is_not() -> None:
    rooms = [call("list_interviews", [{"room": "7F-海棠"}, {"room": "7F-海棠"}])]
    assert verdict("两场面试都在 7 楼海棠会议室。", rooms) == S
    assert verdict("You'll need your 2FA code.", [call("find_account", {"mfa_enabled": True})]) == V


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # an approximate round number is compared at its last non-zero digit, two significant digits kept
        ("全文约 1860 字。", {"word_count": 1862}, S),
        ("全文 1860 字。", {"word_count": 1862}, U),  # not said to be approximate
        ("全文约 1800 字。", {"word_count": 1862}, U),
        ("About 2,000 points are left.", {"points": 1980}, S),
        ("About 2,000 points are left.", {"points": 1600}, C),
        # a failed call run again with success is superseded
        ("第一次提交超时，重新提交后已经预约成功。", None, S),
    ],
)
def test_approximate_numbers_and_retried_calls(answer: str, output: dict | None, expected: Verdict) -> None:
    tools = [call("lookup", output)] if output is not None else [
        call("book_installation", "TimeoutError: upstream did not respond", status="error"),
        call("book_installation", {"booking_id": "AZ20260516-0342", "time_window": "09:00-12:00"}),
    ]
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # an average is its own field: the p95 is not it
        ("CPU average 是 78.9%。", [call("metrics", {"avg": "41.3%", "p95": "78.9%"})], C),
        ("CPU 平均 41.3%。", [call("metrics", {"avg": "41.3%", "p95": "78.9%"})], S),
        # "每天" is a rate per day, not a number of days
        ("您的 30 天畅骑卡每天有 2 次免费骑行。", [call("card", "类型: 30天畅骑卡 | 每日免费次数: 2")], S),
        # an approval status of its own
        ("您的提取申请已审核通过。", [call("get_withdraw_application", {"审核状态": "退回补件"})], C),
        ("您的提取申请已审核通过。", [call("get_withdraw_application", {"审核状态": "审核通过"})], S),
    ],
)
def test_averages_rates_per_day_and_approvals(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


def test_a_percentage_is_compared_with_percentages_of_its_field() -> None:
    fees = [call("charging_bill", {"energy_fee": 72.92, "idle_fee": 6.0, "total": 78.92})]
    answer = "The total was $78.92 and idle fees were $6.00, about 7.6% of the total."
    assert verdict(answer, fees) == S  # 6.00 / 78.92, not a fee of 7.6
    assert verdict("Idle fees were about 9.6% of the $78.92 total.", fees) == U


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("昨晚 18:33 到 19:21 充电，共用时 48 分钟。", S),  # the minutes between two backed times
        ("昨晚 18:33 到 19:21 充电，共用时 58 分钟。", U),
        ("It ran from 18:33 to 19:21, 48 minutes in all.", S),
        ("Charging took 48 minutes.", S),  # no times in the claim: the record's own start and end
        ("Charging took 58 minutes.", U),
    ],
)
def test_a_short_duration_may_be_the_minutes_between_backed_times(answer: str, expected: Verdict) -> None:
    order = call("query_charging_order", {"start": "2026-05-07 18:33", "end": "2026-05-07 19:21"})
    assert verdict(answer, [order]) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a duration of several parts is the time between two backed times of the claim
        ("It was due at 7:45 AM and now leaves at 9:10 AM, about 1 hour 25 minutes late.", S),
        ("It was due at 7:45 AM and now leaves at 9:10 AM, about 1 hour 35 minutes late.", U),
        ("It started at 9:12 AM and ended at 11:47 AM: 2 hours and 35 minutes in all.", S),
        ("It now leaves at 9:10 AM instead of 7:45 AM, a 1 hour 25 minute delay.", S),  # later time first
        ("08:00 出发，12:28 到达，全程 4 小时 28 分。", S),  # 分 after hours is minutes
        ("08:00 出发，12:28 到达，全程 4 小时 18 分。", U),
        ("14:02:11 开始，14:09:47 结束，总共用了 7 分 36 秒。", S),  # seconds as written
        ("14:02:11 开始，14:09:47 结束，总共用了 7 分 46 秒。", U),
        ("08:00 出发，12:28 到达，积分 28 分。", U),  # 分 alone is no duration
        ("全程约 4 小时 28 分钟。", S),  # no times in the claim: two times of one record (08:00, 12:28)
        ("全程约 4 小时 38 分钟。", U),
        ("It left at 7:45 AM and arrived at 9:10 AM after 25 minutes and 1 hour.", U),  # parts out of order
    ],
)
def test_a_duration_of_several_parts(answer: str, expected: Verdict) -> None:
    times = {"a": "07:45", "b": "09:10", "c": "09:12", "d": "11:47", "e": "08:00", "f": "12:28",
             "log": "[14:02:11] start ... [14:09:47] done"}
    assert verdict(answer, [call("lookup", times)]) == expected


@pytest.mark.parametrize(
    ("answer", "context", "expected"),
    [
        # days between a backed date and one the context gives
        ("Your cycle ends on July 11, 10 days from today.", ["Today is 2026-07-01."], S),
        ("Your cycle ends on July 11, 12 days from today.", ["Today is 2026-07-01."], U),
        ("Your cycle ends on July 11, 10 days from today.", [], U),
        ("续费日是 7 月 11 日，距今还有 10 天。", ["今天是 2026-07-01。"], S),
        # a date derived in the claim counts too (a 30-day window through Nov. 1, 12 days from Oct. 20)
        ("Delivered Oct. 2, so the 30-day window runs until November 1 — 12 days from today.",
         ["Today's date: 2026-10-20.", "Items can be returned within 30 days."], S),
        ("Delivered Oct. 2, so the 30-day window runs until November 1 — 13 days from today.",
         ["Today's date: 2026-10-20.", "Items can be returned within 30 days."], U),
    ],
)
def test_days_from_a_date_the_context_gives(answer: str, context: list, expected: Verdict) -> None:
    order = call("get_order", {"cycle_end": "2026-07-11", "delivered_at": "2026-10-02"})
    assert verdict(answer, [order], context) == expected


POLICY = ["Return policy: items can be returned within 30 days of delivery."]
TRIP_POLICY = ["行程结束后 30 天内可申请"]


@pytest.mark.parametrize(
    ("answer", "output", "context", "expected"),
    [
        # a date or time a backed duration of the claim away from one the answer or a tool gives
        ("Delivered May 2, so the 30-day return window runs through June 1.", {"delivered": "2026-05-02"}, POLICY, S),
        ("Delivered May 2, so the 30-day return window runs through June 4.", {"delivered": "2026-05-02"}, POLICY, U),
        ("The 30-day window runs through June 1.", {"delivered": "2026-05-02"}, POLICY, S),  # the base from the tool
        ("The window runs through June 1.", {"delivered": "2026-05-02"}, POLICY, U),  # no duration in the claim
        # hours that make whole days move a date
        ("Check-in is July 12; it is free to cancel until 48 hours before, so until July 10.",
         {"check_in": "2026-07-12"}, ["Free cancellation until 48 hours before check-in."], S),
        ("Check-in is July 12; it is free to cancel until 36 hours before, so until July 10.",
         {"check_in": "2026-07-12"}, ["Free cancellation until 36 hours before check-in."], U),
        # a date without its year is in the year of the answer's dates: 2026-02-20 + 30 days is March 22
        ("您 2 月 20 日出行，30 天内可申请，最晚到 3 月 22 日。", {"date": "2026-02-20"}, TRIP_POLICY, S),
        ("您 2 月 20 日出行，30 天内可申请，最晚到 3 月 21 日。", {"date": "2026-02-20"}, TRIP_POLICY, U),
        ("术前需要禁食 8 小时，也就是早上 6 点以后就别喂食了。", {"slot": "14:00", "notes": "术前禁食8小时"}, [], S),
        ("术前需要禁食 8 小时，也就是早上 7 点以后就别喂食了。", {"slot": "14:00", "notes": "术前禁食8小时"}, [], U),
        ("术前需要禁食 9 小时，也就是早上 5 点以后就别喂食了。", {"slot": "14:00", "notes": "术前禁食8小时"}, [], U),
    ],
)
def test_a_date_or_time_a_backed_duration_away(answer: str, output: dict, context: list, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)], context) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a tool's number in another unit of the same dimension, its unit read from the field name
        ("通用流量：共 30GB，已用约 18.4GB。", {"余量": {"通用流量": {"总量MB": 30720, "已用MB": 18842}}}, S),
        ("通用流量：共 31GB。", {"余量": {"通用流量": {"总量MB": 30720}}}, U),
        ("骑手距离您约 1.2 公里。", {"distance_m": 1200}, S),
        ("骑手距离您约 1.5 公里。", {"distance_m": 1200}, U),
        ("附带 2 小时的免费停车时长。", {"parking_free_min": 120}, S),
        ("Your parcel weighs 2.5 kg.", {"weight_g": 2500}, S),
        ("Generation took about 8 seconds.", {"elapsedMs": 8420}, S),  # milliseconds
        ("Generation took about 9 seconds.", {"elapsedMs": 8420}, U),
        ("峰值到了1.46秒。", {"peakValueMs": 1460}, S),
        # a backed number of the claim in another unit of the same dimension
        ("Billable weight 4.8 kg (about 10.6 lb).", {"billable_weight": 4.8}, S),
        ("Billable weight 4.8 kg (about 11.6 lb).", {"billable_weight": 4.8}, C),
        ("The store is 5 km away (3.1 miles).", {"distance": 5}, S),
        ("The week pass lasts 7 days.", {"validity_hours": 168}, S),  # days are a unit of time
        ("The week pass lasts 6 days.", {"validity_hours": 168}, U),
        ("Your parcel weighs 3.5 kg.", {"weight_g": 2500}, C),  # another value of the field
        ("Your parcel weighs 2.5 kg.", {"weight": 2500}, C),  # the field gives no unit to convert from
        # a claim that names its field takes only that field's number, before or after the measure
        ("本月还剩约 11.4GB，已用约 18.6GB。", {"usedMB": 19046, "remainingMB": 11674}, S),
        ("本月还剩约 18.6GB，已用约 11.4GB。", {"usedMB": 19046, "remainingMB": 11674}, C),
        ("You have about 11.4 GB left.", {"usedMB": 19046, "remainingMB": 11674}, S),
        ("You have about 18.6 GB left.", {"usedMB": 19046, "remainingMB": 11674}, C),
        ("About 18.6 GB used so far.", {"usedMB": 19046, "remainingMB": 11674}, S),
        ("You have 3 days left.", {"usedMB": 19046, "remainingMB": 11674}, U),  # no measure: no field after it
        # ... when a tool gives one: no total is given in MB, so the quota is the total
        ("总共 10GB，目前用掉约 3.6GB。", {"quotaMB": 10240, "usedMB": 3686}, S),
        ("总共 12GB，目前用掉约 3.6GB。", {"quotaMB": 10240, "usedMB": 3686}, U),
    ],
)
def test_a_number_in_another_unit(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)]) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a flight number written with a space is matched whole, however the tool writes it
        ("BA 2491 leaves for Funchal.", {"flight": "BA2491"}, S),
        ("BA 2491 leaves for Funchal.", "Flight BA 2491 LGW-FNC", S),
        ("BA 2419 leaves for Funchal.", {"flight": "BA2491"}, U),
        ("BA 2491 leaves for Funchal.", {"flight": "BA2419", "code": 2491}, U),  # not the number alone
        ("UA 1482 leaves for Funchal.", {"carrier": "UA", "flight_number": "1482"}, S),  # in two fields
        ("UA 1482 leaves for Funchal.", {"carrier": "BA", "flight_number": "1482"}, U),
    ],
)
def test_a_spaced_flight_number(answer: str, output: object, expected: Verdict) -> None:
    assert verdict(answer, [call("flight_status", output)]) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a score out of 100 is a share: 86/100 is a score of 0.86
        ("It passed the humanize check with a score of 86/100.", S),
        ("It passed the humanize check with a score of 68/100.", C),
        ("It passed the humanize check with a score of 86%.", S),
    ],
)
def test_a_score_out_of_100(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [call("humanize", {"draft_id": "d_4410", "score": 0.86, "verdict": "pass"})]) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # both ends of a range take its unit, in the answer and in the tool's text
        ("The refund should arrive within 5–10 business days.", S),
        ("The refund should arrive within 3–10 business days.", C),
        ("退款预计 5-10 个工作日到账。", S),
    ],
)
def test_a_range_of_days(answer: str, expected: Verdict) -> None:
    refund = call("issue_refund", {"refundId": "RF-902217", "estimatedArrival": "5-10 business days"})
    assert verdict(answer, [refund]) == expected


PUBLISHED = call("publish_article", {"code": 0, "msg": "success", "url": "https://x.example/a/1"})
PENDING_SHIPMENT = call("get_order", {"order_id": "A-1", "status": "待发货"})
CHARGES = call("get_transactions", {"amount": 89.99, "date": "2025-03-03", "payment_status": "completed"})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # a word of two senses speaks of the one the run has evidence of (lexicon `other_senses`)
        ("已经发出去了。", [PUBLISHED], S),  # an article sent out: published
        ("已经发出去了。", [PENDING_SHIPMENT], C),  # its own sense first: shipping
        ("包裹已经发出去了。", [PUBLISHED], U),  # the claim names its own concept: a parcel
        ("The $89.99 charge posted on March 3.", [CHARGES], S),
    ],
)
def test_a_word_of_two_senses(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # an approximate time on the quarter hour is backed by a tool's time within 30 minutes
        ("The driver tried just after 9 PM.", S),
        ("The driver tried around 8:45 PM.", S),
        ("The driver tried at 9 PM.", U),  # said exactly, it must be exact
        ("The driver tried around 8 PM.", U),
        ("The driver tried just after 9:10 PM.", U),  # not a round time
    ],
)
def test_an_approximate_time(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [call("track", "2026-04-03 21:02 delivery attempted - no access")]) == expected


PUBLISH_ERROR = call("publish", "PublishError: browser session expired (login required). 0 items posted.", "error")
ADDRESS_ERROR = call("update_shipping_address", "OrderLockedError: order 51877 is already in transit", "error")
HUMANIZED = call("humanize", {"draft_id": "d_1", "score": 82, "passed": True})


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # an error's text never says its own action was done, though it may state a status
        ("The article was published on Medium.", [HUMANIZED, PUBLISH_ERROR], C),
        ("Order 51877 is already in transit.", [ADDRESS_ERROR], S),
        # said of the whole run, a success is contradicted by a failed call
        ("Everything ran smoothly today.", [HUMANIZED, PUBLISH_ERROR], C),
        ("今天的流程已跑完。", [HUMANIZED, PUBLISH_ERROR], C),
        ("The humanize step ran smoothly.", [HUMANIZED], S),
    ],
)
def test_what_a_failed_call_says(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # an amount in minor units, as payment APIs give it: an integer beside a currency field
        ("The refund of $45.99 went through.", {"amount": 4599, "currency": "usd", "status": "succeeded"}, S),
        ("The refund of $46.99 went through.", {"amount": 4599, "currency": "usd", "status": "succeeded"}, U),
        ("The refund of $45.99 went through.", {"amount": 4599, "status": "succeeded"}, S),  # the cents written
        ("The refund of $46 went through.", {"amount": 4600, "status": "succeeded"}, U),  # no cents, no currency
        ("The plan is $49 a month.", {"lines": [{"amount": 4900}], "currency": "usd"}, S),  # the currency elsewhere
        ("You owe $149.00 for May.", {"data": [{"amount_due": 14900, "currency": "usd"}]}, S),
        ("The plan is $29 a month.", {"plan": {"amount": 2900, "currency": "usd", "interval": "month"}}, S),
        ("The refund of $45.99 went through.", {"amount": 4599.0, "currency": "usd", "status": "succeeded"}, U),
    ],
)
def test_an_amount_in_minor_units(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("get_refund", output)]) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a time or date in a time zone the claim names: the same moment as a tool's time with its offset
        ("The call starts on March 17 at 10:30 AM Eastern.", {"start": "2026-03-17T14:30:00Z"}, S),
        ("The call starts on March 17 at 11:30 AM Eastern.", {"start": "2026-03-17T14:30:00Z"}, U),
        ("The call starts on March 17 at 10:30 AM.", {"start": "2026-03-17T14:30:00Z"}, U),  # no zone named
        ("北京时间 3 月 17 日早上 6:40 从 LAX 发出。", {"events": [{"time": "2026-03-16T22:40:00Z"}]}, S),
        ("北京时间 3 月 16 日早上 6:40 从 LAX 发出。", {"events": [{"time": "2026-03-16T22:40:00Z"}]}, U),
        ("东京时间 18:00（北京时间 17:00）前可以免费取消。", {"free_cancel_until": "2026-06-01T18:00:00+09:00"}, S),
        ("东京时间 18:00（北京时间 16:00）前可以免费取消。", {"free_cancel_until": "2026-06-01T18:00:00+09:00"}, U),
        # a Unix time, in seconds or milliseconds
        ("It stays active until April 30, 2026.", {"current_period_end": 1777507200}, S),
        ("It stays active until April 29, 2026.", {"current_period_end": 1777507200}, U),
        ("It stays active until April 30.", {"current_period_end": 1777507200000}, S),
    ],
)
def test_moments_in_other_forms(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)]) == expected


STOCK = call("get_stock", {"sku": "TR-4410", "warehouses": [
    {"name": "A", "on_hand": 85, "reserved": 12}, {"name": "B", "on_hand": 640, "reserved": 40},
    {"name": "C", "on_hand": 515, "reserved": 0}]})


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the sum of one field over a list's items, and arithmetic on it
        ("We have 1,240 pairs on hand across three warehouses.", S),
        ("We have 1,250 pairs on hand across three warehouses.", U),
        ("Of 1,240 pairs on hand, 52 are reserved, leaving 1,188 to sell.", S),
        ("Of 1,240 pairs on hand, 52 are reserved, leaving 1,198 to sell.", U),
        # the mean of a column, at the precision written
        ("That is about 413 pairs per warehouse.", S),
        ("That is about 413.3 pairs per warehouse.", S),
        ("That is about 414 pairs per warehouse.", U),
    ],
)
def test_a_column_total(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [STOCK]) == expected


INCIDENT = call("get_incident", {"detectedAt": "2026-11-03T02:14:00Z", "rolledBackAt": "2026-11-03T02:49:00Z"})


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a time zone an earlier claim named holds for the answer's later times
        ("故障在北京时间 11 月 3 日 10:14 被检测到。10:49 已回滚该配置。", [S, S]),
        ("故障在北京时间 11 月 3 日 10:14 被检测到。10:48 已回滚该配置。", [S, U]),
        ("故障在 11 月 3 日 10:14 被检测到。10:49 已回滚该配置。", [U, U]),
        ("Detected at 10:14 AM Beijing time. Rolled back at 10:49 AM.", [S, S]),
    ],
)
def test_a_time_zone_named_earlier(answer: str, expected: list[Verdict]) -> None:
    assert [c.verdict for c in CHECKER.check(answer, [INCIDENT]).claims] == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a count of a total written like a date: both numbers are the tool's
        ("All 12/12 health checks passed.", {"checks": {"passed": 12, "total": 12}}, S),
        ("这节课已经满了（12/12）。", {"booked": 12, "capacity": 12}, S),
        ("已报名 11/12。", {"booked": 11, "capacity": 12}, S),
        ("已报名 10/12。", {"booked": 11, "capacity": 12}, U),
        ("It ships on 12/12.", {"ship_date": "2026-12-14"}, U),  # no 12 in the tool: still a date
    ],
)
def test_a_fraction_written_like_a_date(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)]) == expected


BOOKED = call("get_reservation", {"status": "CONFIRMED"})
NOT_MODIFIED = call("modify_reservation", "VEHICLE_CLASS_UNAVAILABLE: no SUV", status="error")


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # the state a record kept: a call that failed to change it bears it out
        ("Your reservation is unchanged and still confirmed.", [BOOKED, NOT_MODIFIED], S),
        ("Your reservation is still confirmed.", [call("get_reservation", {"status": "CANCELLED"}), NOT_MODIFIED], C),
        ("Your reservation is still confirmed.", [NOT_MODIFIED], C),  # nothing else states it
        ("预订仍然已确认。", [BOOKED, NOT_MODIFIED], S),
    ],
)
def test_a_status_a_record_kept(answer: str, tools: list, expected: Verdict) -> None:
    assert verdict(answer, tools) == expected


CARD = {"transactions": [{"amount": 42.5, "status": "POSTED"}, {"amount": 88.9, "status": "POSTED"},
                         {"amount": 1.5, "status": "POSTED"}, {"amount": 36.75, "status": "PENDING"}]}
PAYSLIP = {"base": 16000, "bonus": 2500, "deductions": {"total": 4256.42}}


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a total said before the parts that add up to it
        ("三笔合计 ¥132.90（¥42.50、¥88.90、¥1.50）。", CARD, S),
        ("三笔合计 ¥133.90（¥42.50、¥88.90、¥1.50）。", CARD, C),  # they come to 132.90: a slipped digit
        ("三笔合计 ¥132.90（¥42.50、¥88.90、¥1.60）。", CARD, U),  # a part no tool gives
        ("合计 ¥132.90，其中外卖 ¥42.50。", CARD, U),  # one part is no sum
        # against a tool's other total the sum must be written out
        ("税前合计 18,500 元（基本工资 16,000 + 绩效 2,500）。", PAYSLIP, S),
        ("税前合计 18,500 元（基本工资 16,000 + 绩效 2,600）。", PAYSLIP, C),
    ],
)
def test_a_total_before_its_parts(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)]) == expected


@pytest.mark.parametrize(
    ("answer", "output", "expected"),
    [
        # a time written without a.m. or p.m. may be the tool's time twelve hours on
        ("There's a 7:15 table on the patio.", {"slots": ["19:15", "21:00"]}, S),
        ("There's a 7:15 AM table on the patio.", {"slots": ["19:15", "21:00"]}, U),
        ("There's a 7:45 table on the patio.", {"slots": ["19:15", "21:00"]}, U),
        # a score given as a share of 1
        ("The draft scored 83 in the humanize check.", {"score": 0.83, "threshold": 0.7}, S),
        ("The draft scored 38 in the humanize check.", {"score": 0.83, "threshold": 0.7}, C),
        # a duration takes no count label from before it
        ("餐厅只保留座位 15 分钟。", {"guests": 4, "hold_minutes": 15}, S),
        ("餐厅只保留座位 25 分钟。", {"guests": 4, "hold_minutes": 15}, U),
    ],
)
def test_numbers_and_times_read_as_people_write_them(answer: str, output: dict, expected: Verdict) -> None:
    assert verdict(answer, [call("lookup", output)]) == expected


POINTS_BALANCE = call(
    "get_points", {"member_id": "M2093", "balance": 12000, "expiring": [{"points": 3500, "at": "2026-12-31"}]}
)
POINTS_RULE = ["积分规则：100 积分可抵扣 1 元。"]


@pytest.mark.parametrize(
    ("answer", "tools", "context", "expected"),
    [
        # 目前共有 is a balance; a rate the context states is backed by it, not contradicted by the tool's points
        ("您目前共有1.2万积分，按100积分抵1元计算，全部可抵120元。", [POINTS_BALANCE], POINTS_RULE, S),
        ("您目前共有1.3万积分。", [POINTS_BALANCE], POINTS_RULE, C),
        ("您目前共有1.2万积分，按200积分抵1元计算。", [POINTS_BALANCE], POINTS_RULE, C),
        # 税前 is no tax
        ("您4月税前工资为18,500元，个税357.75元。", [call("get_payslip", {"gross_pay": 18500, "tax": 357.75})], [], S),
        # a bare year a tool's date holds
        ("Your 2026 invoices:", [call("list_invoices", {"data": [{"period_start": "2026-01-01"}]})], [], S),
        ("Your 2025 invoices:", [call("list_invoices", {"data": [{"period_start": "2026-01-01"}]})], [], U),
        # the time from a claim's time to another of its record
        ("It opened at 02:14 UTC and was mitigated 37 minutes later.",
         [call("get_incident", {"opened_at": "02:14", "mitigated_at": "02:51"})], [], S),
        ("It opened at 02:14 UTC and was mitigated 47 minutes later.",
         [call("get_incident", {"opened_at": "02:14", "mitigated_at": "02:51"})], [], U),
    ],
)
def test_held_out_batch_nine_forms(answer: str, tools: list, context: list, expected: Verdict) -> None:
    assert verdict(answer, tools, context) == expected


INCIDENT_LOG = call("get_incident", "INC-20417 | sev2 | status=mitigated\nopened 2026-05-20 03:12 UTC\n03:19 ack r.kim")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("INC-20417 (Sev 2) is mitigated.", S),  # the tool writes it as one word, sev2
        ("INC-20417 (Sev 3) is mitigated.", U),
        ("It opened at 03:12 UTC and r.kim acknowledged it seven minutes later.", S),  # times of one short log
        ("It opened at 03:12 UTC and r.kim acknowledged it nine minutes later.", U),
    ],
)
def test_a_short_log(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [INCIDENT_LOG]) == expected


RESERVATION = call("get_reservation", {"stay": {"adults": 2}, "room": "King Deluxe"})
SIGNED = call("get_order", {"signed": "2025-05-02", "days": 7})
POINTS_TOOL = call("get_points", {"memberId": "M8", "balance": 12580, "expiring": [{"points": 3000}],
                                  "lastEarned": {"points": 420}})


@pytest.mark.parametrize(
    ("answer", "tools", "context", "expected"),
    [
        # a number whose unit names its field is no count, and points are compared with a points balance
        ("您目前是金卡会员，共有 12,580 积分。", [POINTS_TOOL], [], S),
        ("您共有 13,580 积分。", [POINTS_TOOL], [], C),
        ("其中 3,000 积分将于年底过期。", [POINTS_TOOL], [], S),
        # a count of guests, not of rooms
        ("| Room | King Deluxe, 2 adults |", [RESERVATION], [], S),
        # a duration of days is worked out before a days field contradicts it
        ("5 月 2 日签收，到今天已经 11 天，超过了 7 天的期限。", [SIGNED], ["今天是 2025-05-13。"], S),
        ("5 月 2 日签收，到今天已经 12 天，超过了 7 天的期限。", [SIGNED], ["今天是 2025-05-13。"], C),
    ],
)
def test_labels_of_counts_balances_and_durations(answer: str, tools: list, context: list, expected: Verdict) -> None:
    assert verdict(answer, tools, context) == expected


_SLOTS = [call("get_slots", {"date": "2025-11-22", "slots": []}), call("get_slots", {"date": "2025-11-23", "n": 1})]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a day said alone is in the month of a date the answer gave before it
        ("这周六（11 月 22 日）已经约满了。周日（23 日）还有名额。", S),
        ("这周六（11 月 22 日）已经约满了。周日（24 日）还有名额。", U),
        ("周日（23 日）还有名额。", U),  # no month given before it
    ],
)
def test_a_day_of_the_month_said_alone(answer: str, expected: Verdict) -> None:
    report = CHECKER.check(answer, _SLOTS)
    assert report.claims[-1].verdict == expected, report


LEADS = call("list_leads", {"items": [{"estValueCents": v} for v in (4800000, 1250000, 2100000)]})


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a column of cents sums to whole units
        ("Together they're worth about $81.5K.", S),
        ("Together they're worth $81,500.", S),
        ("Together they're worth about $82.5K.", U),
    ],
)
def test_a_column_total_in_cents(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [LEADS]) == expected


_NAIVE_LOG = call("get_logs", "[2025-03-21 06:41:30,118] ERROR - load_fx_rates failed after 3 tries")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a time in one zone backed by the claim's own backed time in another
        ("The task gave up at about 2:41 AM Eastern (6:41 UTC).", S),
        ("The task gave up at 3:41 AM Eastern (6:41 UTC).", U),
        ("北京时间 14:41（UTC 6:41）任务失败。", S),
        ("北京时间 15:41（UTC 6:41）任务失败。", U),
        ("The task gave up at 2:41 AM (6:41 UTC).", U),  # no zone of its own
        ("It failed at 2:41 AM Boston time (6:41 UTC).", S),  # a city's time
    ],
)
def test_a_time_in_another_zone_of_the_same_claim(answer: str, expected: Verdict) -> None:
    assert verdict(answer, [_NAIVE_LOG]) == expected


@pytest.mark.parametrize(
    ("answer", "output", "near"),
    [
        ("Your RMA number is RMA-730181.", {"rma": "RMA-730118"}, "RMA-730118"),  # two digits swapped
        ("订单 88321 已退款。", {"order_id": 88231, "status": "refunded"}, "88231"),  # a JSON number
        ("Order W88321 shipped.", "order W88231 shipped on 2026-11-02", "W88231"),  # inside text, as written
        ("Your RMA number is RMA-730181.", {"rma": "RMA-555555"}, None),  # far from every tool value
        ("Your RMA number is RMA-730181.", {"rma": "RMA-730118", "other": "RMA-730182"}, "RMA-730118"),
    ],
)
def test_an_unbacked_identifier_names_the_tool_value_one_edit_from_it(answer: str, output, near) -> None:
    report = CHECKER.check(answer, [call("lookup", output)])
    fact = next(f for c in report.claims for f in c.facts if f.kind.value == "identifier" and f.verdict.flagged)
    assert fact.verdict == U and fact.code == "not_found"  # still unbacked: a near value is no backing
    if near is None:
        assert not fact.evidence and "one edit" not in fact.reason
    else:
        assert f"one gives {near!r}, one edit from it" in fact.reason and len(fact.evidence) == 1


_ORDER = {"name": "get_order_details", "args": {"order_id": "#W1"},
          "output": {"order_id": "#W1", "items": [{"name": "Lamp", "item_id": "111", "price": 2291.87}]}}
_VARIANT = {"name": "get_product_details", "args": {"product_id": "9"},
            "output": {"variants": {"222": {"item_id": "222", "price": 2459.74, "available": True}}}}


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("If you exchange it for item 222, you'll be charged $167.87.", "supported"),  # 2459.74 - 2291.87
        ("If you exchange it for item 222, you'll be charged $167.78.", "contradicted"),
    ],
)
def test_a_charge_or_refund_may_be_the_difference_of_two_calls_prices(answer, verdict) -> None:
    from factcheck import check

    report = check(answer, [_ORDER, _VARIANT, {"name": "get_payment", "args": {}, "output": {"amount": 2291.87}}])
    amount = next(f for c in report.claims for f in c.facts if f.text.startswith("$"))
    assert amount.verdict.value == verdict


def _number(answer: str, output, text: str, name: str = "get_record"):
    from factcheck import check

    report = check(answer, [{"name": name, "args": {}, "output": output}])
    return next(f for c in report.claims for f in c.facts if f.text == text)


@pytest.mark.parametrize(
    ("answer", "output", "text", "verdict"),
    [
        # a field that gives a rate: the amount is worked out on a backed amount of the answer
        ("房费 ¥4,720.00 + 税 ¥283.20。", {"room_charge": 4720, "tax": 0.06}, "¥283.20", "supported"),
        ("房费 ¥4,720.00 + 税 ¥290.00。", {"room_charge": 4720, "tax": 0.06}, "¥290.00", "contradicted"),
        # a count's field (`total_baggages`) says nothing of an amount of money
        ("Total paid: $1,296.00.", {"total_baggages": 3, "payment_history": [{"amount": 234}, {"amount": 1062}]},
         "$1,296.00", "supported"),
        # a breakdown a dash opens after the total adds up to it
        ("Total paid: $1,084.00 — gift card $202.00, credit card $882.00.",
         {"payments": [{"method": "gift_card", "amount": 202}, {"method": "credit_card", "amount": 882}],
          "total": 143}, "$1,084.00", "supported"),
    ],
)
def test_amounts_worked_out_from_the_records(answer, output, text, verdict) -> None:
    assert _number(answer, output, text).verdict.value == verdict


def test_each_item_of_an_enumeration_keeps_its_own_value() -> None:
    out = {"payment_history": [{"payment_id": "gift_card_1", "amount": 234}, {"payment_id": "credit_card_2",
                                                                            "amount": 1062}]}
    fact = _number("$234.00 from your gift card and $1,062.00 on your Mastercard.", out, "$1,062.00")
    assert fact.verdict == Verdict.SUPPORTED


def test_the_named_call_with_no_value_of_the_field_contradicts_another_calls() -> None:
    from factcheck import check

    calls = [{"name": "get_claim", "args": {"claim_id": f"CLM-{i}"},
              "output": {"claim_id": f"CLM-{i}", "approved_amount": amount}} for i, amount in ((1, 8420), (2, None))]
    report = check("Your theft claim CLM-2 was approved for $8,420.00.", calls)
    fact = next(f for c in report.claims for f in c.facts if f.text == "$8,420.00")
    assert fact.verdict == Verdict.CONTRADICTED and fact.code == "wrong_record" and "null" in fact.reason


@pytest.mark.parametrize(("claimed", "verdict"), [("$41.00", "contradicted"), ("$38.50", "supported")])
def test_the_cheapest_by_a_daily_rate_ignores_the_searchs_own_days(claimed, verdict) -> None:
    out = {"rental_days": 4, "options": [
        {"model": "Mirage", "daily_rate": 36.9, "available": False, "seats": 4},
        {"model": "Rio", "daily_rate": 38.5, "available": True, "seats": 5},
        {"model": "Corolla", "daily_rate": 41.0, "available": True, "seats": 5}]}
    fact = _number(f"For 4 days, the cheapest car available is at {claimed}/day.", out, claimed, "search_vehicles")
    assert fact.verdict.value == verdict


@pytest.mark.parametrize(
    ("answer", "output", "text"),
    [
        # a page's `total_count` counts items: it says nothing of an amount of money
        ("Total: $111.48.", {"page": 1, "total_count": 7, "items": [{"price": 100.0}, {"price": 11.48}]}, "$111.48"),
        # "left out" is no balance left
        ("I left out the $61.22 charge because it was reversed.",
         {"balance": 26, "transactions": [{"amount": 61.22, "status": "reversed"}]}, "$61.22"),
    ],
)
def test_fields_that_do_not_speak_for_an_amount(answer, output, text) -> None:
    assert _number(answer, output, text).verdict != Verdict.CONTRADICTED


CLAIM_RUN = [
    call("get_claim", {"claim_id": "CLM-1", "totals": {"billed": 6300.0, "allowed": 5550.0}, "payout": 3325.0,
                       "payment": {"method": "bank_transfer", "account_last4": "5656"}}),
]
PROFILE_AND_FLIGHTS = [
    call("get_user", {"user_id": "u1", "saved_passengers": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]}),
    call("search_flights", {"flights": [{"flight": "HA1", "stops": 0}, {"flight": "HA2", "stops": 0},
                                        {"flight": "HA3", "stops": 1}, {"flight": "HA4", "stops": 0}]}),
]


@pytest.mark.parametrize(
    ("answer", "tools", "text", "not_code"),
    [
        # a field named as an identifier's takes no label from its object: `payment.account_last4` is no amount
        ("核定金额：¥5,550.00", CLAIM_RUN, "¥5,550.00", "value_mismatch"),
        # the length of some list of the run is no field the count misread (the saved travellers are not flights)
        ("I found 3 direct flights on that day.", PROFILE_AND_FLIGHTS, "3", "value_mismatch"),
        # "..." masks a card number as "****" does: its last digits are no amount
        ("Extra cost: $248.00, charged to card ...5585", [call("change_room", {
            "paid": 860, "adjustment": {"type": "charge", "amount": 248, "to_card_last4": "5585"}})], "5585",
         "value_mismatch"),
    ],
)
def test_what_no_field_of_the_number_says_does_not_contradict_it(answer, tools, text, not_code) -> None:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == text)
    assert fact.code != not_code, fact.reason


def test_a_bare_success_word_after_every_action_failed_is_contradicted_by_the_failed_call() -> None:
    tools = [call("search_flights", {"results": [{"flight": "MU734", "status": "available"}]}),
             call("change_reservation", "Error 409: fare no longer available", "error")]
    report = CHECKER.check("已为您改签成功，新航班是 MU734。", tools)
    flags = [f for c in report.claims for f in c.facts if f.verdict == C]
    assert any(f.code == "tool_error" for f in flags), [(f.text, f.code, f.reason) for c in report.claims
                                                       for f in c.facts]


_LOAN = call("get_loan", {"loan_id": "LN-502663865", "installments": 48, "next_due": "2026-09-15",
                          "payments": [{"n": 11, "amount": 217.75}, {"n": 12, "amount": 217.75}]})
_BILLS = call("list_bills", {"bills": [{"id": "B1", "balance": 117.61}, {"id": "B2", "balance": 197.57},
                                       {"id": "B3", "balance": 0}]})


@pytest.mark.parametrize(
    ("answer", "tools", "text", "expected"),
    [
        # a whole number written bare counts something: a field of money (a money label, or values with cents)
        # does not speak for it
        ("You've paid 2 of them so far.", [_LOAN], "2", (S, U, V)),
        ("未缴账单：2 期。", [_BILLS], "2", (S, U, V)),
        # an amount with its currency, or a bare amount with cents, is still compared with the field
        ("The payment amount is $271.75.", [_LOAN], "$271.75", (C,)),
        ("The balance of bill B2 is 197.75.", [_BILLS], "197.75", (C,)),
    ],
)
def test_a_bare_whole_number_is_no_amount_of_money(answer: str, tools: list, text: str, expected: tuple) -> None:
    [fact] = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == text]
    assert fact.verdict in expected, fact
    if fact.verdict != C:
        assert fact.code != "value_mismatch"


_LOAN_AND_ACCOUNT = [
    call("get_loan", {"loan_id": "ML-3300917", "principal_outstanding": 812345.67, "next_due": "2025-08-20"}),
    call("get_account_balance", {"account": "6222****8841", "available": 5120.33, "currency": "CNY"}),
]
_REFUND_WITH_SHIPPING = [call("get_refund", {"order_id": "91408", "refund_amount": 58.4, "shipping_fee": 7.95,
                                             "currency": "USD", "refund_status": "completed"})]
_ORDER_OF_ITEMS = [call("get_order_details", {"order_id": "#W9348897", "items": [
    {"name": "Lamp", "price": 288.82}, {"name": "Desk", "price": 878.16}],
    "payment_history": [{"transaction_type": "payment", "amount": 1166.98}]})]
_TERM_CHARGES = [call("get_student_account", {"student_id": "20241187", "charges": [
    {"desc": "Tuition", "amount": 6840.0}, {"desc": "Technology fee", "amount": 180.0},
    {"desc": "Lab fee - CHEM 210", "amount": 60.0}], "late_fee": 75.0}),
    call("get_payment_plans", {"plans": [{"name": "Monthly", "enrollment_fee": 40.0}]})]


@pytest.mark.parametrize(
    ("answer", "tools", "text", "expected", "code"),
    [
        # a tool states the value in a field that names nothing else (`available`): a loan's balance, of another
        # number, gives no evidence against it
        ("还款账户可用余额 5,120.33 元，够扣下一期。", _LOAN_AND_ACCOUNT, "5,120.33 元", S, "match"),
        # a field that names something else (`shipping_fee`) does not back the refund it is not
        ("Refund amount: $7.95, back to your original payment method.", _REFUND_WITH_SHIPPING, "$7.95", C,
         "value_mismatch"),
        # one item's price given as the order's total is still no total
        ("The total amount of your order is $288.82.", _ORDER_OF_ITEMS, "$288.82", C, None),
        # a line the claim names whole says what its amount is: fees of other names say nothing against it
        ("- Technology fee: $180.00", _TERM_CHARGES, "$180.00", S, "match"),
        ("Charges: tuition $6,840.00, technology fee $180.00.", _TERM_CHARGES, "$180.00", S, "match"),
        # the line of another fee than the one the claim names does not
        ("- Lab fee: $180.00", _TERM_CHARGES, "$180.00", C, "value_mismatch"),
    ],
)
def test_a_value_a_tool_states_elsewhere(answer: str, tools: list, text: str, expected: Verdict, code) -> None:
    [fact] = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == text]
    assert fact.verdict == expected, fact
    if code is not None:
        assert fact.code == code, fact


@pytest.mark.parametrize(
    ("second", "expected"),
    [
        ({"items": 10}, (U, C)),  # a count of another call: no amount of money takes part in a sum of money
        ({"fee": 10.0}, (S,)),  # an amount of money of another call may
    ],
)
def test_a_sum_of_money_across_calls_adds_amounts_of_money(second: dict, expected: tuple) -> None:
    tools = [call("get_product", {"price": 167.87}), call("get_cart", second)]
    [fact] = [f for c in CHECKER.check("You will be charged $177.87.", tools).claims for f in c.facts
              if f.text == "$177.87"]
    assert fact.verdict in expected, fact


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ({"price": 170.68, "seats_left": 20}, (U,)),  # a count is never taken off an amount of money
        ({"price": 170.68, "discount": 20.0}, (S,)),  # a discount is
        ({"price": 75.34, "quantity": 2}, (S,)),  # a count multiplies: 75.34 × 2
    ],
)
def test_an_amount_of_money_is_worked_out_from_amounts_and_counts_each_in_its_role(output: dict, expected) -> None:
    answer = "That comes to $150.68."
    assert verdict(answer, [call("get_offer", output)]) in expected


_RATE_ONLY = call("get_folio", {"lines": [{"code": "CITYTAX", "desc": "City tax 6%"}], "currency": "CNY"})
_WITH_AMOUNT = call("get_folio", {"lines": [{"code": "CITYTAX", "desc": "City tax 6%"}], "city_tax": 180.0,
                                  "currency": "CNY"})


@pytest.mark.parametrize(
    ("answer", "folio", "expected"),
    [
        # a tool's percentage of a field is no amount of money of it: found nowhere, not contradicted by the 6
        ("城市税 192 元。", _RATE_ONLY, Verdict.UNSUPPORTED),
        ("City tax: ¥192.", _RATE_ONLY, Verdict.UNSUPPORTED),
        # the field's own amount still speaks for it
        ("城市税 180 元。", _WITH_AMOUNT, Verdict.SUPPORTED),
        ("城市税 190 元。", _WITH_AMOUNT, Verdict.CONTRADICTED),
    ],
)
def test_an_amount_is_not_compared_with_a_percentage(answer: str, folio: dict, expected: Verdict) -> None:
    facts = [f for c in CHECKER.check(answer, [folio]).claims for f in c.facts if f.kind.value == "number"]
    assert facts[-1].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]


@pytest.mark.parametrize(
    ("answer", "context", "expected"),
    [
        # the window the user asked about, counted back from now: the user's number, not the record's days
        ("Paid in the last 30 days: EXP-1, CNY 883.64.", ["What got paid out in the last 30 days?"], Verdict.SUPPORTED),
        ("近 30 天已到账：EXP-1。", ["最近30天到账了哪些？"], Verdict.SUPPORTED),
        # a number of days said as the record's, not a window: the record's value speaks
        ("Payment runs close 30 days before the run.", ["What got paid out in the last 30 days?"],
         Verdict.CONTRADICTED),
    ],
)
def test_a_window_counted_back_is_the_users(answer: str, context: list[str], expected: Verdict) -> None:
    calendar = call("get_reimbursement_calendar", {"payment_runs": ["2026-12-10"], "cutoff_days_before_run": 3,
                                                   "claims": [{"claim_id": "EXP-1", "amount": 883.64}]})
    facts = [f for c in CHECKER.check(answer, [calendar], context).claims for f in c.facts
             if f.kind.value == "number" and f.value == "30"]
    assert facts[0].verdict == expected, [(f.text, f.verdict, f.reason) for f in facts]
