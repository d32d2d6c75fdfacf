"""Small faithful transcripts, one per class, that support the class they are named after."""

from __future__ import annotations

from typing import Any


def call(name: str, output: Any, status: str = "ok", **args: Any) -> dict[str, Any]:
    """A case-format tool call."""
    return {"name": name, "args": args, "output": output, "status": status}


def case(answer: str, calls: list[dict[str, Any]], lang: str = "en", question: str = "Can you help?",
         case_id: str = "c-1-3") -> dict[str, Any]:
    """A faithful case-format mapping."""
    return {"id": case_id, "lang": lang, "domain": "retail", "question": question, "tool_calls": calls,
            "context": [], "answer": answer, "hallucinated_spans": [], "source": "owner/repo@abc:file.jsonl",
            "license": "MIT"}


ORDER = call("get_order_details", {"order_id": "#W4923227", "status": "delivered", "total": 45.2})
ITEMS2 = call("get_order_details", {"order_id": "#W4923227", "status": "pending", "items": [
    {"name": "Desk Lamp", "price": 100.0}, {"name": "Office Chair", "price": 50.0}]})
ITEMS3 = call("get_order_details", {"order_id": "#W4923227", "status": "pending", "items": [
    {"name": "Desk Lamp", "price": 100.0}, {"name": "Office Chair", "price": 50.0},
    {"name": "Wall Clock", "price": 25.0}]})
USER = call("get_user_details", {"user_id": "mia_li_3668", "orders": ["#W1111111", "#W2222222", "#W3333333"]})
READ1 = call("get_order_details", {"order_id": "#W1111111", "status": "pending", "total": 120.5})
READ2 = call("get_order_details", {"order_id": "#W2222222", "status": "delivered", "total": 80.0})
PLANS = call("list_plans", {"plans": [{"name": "Basic Plan", "price": 10}, {"name": "Pro Plan", "price": 25}]})

MISTAKE_SOURCES: dict[str, dict[str, Any]] = {
    "status_flip": case("Your order #W4923227 is delivered.", [ORDER]),
    "digit_change": case("Order #W4923227 came to $45.20.", [ORDER]),
    "per_unit_as_total": case("The order total is $150.00.", [ITEMS2]),
    "wrong_subset_total": case("The order total is $175.00.", [ITEMS3]),
    "wrong_direction": case("A refund of $30.00 goes back to your card.", [call("refund_preview", {"refund": 30.0})]),
    "wrong_record": case("Order #W1111111 totals $120.50.", [USER, READ1, READ2]),
    "wrong_selection": case("The cheapest is the Basic Plan at $10.", [PLANS]),
    "wrong_count": case("You have three orders on file.", [USER]),
    "incomplete_coverage": case("Order #W1111111 is pending at $120.50, and order #W2222222 was delivered at "
                                "$80.00.", [USER, READ1, READ2]),
    "unbacked_action": case("Your order #W4923227 has been cancelled.",
                            [ORDER, call("cancel_pending_order", {"order_id": "#W4923227", "status": "cancelled"})]),
    "fabricated_reference": case("You can track it at https://track.example.com/pkg/AB12345 today.",
                                 [call("track_package", {"url": "https://track.example.com/pkg/AB12345"})]),
    "user_claim_over_record": case("Your order #W4923227 is delivered.", [ORDER]),
}
"""Class -> a faithful case its run supports (English)."""

ZH_MISTAKE_SOURCES: dict[str, dict[str, Any]] = {
    "status_flip": case("您的账户已成功创建。", [call("create_account", {"status": "success"})], lang="zh"),
    "wrong_count": case("为您找到3个订单。", [USER], lang="zh"),
    "unbacked_action": case("您的账户已成功创建。", [call("create_account", {"status": "success"})], lang="zh"),
    "digit_change": case("订单 #W4923227 的金额为 45.20 美元。", [ORDER], lang="zh"),
}
"""Class -> a faithful Chinese case its run supports."""

REWRITE_SOURCES: dict[str, dict[str, Any]] = {
    "reorder": case("Your items:\n- Desk Lamp\n- Office Chair\n- Wall Clock", [ITEMS3]),
    "number_format": case("The total is $1,240.00.", [call("get_total", {"total": 1240})]),
    "date_format": case("It arrives on 2024-05-17.", [call("get_eta", {"eta": "2024-05-17"})]),
    "status_synonym": case("Your order was cancelled.", [call("get_order", {"status": "cancelled"})]),
    "derived_value": case("Items:\n- Desk Lamp: $100.00\n- Office Chair: $50.00", [ITEMS2]),
    "hedge": case("Your order #W4923227 is delivered.", [ORDER]),
    "numerals": case("You have 3 orders on file.", [USER]),
    "typography": case("I've found order #W4923227: it's delivered, and its total is $45.20.", [ORDER]),
}
"""Rewrite class -> a faithful case it applies to."""

ZH_REWRITE_SOURCES: dict[str, dict[str, Any]] = {
    "numerals": case("为您找到3个订单。", [USER], lang="zh"),
    "date_format": case("会议定在2024年5月17日10点。", [call("create_event", {"date": "2024-05-17 10:00"})], lang="zh"),
    "hedge": case("您的订单已送达。", [call("get_order", {"status": "delivered"})], lang="zh"),
    "status_synonym": case("您的订单已送达。", [call("get_order", {"status": "delivered"})], lang="zh"),
}
"""Rewrite class -> a faithful Chinese case it applies to."""
