"""Typographic apostrophes and hyphens, and bold around a number: the text helpers, and verdicts that do not change
when an answer or a tool writes them."""

from __future__ import annotations

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.typography import plain_marks, plain_text, plain_value

CHECKER = FactChecker(CheckerConfig(min_confidence=0))

INVOICE_READ = [{"name": "get_invoice", "args": {"invoice_id": "INV-2207"},
                 "output": {"invoice_id": "INV-2207", "status": "open", "due_date": "2025-08-29", "amount": 1148.0,
                            "item": "T-Shirt (V-neck)"}}]
ORDER_READ = [{"name": "get_order_details", "args": {"order_id": "#W1042"},
               "output": {"order_id": "#W1042", "status": "pending", "email": "ava.n@example.com"}}]
REFUND_FAILED = [{"name": "refund_order", "args": {"order_id": "#W1042"}, "status": "error",
                  "output": "Error: payment gateway timeout"}]
REGISTRATIONS = [{"name": "get_group_registrations", "args": {"group_id": "GRP-311"},
                  "output": {"group_id": "GRP-311", "registrations": [
                      {"name": "Priya Nair", "pass": "Full Pass", "price": 899.0, "status": "paid"},
                      {"name": "James O'Connor", "pass": "Full Pass", "price": 899.0, "status": "paid"},
                      {"name": "Carlos Vega", "pass": "Expo Pass", "price": 149.0, "status": "paid"},
                      {"name": "Mei Tanaka", "pass": "Full Pass", "price": 1148.0, "status": "pending"}]}}]
REGISTRATIONS_CURLY = [{**REGISTRATIONS[0], "output": {**REGISTRATIONS[0]["output"], "registrations": [
    {**r, "name": r["name"].replace("'", "\u2019")} for r in REGISTRATIONS[0]["output"]["registrations"]]}}]


def _flags(answer: str, tools: list) -> list[tuple[int, int, str | None, float]]:
    report = CHECKER.check(answer, tools)
    return [(f.start, f.end, f.code, f.confidence) for c in report.claims for f in c.facts if f.verdict.flagged]


@pytest.mark.parametrize(("text", "plain"), [
    ("I\u2019ve sent it", "I've sent it"),
    ("don\u2018t", "don't"),
    ("O\u02bcConnor", "O'Connor"),
    ("INV\u20112207, due 2025\u201108\u201129", "INV-2207, due 2025-08-29"),
    ("T\u2010Shirt \u2013 $12 \u2212 $2", "T-Shirt \u2013 $12 \u2212 $2"),
    ("You still owe **$2,310.00**, due", "You still owe   $2,310.00  , due"),
    ("**3 nights** at **\u00a5480**", "  3 nights   at   \u00a5480  "),
    ("**Total: $5**", "**Total: $5**"),
    ("**Total:** $5 on Visa ****0385, 138****2201", "**Total:** $5 on Visa ****0385, 138****2201"),
    ("no mark here", "no mark here"),
    ("已为您退款", "已为您退款"),
])
def test_plain_text_keeps_every_offset(text: str, plain: str) -> None:
    assert plain_text(text) == plain
    assert len(plain_text(text)) == len(text)
    assert "**" not in text or plain_marks(text) == text.replace("\u2019", "'")


def test_plain_value_copies_only_what_changes() -> None:
    untouched = {"a": ["x", 1, None], "b": {"c": "d"}, "note": "**$5** back"}  # a tool's bold is its own
    assert plain_value(untouched) is untouched
    changed = {"name": "O\u2019Connor", "tags": ("it\u2019s", 2), "n": 3, "keep": {"k": "v"}}
    out = plain_value(changed)
    assert out == {"name": "O'Connor", "tags": ("it's", 2), "n": 3, "keep": {"k": "v"}}
    assert out["keep"] is changed["keep"] and changed["name"] == "O\u2019Connor"


def test_plain_value_leaves_a_value_too_deep_to_walk() -> None:
    deep: list = ["it\u2019s"]
    for _ in range(5000):
        deep = [deep]
    assert plain_value(deep) is deep


@pytest.mark.parametrize(("answer", "tools"), [
    # a send no tool ran, and a refund the tool refused: the same flags, at the same confidence, either way
    ("I've sent the updated order confirmation to ava.n@example.com.", ORDER_READ),
    ("We've emailed you a copy of the receipt.", ORDER_READ),
    ("I've refunded order #W1042 to your card.", REFUND_FAILED),
    ("The refund didn't go through, so I haven't charged anything.", REFUND_FAILED),
    ('{"message": "I\'ve sent the updated order confirmation to ava.n@example.com."}', ORDER_READ),
    # a total of the items the claim names by a name with an apostrophe
    ("Priya Nair and James O'Connor: $1,798.00 in total.", REGISTRATIONS),
    ("Priya Nair, James O'Connor and Carlos Vega: $1,947.00 in total.", REGISTRATIONS),
])
def test_a_typographic_apostrophe_in_the_answer_changes_no_verdict(answer: str, tools: list) -> None:
    curly = answer.replace("'", "\u2019")
    assert _flags(curly, tools) == _flags(answer, tools)


@pytest.mark.parametrize("answer", [
    "Invoice INV-2207 for the T-Shirt (V-neck), $1,148.00, is open and due 2025-08-29.",
    "Invoice INV-2270 is open and due 2025-08-28.",  # another id and date: flagged the same either way
    "发票 INV-2207 金额 $1,184.00，到期日 2025-08-29。",
])
@pytest.mark.parametrize("where", ["answer", "tool"])
def test_a_non_breaking_hyphen_changes_no_verdict(answer: str, where: str) -> None:
    def nb(text: str) -> str:
        return text.replace("-", "\u2011")
    written = [{**INVOICE_READ[0], "args": {"invoice_id": nb("INV-2207")},
                "output": {k: nb(v) if isinstance(v, str) else v for k, v in INVOICE_READ[0]["output"].items()}}]
    if where == "answer":
        assert _flags(nb(answer), INVOICE_READ) == _flags(answer, INVOICE_READ)
    else:
        assert _flags(answer, written) == _flags(answer, INVOICE_READ)


STATEMENT = [{"name": "get_account_statement", "args": {"student_id": "S5521"},
              "output": {"student_id": "S5521", "currency": "USD", "due_date": "2026-01-20",
                         "charges": [{"desc": "Tuition", "amount": 5230.0},
                                     {"desc": "Housing deposit", "amount": 385.0},
                                     {"desc": "Studio fee", "amount": 95.0}],
                         "credits": [{"desc": "Regional Grant", "amount": -2000.0},
                                     {"desc": "Payment 2025-12-01", "amount": -1500.0}]}}]
WORKED = ("Here's your Spring 2026 account:\n\nCharges: tuition $5,230.00 + housing deposit $385.00 + studio fee $95.00"
          " = $5,710.00\nCredits: Regional Grant $2,000.00 + your December 1 payment $1,500.00 = $3,500.00\n\n"
          "You still owe {}, due January 20, 2026.")


@pytest.mark.parametrize(("owed", "flagged"), [("$2,310.00", True), ("$2,210.00", False)])
def test_bold_around_an_amount_changes_no_verdict(owed: str, flagged: bool) -> None:
    # the answer's own working comes to 5,710 − 3,500 = 2,210: a slipped digit is caught bold or not
    default = FactChecker()
    plain, bold = (default.check(WORKED.format(amount), STATEMENT) for amount in (owed, f"**{owed}**"))
    codes = [[f.code for c in r.claims for f in c.facts if f.verdict.flagged] for r in (plain, bold)]
    assert codes[0] == codes[1] == (["recomputed"] if flagged else [])


FLIGHT_CHANGED = [{"name": "update_reservation_flights", "args": {"reservation_id": "RZ8K2Q", "flight": "HAT519"},
                   "output": {"reservation_id": "RZ8K2Q", "flights": [{"flight_number": "HAT519"}],
                              "payment_history": [{"payment_id": "credit_card_4420", "amount": 412},
                                                  {"payment_id": "credit_card_4420", "amount": -86}]}}]


@pytest.mark.parametrize("amount", ["$86", "**$86**"])
def test_a_bold_amount_keeps_the_reach_of_its_direction_words(amount: str) -> None:
    # the records give 86 back to the card: "charged" after it is the wrong way, bold or not
    report = FactChecker().check(f"The fare difference of {amount} has been charged to your credit card on file.",
                                 FLIGHT_CHANGED)
    assert [f.code for c in report.claims for f in c.facts if f.text == "$86"] == ["wrong_direction"]


@pytest.mark.parametrize("answer", [
    "Priya Nair and James O'Connor: $1,798.00 in total.",
    "Priya Nair, James O'Connor and Carlos Vega: $1,947.00 in total.",
])
def test_a_typographic_apostrophe_in_a_tool_output_changes_no_verdict(answer: str) -> None:
    assert _flags(answer, REGISTRATIONS_CURLY) == _flags(answer, REGISTRATIONS)


def test_the_report_keeps_the_answer_as_written() -> None:
    answer = "I\u2019ve sent the updated order confirmation to ava.n@example.com."
    report = CHECKER.check(answer, ORDER_READ)
    claim = report.claims[0]
    assert claim.text == answer[claim.start : claim.end] and "\u2019" in claim.text
    sent = next(f for f in claim.facts if f.verdict.flagged)
    assert sent.text == answer[sent.start : sent.end] == "sent"
    assert sent.confidence >= 0.7


@pytest.mark.parametrize("tools", [REGISTRATIONS, REGISTRATIONS_CURLY])
@pytest.mark.parametrize("name", ["James O'Connor", "James O\u2019Connor"])
def test_a_total_of_items_named_with_either_apostrophe_is_backed(name: str, tools: list) -> None:
    assert _flags(f"Priya Nair, {name} and Carlos Vega: $1,947.00 in total.", tools) == []


def test_a_typographic_apostrophe_in_the_context_changes_no_confidence() -> None:
    # the user's words are read like the answer's: a flag whose words the user wrote weighs the same either way
    exchange_failed = [{"name": "exchange_order_items", "args": {"order_id": "#W1042"}, "status": "error",
                        "output": "Error: order is not delivered"}]
    answer = "I\u2019ve exchanged the blender on order #W1042."
    user = "Your note says I've exchanged the blender already?"
    curly = CHECKER.check(answer, exchange_failed, [user.replace("'", "\u2019")])
    straight = CHECKER.check(answer, exchange_failed, [user])
    weights = [[(f.text, f.confidence) for c in r.claims for f in c.facts if f.verdict.flagged]
               for r in (curly, straight)]
    assert weights[0] == weights[1] and weights[0]
