"""A label's value the tools give otherwise, but the answer works out from its own backed amounts."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
TICKETS = {"name": "get_order", "args": {}, "status": "ok",
           "output": {"tickets": 4, "amount_paid": 350.0, "refund": {"amount": 158.0, "fee": 0.0}}}
BILL = {"name": "get_bill", "args": {}, "status": "ok",
        "output": {"plan_fee": 129, "roaming": 100, "overage": 16, "total": 245, "last_month_total": 129}}


def verdict(answer: str, tools: list, said: str) -> Verdict:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        # two amounts the tools give, one taken from the other, in the answer's other sentences (before it or after it):
        # the answer's own total, not the refund field its label named
        ("A refund of $158.00 is on its way. You originally paid $350.00 for 4 tickets, so after this refund you'll "
         "have paid $192.00 in total.", [TICKETS], "$192.00", Verdict.SUPPORTED),
        ("You originally paid $350.00 for 4 tickets, so after this refund you'll have paid $192.00 in total. The "
         "refund is $158.00.", [TICKETS], "$192.00", Verdict.SUPPORTED),
        # an amount the answer works out from an amount it worked out itself is no evidence: 265 − 129 = 136 holds,
        # but 265 is no tool's
        ("8 月话费合计 265.00 元，比 7 月的 129.00 元多了 136.00 元。", [BILL], "265.00 元", Verdict.CONTRADICTED),
        # no two of its amounts come to it
        ("A refund of $158.00 is on its way. You originally paid $350.00 for 4 tickets, so after this refund you'll "
         "have paid $182.00 in total.", [TICKETS], "$182.00", Verdict.CONTRADICTED),
    ],
)
def test_a_labels_value_the_answer_works_out_itself(answer: str, tools: list, said: str, expected: Verdict) -> None:
    assert verdict(answer, tools, said) == expected
