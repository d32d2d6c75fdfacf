"""Exact-fact extraction: numbers, dates, times, identifiers, links."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck import FactChecker
from factcheck.report import FactKind

CHECKER = FactChecker()


def mentions(text: str) -> list[tuple[str, str, str | None]]:
    return [(m.kind.value, m.value, m.unit) for m in CHECKER._mentions.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("退款 ¥1,299.00", [("number", "1299", "CNY")]),
        ("共 1,299 元", [("number", "1299", "CNY")]),
        ("refund of $42.50", [("number", "42.5", "USD")]),
        ("discount 15%", [("number", "15", "%")]),
        ("约 1.2万 积分", [("number", "12000", "积分")]),
        ("三件商品", [("number", "3", "件")]),
        ("两个包裹", [("number", "2", "个")]),
        ("十五天内", [("number", "15", "天")]),
        ("休了六天半，", [("number", "6.5", "天")]),  # 半 after the count noun adds a half
        ("用了 3 天半", [("number", "3.5", "天")]),
        ("两个半小时", [("number", "2", "个")]),  # 半小时 is a unit of its own: not read as 2.5 of 个
        ("three items", [("number", "3", "items")]),
        ("two new variations", [("number", "2", "variations")]),
        ("3-5 天", [("number", "3", "天"), ("number", "5", "天")]),  # a range's low end takes its unit
        ("5–10 business days", [("number", "5", "business days"), ("number", "10", "business days")]),
        ("5 to 10 days", [("number", "5", "days"), ("number", "10", "days")]),
        # a quantity before a dash and an amount: the symbol before the amount is the amount's alone
        ("Sparkling water ×3 — $6.49", [("number", "3", None), ("number", "6.49", "USD")]),
        ("第一次", []),
        ("第三个包裹", []),  # an ordinal
        ("周六晚上", []),  # a weekday, not six nights
        ("每千词 420 元", [("number", "420", "CNY")]),  # the base of a rate, not a count
        ("约 1.25 万词", [("number", "12500", "词")]),
        ("1,180 words", [("number", "1180", "words")]),
        ("1. **T-40112** was opened", [("identifier", "t-40112", None)]),  # a list marker
        ("2) the second step", []),
        ("1、退款已完成", []),
        ("1、2、3 号楼", [("number", "1", None), ("number", "2", None), ("number", "3", "号楼")]),  # a list of numbers
        ("共 3. 件", [("number", "3", None)]),  # not first on its line
        ("you'll need your 2FA code", []),  # part of a word
        ("the 3rd item", []),
        ("05车 12A", [("number", "5", None)]),  # a CJK character after a number is no letter
        ("商品不影响二次销售", []),  # a numeral idiom: resale, not two times
        ("十分抱歉", []),  # very sorry, not ten points
        ("等了十分钟", [("number", "10", "分钟")]),  # the count noun runs past the idiom 十分
        ("星期六晚上到店", []),
        ("礼拜三下午", []),
        ("住三晚", [("number", "3", "晚")]),
        ("the May 2026 invoice", []),  # a month of a year is no count
        ("密码从 2024 年 8 月之后就没改过", []),
        ("您4月税前工资", []),  # a month, no count
        ("连续 4 个月", [("number", "4", "个月")]),
        ("1M requests, 842k used", [("number", "1000000", None), ("number", "842000", None)]),
        ("a 5 MB file", [("number", "5", "mb")]),
        ("in 2026 we sold 2026 units", [("number", "2026", None), ("number", "2026", "units")]),
        ("a score of 86/100.", [("number", "86", "%")]),  # a score out of 100 is a percentage
        ("1/100.5", [("number", "1", None), ("number", "100.5", None)]),
        ("1/1000", [("number", "1", None), ("number", "1000", None)]),
    ],
)
def test_numbers(text, expected) -> None:
    assert mentions(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9月22日 到", [("date", "--09-22", None)]),
        ("2026年9月22日", [("date", "2026-09-22", None)]),
        ("on 2026-09-22", [("date", "2026-09-22", None)]),
        ("Dec. 3", [("date", "--12-03", None)]),
        ("December 3, 2026", [("date", "2026-12-03", None)]),
        ("Dec. 10–12.", [("date", "--12-10", None), ("date", "--12-12", None)]),
        # two days that share a month
        ("your 401(k) went up to $187.50", [("number", "187.5", "USD")]),  # a plan's name, no number
        ("from April 14 to 17", [("date", "--04-14", None), ("date", "--04-17", None)]),
        ("Dec. 3 to 5 PM only", [("date", "--12-03", None), ("time", "17:00", None)]),  # a time, no date
        ("更早的7点那班", [("time", "07:00", None)]),
        ("送您 1 点成长值", [("number", "1", None)]),
        ("on February 15 and 16", [("date", "--02-15", None), ("date", "--02-16", None)]),
        ("on 15 and 16 February", [("date", "--02-15", None), ("date", "--02-16", None)]),
        ("open 3–4 March", [("date", "--03-03", None), ("date", "--03-04", None)]),
        ("costs $5 and 16 February is due", [("number", "5", "USD"), ("date", "--02-16", None)]),
        # a dash before a count is no day range
        ("until Nov. 1 — 12 days from today", [("date", "--11-01", None), ("number", "12", "days")]),
        ("Dec. 10 - 3 nights", [("date", "--12-10", None), ("number", "3", "nights")]),
        ("Dec. 12–10", [("date", "--12-12", None), ("number", "10", None)]),  # a range runs forward
        ("5 月 18 日到 24 日", [("date", "--05-18", None), ("date", "--05-24", None)]),
        ("12月3日-5日", [("date", "--12-03", None), ("date", "--12-05", None)]),
        ("4月18日入住、21日退房", [("date", "--04-18", None), ("date", "--04-21", None)]),
        # no day alone: a tour's days, a train's or a queue's number
        ("6月2日出发的 6 日游", [("date", "--06-02", None), ("number", "6", "日")]),
        ("4 月 22 日新干线 Nozomi 24 号", [("date", "--04-22", None), ("number", "24", None)]),
        ("11月4日上午，就诊序号 12 号", [("date", "--11-04", None), ("number", "12", None)]),
        # in Chinese numerals
        ("九月八日开课，晚上七点到九点上课",
         [("date", "--09-08", None), ("time", "19:00", None), ("time", "21:00", None)]),
        ("下午三点半见", [("time", "15:30", None)]),
        ("我一点也不知道", []),
        ("累积 1 点成长值", [("number", "1", None)]),  # points, no time
        ("4月18日入住，共 3 日", [("date", "--04-18", None), ("number", "3", "日")]),
        ("4月1日起 30日内可退", [("date", "--04-01", None), ("number", "30", "日")]),
        ("at 7:30 PM", [("time", "19:30", None)]),
        ("下午3点", [("time", "15:00", None)]),
        ("11月26日下午 3:22 签收", [("date", "--11-26", None), ("time", "15:22", None)]),
        ("上午 9:40 派件", [("time", "09:40", None)]),
        ("傍晚6:40", [("time", "18:40", None)]),
        ("下午 3 点到 4 点", [("time", "15:00", None), ("time", "16:00", None)]),  # a range keeps its half of the day
        ("下午 4:00–4:45", [("time", "16:00", None), ("time", "16:45", None)]),
        ("上午 9:00-11:30", [("time", "09:00", None), ("time", "11:30", None)]),
        ("booked from 1:30 to 3 PM", [("time", "13:30", None), ("time", "15:00", None)]),  # the start takes p.m.
        # a time zone's offset after a time's seconds is part of it, not a time of its own
        ("2025-11-20T09:12:44+08:00", [("date", "2025-11-20", None), ("time", "09:12", None)]),
        ("9:00-17:00", [("time", "09:00", None), ("time", "17:00", None)]),
        ("between 6 and 10 pm", [("time", "18:00", None), ("time", "22:00", None)]),  # a bare hour too
        ("open 9 to 11 am", [("time", "09:00", None), ("time", "11:00", None)]),
        ("costs $6 and 10 pm is late", [("number", "6", "USD"), ("time", "22:00", None)]),
        ("1:00 AM to 3 PM", [("time", "01:00", None), ("time", "15:00", None)]),
        ("11:00 to 2 PM", [("time", "11:00", None), ("time", "14:00", None)]),
        ("30\ndeclined", [("number", "30", None)]),
        ("issued 14.03.2025", [("date", "2025-03-14", None)]),  # day first, with dots
    ],
)
def test_dates_and_times(text, expected) -> None:
    assert mentions(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("on Monday, Dec. 7", [("weekday", "0", None), ("date", "--12-07", None)]),
        ("Dec. 7 (Tuesday)", [("date", "--12-07", None), ("weekday", "1", None)]),
        ("9月26日 周六晚上", [("date", "--09-26", None), ("weekday", "5", None)]),
        ("9月27日（星期天）", [("date", "--09-27", None), ("weekday", "6", None)]),
        ("open Monday to Friday", []),  # no date beside it: nothing to check
        ("周六晚上到店", []),
        ("每周一 10 点", [("time", "10:00", None)]),
    ],
)
def test_weekdays_beside_dates(text, expected) -> None:
    assert mentions(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("登记号 CT-20260922-001", [("identifier", "ct-20260922-001", None)]),
        ("订单号 88231", [("identifier", "88231", None)]),
        ("order #88231", [("identifier", "88231", None)]),
        ("tracking SF1234567890", [("identifier", "sf1234567890", None)]),
        ("a 30-day window", [("number", "30", "day")]),  # a count noun may follow a hyphen
        ("the 3rd-floor printer", []),  # an ordinal names a place, it is no identifier
        ("now on v2.14.3 in prod", [("identifier", "v2.14.3", None)]),  # a version, not numbers
        ("order 20260915-88213", [("identifier", "20260915-88213", None)]),
        ("order #A10293", [("identifier", "a10293", None)]),
        ("tracking 9400 1118 9922 3344 5566 77", [("identifier", "9400111899223344556677", None)]),
        ("on 2026-09-15", [("date", "2026-09-15", None)]),
        # short codes are exact identifiers, not numbers inside words
        ("机械键盘 K87", [("identifier", "k87", None)]),
        ("gate C17", [("identifier", "c17", None)]),
        ("images (1024×1024)", [("identifier", "1024x1024", None)]),  # dimensions, as a tool writes them
        ("尺寸是1024×1024：", [("identifier", "1024x1024", None)]),  # a CJK character is no part of them
        ("for your 3-year-old", [("number", "3", "year")]),  # a quantity, no identifier
        ("到 https://x.example/a/1（post_id p_55）", [("url", "x.example/a/1", None), ("identifier", "p_55", None)]),
        ("at least 91 × 61 × 66 cm", [("identifier", "91x61x66", None)]),
        ("1920 x 1080 px", [("identifier", "1920x1080", None)]),
        ("3 x 4", [("number", "3", None), ("number", "4", None)]),
        ("I found your order A1.", [("identifier", "a1", None)]),
        # a flight or train number written with a space is one identifier
        ("BA 2491 is delayed", [("identifier", "ba2491", None)]),
        ("flight 3U 8881", [("identifier", "3u8881", None)]),
        ("(BA 287, LHR → SFO)", [("identifier", "ba287", None)]),  # before a comma or a full stop too
        ("booked onto LH 422.", [("identifier", "lh422", None)]),
        ("SL 1,240 miles", [("number", "1240", "miles")]),  # a digit after the comma: the number's grouping
        ("USD 120", [("number", "120", "USD")]),  # a currency code is no carrier
        # currency codes and words of the lexicon, before or after the number
        ("CHF 489.00 for two", [("number", "489", "CHF")]),
        ("SGD 27.90/月", [("number", "27.9", "SGD")]),
        ("HK$ 760 per day", [("number", "760", "HKD")]),
        ("共 42,500 日元", [("number", "42500", "JPY")]),  # no 42,500 days
        ("合计 1,200 港元", [("number", "1200", "HKD")]),
        ("PM 2", [("number", "2", None)]),
        ("每 GB 5 元", [("number", "5", "CNY")]),  # a unit is no carrier
        ("5kg and 24h", [("number", "5", "kg"), ("number", "24", None)]),  # quantities stay numbers
        ("链接 https://domain/item/fake-id，", [("url", "domain/item/fake-id", None)]),
        ("see https://x.example/a/123.", [("url", "x.example/a/123", None)]),
        # markdown emphasis around a link is no part of it
        ("page: **https://x.example/a/123**", [("url", "x.example/a/123", None)]),
        ("page: __https://x.example/a/123__.", [("url", "x.example/a/123", None)]),
        ("mail li.ming@example.com", [("email", "li.ming@example.com", None)]),
        ("![图1](https://cdn.example.cn/u/e01a.png)", [("url", "cdn.example.cn/u/e01a.png", None)]),
        # a code with symbols between its letters and digits (a password) is one identifier
        ("新密码是：aB3#fG6&kL9@。", [("identifier", "ab3#fg6&kl9@", None)]),
        ("password AB3#fG7&kL9!", [("identifier", "ab3#fg7&kl9!", None)]),
        ("**#W2890441**", [("identifier", "w2890441", None)]),  # emphasis and '#' make no code
        ("AT&T 5G", [("number", "5", "g")]),  # too short for a code
        # a period or a place in a scale written like a code names no record (its number stays a number); a key in
        # capitals does
        ("your Q4 usage", [("number", "4", None)]),
        ("good until mid-2027", [("number", "2027", None)]),
        ("the tier-2 rate", [("number", "2", None)]),
        ("flight HX-2", [("identifier", "hx-2", None)]),
        # a seat in a sentence that speaks of seats is an identifier; elsewhere such a token stays a quantity
        ("张伟 12F、李娜 12D，座位相邻", [("identifier", "12f", None), ("identifier", "12d", None)]),
        ("You're in seat 21A.", [("identifier", "21a", None)]),
        ("a 4K monitor with 2 HDMI ports", [("number", "4000", None), ("number", "2", None)]),
    ],
)
def test_identifiers_and_links(text, expected) -> None:
    assert mentions(text) == expected


_PIECES = ["2026-12-01", "09:12", "Dec. 3", "12月3日", "3点", "$45.00", "1,299", "SKU-45123", "#88231", "15%", "两个",
           "https://x.example/a/12-03", "a@b.co", " ", "，", "。", "\n", "to", "7pm", "3 items", "0932", "10–12"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.booleans())
def test_without_numbers_the_other_mentions_are_the_same(pieces: list[str], words: bool) -> None:
    text = "".join(pieces)
    ex = CHECKER._mentions
    without = ex.extract(text, words=words, numbers=False)
    assert without == [m for m in ex.extract(text, words=words) if m.kind != FactKind.NUMBER]
