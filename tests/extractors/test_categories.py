"""Category values (a tier, a plan) an answer states of the user, in both languages."""

import pytest

from factcheck import FactChecker

CHECKER = FactChecker()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Your membership tier is Gold.", [("Gold", "tier:gold")]),
        ("Your tier is now: Platinum.", [("Platinum", "tier:platinum")]),
        ("You are a Gold member.", [("Gold", "tier:gold")]),
        ("You're a Gold member.", [("Gold", "tier:gold")]),
        ("Your Premium plan renews on Dec. 3.", [("Premium", "plan:premium")]),
        ("您的会员等级是黄金会员。", [("黄金", "tier:gold")]),
        ("您目前是铂金会员。", [("铂金", "tier:platinum")]),
        ("会员等级是 Platinum。", [("Platinum", "tier:platinum")]),
        # not said of the user's own tier or plan
        ("You need 500 more points to reach Gold tier.", []),
        ("You are not a Gold member.", []),
        ("Your tier is not Gold.", []),
        ("Upgrade to the Premium plan to get more.", []),
        ("Your plan includes free shipping.", []),
        ("还差 500 积分升级到铂金会员。", []),
        ("这次升级铂金会员的申请未能通过。", []),
        ("再累积 7520 分就可以升级为铂金会员啦。", []),  # a hedge before the value: a goal
        ("If your tier is Gold, shipping is free.", []),
        ("您已升级为铂金会员。", [("铂金", "tier:platinum")]),
        ("The gold necklace ships today.", []),
    ],
)
def test_category_values(text: str, expected: list[tuple[str, str]]) -> None:
    found = CHECKER._claims.categories.extract(text)
    assert [(text[m.start : m.end], m.value) for m in found] == expected
