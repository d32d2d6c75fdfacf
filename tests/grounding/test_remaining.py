"""What is left, said beside the whole and the part used, is the whole less the part."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
DATA = {"name": "query_package_usage", "args": {}, "status": "ok",
        "output": {"plan_gb": 30, "used_gb": 24.6, "valid_until": "2025-11-30"}}
LOAN = {"name": "get_loan", "args": {}, "status": "ok",
        "output": {"term_months": 36, "paid_installments": 14, "monthly_payment": 3562.41}}
CLAIM = {"name": "get_claim", "args": {}, "status": "ok",
         "output": {"billed": 255.0, "allowed": 180.0, "insurer_paid": 100.0, "adjustment": 75.0}}


def verdict(answer: str, tools: list, said: str) -> Verdict:
    fact = next(f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said)
    return fact.verdict


@pytest.mark.parametrize(
    ("answer", "tools", "said", "expected"),
    [
        ("• 通用流量：共 30GB，已用 24.6GB，剩余 6.4GB", [DATA], "6.4", Verdict.CONTRADICTED),
        ("- 36 期中已还 14 期，剩余 24 期", [LOAN], "24", Verdict.CONTRADICTED),
        ("- 36 期中已还 14 期，剩余 22 期", [LOAN], "22", Verdict.SUPPORTED),
        # no whole before the part used: "the remaining" is what the bill less the allowed amount leaves
        ("Of the $255.00 billed, they allowed $180.00 and paid $100.00, and the remaining $75.00 was written off.",
         [CLAIM], "$75.00", Verdict.SUPPORTED),
    ],
)
def test_what_is_left_beside_the_whole_and_the_part_used(answer: str, tools: list, said: str,
                                                         expected: Verdict) -> None:
    assert verdict(answer, tools, said) == expected
