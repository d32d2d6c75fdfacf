"""Claims and their facts, through the checker's claim extractor."""

import pytest

from factcheck import FactChecker

EXTRACTOR = FactChecker()._claims


def facts(answer: str) -> list[tuple[str, str]]:
    return [(f.kind.value, f.text) for claim in EXTRACTOR.extract(answer) for f in claim.facts]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a title's numbers name it, they count nothing
        ("文章《远程办公的五个误区》已发布。", [("action", "已发布")]),
        ('The draft "5 Ways to Cut Your Cloud Bill" has 1,140 words.',
         [("name", "Cut Your Cloud Bill"), ("number", "1,140")]),
        ("《在家做咖啡的 5 个误区》共 1860 字。", [("number", "1860")]),
        # outside a title they count
        ("文章列出了五个误区。", [("number", "五")]),
        # a quote of a number alone is no title
        ('The total is "$45".', [("number", "$45")]),
    ],
)
def test_numbers_in_quoted_titles_are_not_facts(answer: str, expected: list) -> None:
    assert facts(answer) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a bare status word speaks of the concept of the sentence before it
        ("The refund was submitted. It failed.", [("refund", "pending"), ("refund", "negative")]),
        # but a new line (a list item) names its own
        ("Your post is live.\n- Draft generated.", [("publish", "positive"), (None, "positive")]),
    ],
)
def test_a_bare_status_word_takes_the_concept_before_it_on_its_line(answer: str, expected: list) -> None:
    found = [(f.concept, f.polarity) for c in EXTRACTOR.extract(answer) for f in c.facts]
    assert found == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a clause of advice: its counts and durations are advice, not facts
        ("Please arrive about 10 minutes early.", []),
        ("请提前 15 分钟到店。", []),
        ("- Please keep 2 receipts.", []),
        # money in advice is still a fact, and so is a count outside the advice clause
        ("Please note the refund of $45 is on its way.", [("number", "$45")]),
        ("You have 10 minutes left, please hurry.", [("number", "10")]),
    ],
)
def test_advice_numbers_are_not_facts(answer: str, expected: list) -> None:
    assert [f for f in facts(answer) if f[0] == "number"] == expected


@pytest.mark.parametrize(
    ("answer", "number", "labels"),
    [
        ("The refund of $45 went through.", "$45", "refund"),
        # an amount of money takes no label of counts and measures
        ("查到您昨天提交了一笔 2 万元的转账。", "2 万元", None),
        ("I found it: a $86.40 charge.", "$86.40", None),
        ("I found 3 results.", "3", "count"),
        # a count or a measure takes no label of money
        ("银行卡退款一般需要 3-5 个工作日。", "3", None),
        ("The refund of $45 covers 3 items.", "3", "quantity"),
        ("剩余积分：4,680 分", "4,680", "balance+points"),  # a balance of points is no money
        # a field word before a clause a conjunction opens names no number after it
        ("There's no restocking fee, so you'll get the full $149.99 back.", "$149.99", None),
        ("没有收取手续费，所以退款 149 元全额退回。", "149 元", "refund"),
        # a number in brackets takes no field word from before the bracket
        ('"5 Ways to Cut Cloud Costs in 2025" (1,240 words)', "1,240", None),
        ("Refund (USD): 45", "45", "refund"),  # a closed bracket cuts nothing
        # words after a number up to a mark are that number's
        ("You owe £41.00 in total: £33.00 import VAT.", "£33.00", None),
        ("(20% of the £165 declared value) plus an £8.00 fee.", "£8.00", None),
        ("Total $43, of which shipping $5.", "$5", "shipping"),
        # a field word right after a number of money heads that number's phrase, not the next one's
        ("4 days plus the $25 airport fee comes to $241.", "$241", None),
        # a table's cell ends the words of its number: the next cell's number takes none of them
        ("| Europcar | €44.90/day | €39 airport fee | €263.50 | in terminal |", "€263.50", None),
        ("| Fee | $39 | Total | $263.50 |", "$263.50", "total"),
        ("您需支付 ¥6 打包费和 ¥5 配送费。", "¥5", None),
        ("3 nights total $450.", "$450", "total"),  # after a count's noun it is the next number's
        ("Room $150, fee $20.", "$20", "fee"),
        ("You save $11.01 and the subtotal drops to $62.39.", "$62.39", "subtotal"),  # a new phrase's own word
        ("I searched pharmacies within 5 miles of 60614.", "5", None),  # a distance: within names no days
        ("Refunds are made within 5 days.", "5", "days"),
        # field words before a date or a time are the date's
        ("It was due to ship on October 22 for $214.20.", "$214.20", None),
        ("The balance due is $94.47, due July 25.", "$94.47", "balance"),
        # the words before an operator are the operand's: the result or the next operand takes none of them
        ("$9.40 food + $0.78 tax = **$17.27**.", "$17.27", None),
        ("$429.00 in total: the $408.00 room balance plus $21.00 city tax.", "$21.00", None),
        ("Subtotal $100 + tax $8 = $108.", "$8", "tax"),
        # a label before a colon names what the working after it comes to, not its first operand
        ("金额：票面 ¥680 × 3 + 服务费 ¥30 × 3，合计 ¥2,130", "¥680", None),
        ("金额：票面 ¥680 × 3 + 服务费 ¥30 × 3，合计 ¥2,130", "¥30", "fee"),
        ("Fee: $30.00", "$30.00", "fee"),
        # an operator between words after a clause mark is no operand's: the words are the number's own
        ("合计托运 3 件行李，票价+税费共 ¥3,400.00。", "¥3,400.00", "tax"),
        # a field word far before a number names it only when a link word stands right before the number
        ("The average of the numbers you provided is 11.", "11", "average"),
        ("Your refund for order 91408 is complete — $7.95 was returned to your card.", "$7.95", "refund"),
        ("Both items, the silver 12-cup Coffee Maker and the Mug Set, were delivered.", "12", None),
        ("The refund went to your card, and $186.30 goes back within 5 days.", "$186.30", None),
    ],
)
def test_the_field_labels_of_a_number(answer: str, number: str, labels: str | None) -> None:
    found = {f.text: f.concept for claim in EXTRACTOR.extract(answer) for f in claim.facts}
    assert found[number] == labels


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # `audit --fix` placeholders are no claim of the agent's; the words around them still are
        ("图片已生成：[未经核实的链接已移除]", [("action", "图片已生成")]),
        ("Your registration number is [unverified identifier removed].", []),
        ("See [unverified link removed] for order 88231.", [("number", "88231")]),
        ("编号：[未经核实的编号已移除]", []),
        # the same words outside the brackets are read as ever
        ("链接已移除。", [("action", "已移除")]),
    ],
)
def test_fix_placeholders_are_never_read_as_claims(answer: str, expected: list) -> None:
    assert facts(answer) == expected
