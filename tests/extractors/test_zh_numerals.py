"""Chinese numerals: values, and dates and clock times written in them."""

import pytest

from factcheck import FactChecker
from factcheck.extractors.zh_numerals import parse_zh_numeral, zh_numeral_moments

LEX = FactChecker().lexicon


@pytest.mark.parametrize(
    ("text", "value"),
    [("三", 3), ("十五", 15), ("两百零三", 203), ("一万二千", 12000), ("四十五", 45), ("三个", None)],
)
def test_parse_zh_numeral(text: str, value: int | None) -> None:
    assert parse_zh_numeral(text, LEX) == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("九月八日开课", [("date", "--09-08")]),
        ("十二月三十一日", [("date", "--12-31")]),
        ("十三月一日", []),  # no such month
        ("晚上七点到九点上课", [("time", "19:00"), ("time", "21:00")]),
        ("下午三点半见", [("time", "15:30")]),
        ("上午十点二十分", [("time", "10:20")]),
        ("我一点也不知道", []),  # 一点 without a part of the day is "a little"
    ],
)
def test_dates_and_times_in_numerals(text: str, expected: list) -> None:
    assert [(kind.value, value) for kind, _, _, value in zh_numeral_moments(text, LEX)] == expected
