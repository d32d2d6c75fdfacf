"""Counts of what the answer goes on to enumerate, in a list or in prose."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
PROFILE = [{"name": "get_user_details", "args": {"user_id": "u1"}, "status": "ok",
            "output": {"user_id": "u1", "name": "Ann Lee", "pending": "#W1 #W2"}}]
ORDERS = [{"name": "get_user_details", "args": {"user_id": "u1"}, "status": "ok",
           "output": {"user_id": "u1", "orders": ["#W1", "#W2", "#W3", "#W4"]}}]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # a claim that opens a list counts the list's items
        ("You have three pending orders:\n\n1. **#W1**\n2. **#W2**\n", PROFILE, Verdict.CONTRADICTED),
        ("You have two pending orders:\n- #W1\n- #W2", PROFILE, Verdict.SUPPORTED),
        # prose that goes on "the first … the second …"
        ("I found 3 pending orders. The first one is #W1. The second one is #W2.", PROFILE, Verdict.CONTRADICTED),
        ("我找到 3 个待发货订单。第一个是 #W1。第二个是 #W2。", PROFILE, Verdict.CONTRADICTED),
        ("I found 2 pending orders. The first one is #W1. The second one is #W2.", PROFILE, Verdict.SUPPORTED),
        # the last item named without its place: the enumeration's length is unknown
        ("I found 3 pending orders. The first one is #W1. The second one is #W2. Finally, #W3.", PROFILE,
         Verdict.SUPPORTED),
        # the records hold that many: the answer may list only those it speaks of
        ("You have 4 orders:\n- #W1\n- #W2", ORDERS, Verdict.SUPPORTED),
    ],
)
def test_a_count_is_what_the_answer_enumerates_after_it(answer, tools, expected) -> None:
    report = CHECKER.check(answer, tools)
    counts = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.unit]
    assert counts[0].verdict == expected, counts
    if expected == Verdict.CONTRADICTED:
        assert counts[0].code == "recomputed" and "2 of them right after it" in counts[0].reason


@pytest.mark.parametrize(
    "answer",
    [
        # a pack size in brackets
        "订单（速干T恤 2件装）的退款情况：\n- 退款单号：RF-1\n- 退款金额：¥156.00\n- 状态：已退款",
        # a condition of the choice, not a count of what is there
        "按 5 人、必须支持 SSO 的条件，可选的套餐：\n- TEAM_PLUS\n- ENTERPRISE",
    ],
)
def test_a_number_that_counts_nothing_listed_is_not_recounted(answer) -> None:
    report = CHECKER.check(answer, PROFILE)
    assert all(f.code != "recomputed" for c in report.claims for f in c.facts)


CARDS = [{"name": "get_user_details", "args": {"user_id": "u1"}, "status": "ok", "output": {"payment_methods": [
    {"id": "gift_card_1", "balance": 5.51, "status": "active"},
    {"id": "gift_card_2", "balance": 49.76, "status": "active"},
    {"id": "gift_card_3", "balance": 147.42, "status": "active"},
    {"id": "gift_card_4", "balance": 139.22, "status": "frozen"}]}}]
BILL = [{"name": "get_bill", "args": {"account": "A1"}, "status": "ok", "output": {
    "lines": [{"number": "139001", "fee": 166}, {"number": "139002", "fee": 103}, {"number": "139003", "fee": 76}],
    "credit": -25, "total": 320}}]
CARS = [{"name": "search_cars", "args": {"city": "SEA"}, "status": "ok", "output": {"days": 5, "results": [
    {"car": "Nissan Versa", "per_day": 38}, {"car": "Kia Rio", "per_day": 44},
    {"car": "Ford Focus", "per_day": 32.5}]}}]


@pytest.mark.parametrize(
    ("answer", "tools", "expected", "code"),
    [
        # the amounts the answer listed before the total add up to it; the tools give several balances, none a total
        ("You can use gift_card_1 ($5.51), gift_card_2 ($49.76) and gift_card_3 ($147.42). Their combined balance "
         "is $202.69.", CARDS, Verdict.SUPPORTED, "derived"),
        ("You can use gift_card_1 ($5.51), gift_card_2 ($49.76) and gift_card_3 ($147.42). Their combined balance "
         "is $212.69.", CARDS, Verdict.CONTRADICTED, "value_mismatch"),
        # a tool states the one total: the answer's own parts (the credit left out) do not outvote it
        ("Line 139001 is $166, line 139002 is $103 and line 139003 is $76. The total is $345.", BILL,
         Verdict.CONTRADICTED, "value_mismatch"),
        ("Line 139001 is $166, line 139002 is $103 and line 139003 is $76. The total is $320.", BILL,
         Verdict.SUPPORTED, "match"),
        # a number of the claim backed after the amount may be its operand: 38 × 5
        ("The Nissan Versa is $38 per day — $190 for the 5 days.", CARS, Verdict.SUPPORTED, "derived"),
        ("The Nissan Versa is $38 per day — $200 for the 5 days.", CARS, Verdict.CONTRADICTED, "value_mismatch"),
    ],
)
def test_a_total_is_worked_out_from_the_answers_own_backed_amounts(answer, tools, expected, code) -> None:
    report = CHECKER.check(answer, tools)
    amounts = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.unit]
    total = max(amounts, key=lambda f: f.start) if "days" not in answer else amounts[1]
    assert (total.verdict, total.code) == (expected, code), total


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a total that opens a list of its parts: the parts the list gives add up to it
        ("You have 3 usable gift cards with a combined balance of $202.69:\n- gift_card_1: $5.51\n"
         "- gift_card_2: $49.76\n- gift_card_3: $147.42", Verdict.SUPPORTED),
        ("您有 3 张礼品卡可以使用，可用余额合计 $202.69。\n- gift_card_1：$5.51\n- gift_card_2：$49.76\n"
         "- gift_card_3：$147.42", Verdict.SUPPORTED),
        # parts that do not add up leave the total as it was
        ("You have 3 usable gift cards with a combined balance of $212.69:\n- gift_card_1: $5.51\n"
         "- gift_card_2: $49.76\n- gift_card_3: $147.42", Verdict.CONTRADICTED),
        # no list right after it: the sum of some of the cards' balances, for a condition nothing here checks
        ("You have 3 usable gift cards with a combined balance of $202.69. gift_card_1 holds $5.51.",
         Verdict.UNVERIFIABLE),
        ("You have 3 usable gift cards with a combined balance of $202.79. gift_card_1 holds $5.51.",
         Verdict.CONTRADICTED),
    ],
)
def test_a_total_that_opens_a_list_is_the_sum_of_its_parts(answer, expected) -> None:
    report = CHECKER.check(answer, CARDS)
    total = next(f for c in report.claims for f in c.facts if f.text in ("$202.69", "$212.69", "$202.79"))
    assert total.verdict == expected, total
    if expected == Verdict.SUPPORTED:
        assert total.code == "derived" and "the amounts the answer lists after it" in total.reason


GRILLS = [{"name": "get_order_details", "args": {"order_id": "#W1"}, "status": "ok", "output": {
    "order_id": "#W1", "items": [{"name": "Grill", "price": 985.66}, {"name": "Grill", "price": 953.39}]}}]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a count in words of a noun the count lexicon does not list, before the list it opens
        ("I found three grills in your order history:\n\n1. **Grill (Electric)** $985.66\n2. **Grill (Portable)** "
         "$953.39", "recomputed"),
        ("I found three recipes for you. The first one is A. The second one is B. Which one?", "recomputed"),
        ("You have four delivered grills:\n- Grill (Electric)\n- Grill (Portable)", "recomputed"),
        # the count agrees, or nothing is enumerated after it: no fact is added
        ("I found two grills in your order history:\n\n1. **Grill (Electric)** $985.66\n2. **Grill (Portable)** "
         "$953.39", None),
        ("I found three grills in your order history. Want me to list them?", None),
    ],
)
def test_a_count_in_words_of_any_plural_noun_is_what_follows(answer, expected) -> None:
    report = CHECKER.check(answer, GRILLS)
    counts = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.unit not in (None, "USD")]
    assert [f.code for f in counts] == ([expected] if expected else []), counts
    if expected:
        assert counts[0].verdict == Verdict.CONTRADICTED and "2 of them right after it" in counts[0].reason


BANK_CARDS = [{"name": "list_cards", "args": {}, "status": "ok", "output": {"cards": [
    {"last4": "1032", "state": "FROZEN"}, {"last4": "0081", "state": "FROZEN"}, {"last4": "7760", "state": "LOST"},
    {"last4": "4410", "state": "ACTIVE"}, {"last4": "5521", "state": "ACTIVE"}]}}]
DEPARTURES = [{"name": "list_departures", "args": {}, "status": "ok", "output": {"departures": [
    {"id": "D-0501", "seats_left": 3}, {"id": "D-0508", "seats_left": 7}, {"id": "D-0515", "seats_left": 0},
    {"id": "D-0522", "seats_left": 12}, {"id": "D-0529", "seats_left": 5}]}}]


@pytest.mark.parametrize(
    ("answer", "tools", "text", "expected"),
    [
        # the one count of the last clause, said to be there, is what the list counts
        ("您名下共有 5 张卡，处于冻结状态的有 3 张：\n- 尾号 1032\n- 尾号 0081\n", BANK_CARDS, "3",
         Verdict.CONTRADICTED),
        ("您名下共有 5 张卡，处于冻结状态的有 2 张：\n- 尾号 1032\n- 尾号 0081\n", BANK_CARDS, "2", None),
        # a party in the clause is no count of what is there ("能容纳 4 人的有：")
        ("五月共 5 个出发团，能容纳 4 人的有：\n- D-0508\n- D-0522\n- D-0529\n", DEPARTURES, "4",
         None),
    ],
)
def test_a_count_beside_other_numbers_is_the_one_its_clause_says_is_there(answer, tools, text, expected) -> None:
    report = CHECKER.check(answer, tools)
    fact = next(f for c in report.claims for f in c.facts if f.text == text and f.kind.value == "number")
    assert (fact.code == "recomputed") == (expected == Verdict.CONTRADICTED), fact.reason


def test_a_list_of_the_claims_other_count_is_no_recount() -> None:
    answer = "还可以转让的有 2 个订单，共 4 张票：\n- 订单 D-0501\n- 订单 D-0508\n"
    report = CHECKER.check(answer, DEPARTURES)
    assert all(f.code != "recomputed" for c in report.claims for f in c.facts)


STATEMENT = [{"name": "get_statement_transactions", "args": {}, "status": "ok",
              "output": {"transactions": [{"id": "T-1", "merchant": "BLUE DOOR", "amount": 42.5},
                                          {"id": "T-2", "merchant": "SHAKE SHACK", "amount": 18.75},
                                          {"id": "T-3", "merchant": "PHO SAIGON", "amount": 23.1}],
                         "fees": 4.0}}]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a total row under its rows: recomputed from them
        ("| Merchant | Amount |\n|---|---|\n| Blue Door | $42.50 |\n| Shake Shack | $18.75 |\n| Pho Saigon | $23.10 |\n"
         "| **Total** | **$94.35** |", Verdict.CONTRADICTED),
        ("| Merchant | Amount |\n|---|---|\n| Blue Door | $42.50 |\n| Shake Shack | $18.75 |\n| Pho Saigon | $23.10 |\n"
         "| **Total** | **$84.35** |", Verdict.SUPPORTED),
        ("退款明细：\n1. BLUE DOOR：$42.50\n2. PHO SAIGON：$23.10\n合计 $75.60。", Verdict.CONTRADICTED),
        # a row that comes off the total
        ("- Blue Door: +$42.50\n- Shake Shack: -$18.75 (credit)\nNet total: $23.75", Verdict.SUPPORTED),
        # what is left over is a number a tool gives (the statement's fees): the rows may leave it out
        ("- Blue Door: $42.50\n- Shake Shack: $18.75\n- Total: $65.25", Verdict.UNSUPPORTED),
        # rows with a count or a unit price are no parts; a difference is no total
        ("- Adults: 2 × $42.50\n- Children: 2 × $18.75\n- Total: $150.00", Verdict.UNSUPPORTED),
        ("- Blue Door: $42.50\n- Shake Shack: $18.75\n- 差价：$30.00", Verdict.UNSUPPORTED),
    ],
)
def test_a_total_row_under_its_rows(answer: str, expected: Verdict) -> None:
    report = CHECKER.check(answer, STATEMENT)
    [total] = [f for c in report.claims for f in c.facts if f.kind.value == "number" and f.start > answer.rfind("\n")]
    assert total.verdict == expected
