"""Payment methods an answer names as a destination or a means, in both languages."""

import pytest

from factcheck import FactChecker

CHECKER = FactChecker()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It went back to your credit card.", [("card", "credit card")]),
        ("It was issued as store credit.", [("store_credit", "store credit")]),
        ("You now have $22.00 in store credit.", [("store_credit", "store credit")]),
        ("Returned to your original payment method.", [("original", "original payment method")]),
        ("Paid via PayPal.", [("paypal", "PayPal")]),
        ("Refunded to your gift card.", [("gift_card", "gift card")]),  # the longest phrase, not `card`
        ("已原路退回。", [("original", "原路")]),  # a cue after the word
        ("预计退回到您的微信支付。", [("wechat", "微信支付")]),
        ("是通过支付宝付的。", [("alipay", "支付宝")]),
        ("款项已退到银行卡。", [("card", "银行卡")]),
        ("Refunded to your 支付宝.", [("alipay", "支付宝")]),
        # named, not said as where money went
        ("You can update your card in settings.", []),
        ("The card on file has expired.", []),
        ("Your default card is now the Visa ending in 4242.", []),
        ("Your new balance is $1,299.50.", []),
        ("微信已绑定成功。", []),
        ("案例 CS-20933（信用卡退款延迟入账）。", []),
        ("See https://pay.example.com/to/card for details.", []),  # inside a link
    ],
)
def test_methods(text: str, expected: list[tuple[str, str]]) -> None:
    skip = [(m.start, m.end) for m in CHECKER._mentions.extract(text) if m.kind.value in ("url", "identifier")]
    found = [(m.value, text[m.start : m.end]) for m in CHECKER._claims.methods.extract(text, skip)]
    assert found == expected
