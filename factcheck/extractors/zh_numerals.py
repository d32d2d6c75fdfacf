"""Chinese numerals: their values (三, 十五, 两百零三), and dates and clock times written in them."""

from __future__ import annotations

import re

from factcheck.lexicon import Lexicon
from factcheck.report import FactKind

_ZH_NUMERAL_CLOCK = re.compile(
    r"(上午|早上|中午|下午|晚上|傍晚|凌晨)\s?([零〇一二两三四五六七八九十]{1,3})\s?点(?:\s?([零一二三四五六七八九十]{1,3})\s?分|(半))?"
)
"""A clock time in Chinese numerals after a part of the day (晚上七点, 下午三点半); 一点 alone is "a little"."""
_ZH_NUMERAL_RANGE_END = re.compile(r"(?:到|至|-|~)([零一二两三四五六七八九十]{1,3})点")
"""The end of a range of clock times in Chinese numerals (到九点)."""
_ZH_NUMERAL_DATE = re.compile(
    r"(?<![零〇一二两三四五六七八九十])([一二三四五六七八九十]{1,2})月([一二三四五六七八九十]{1,3})[日号]"
)
"""A date in Chinese numerals (九月八日)."""
ZH_PM = ("下午", "晚上", "傍晚")
"""Chinese words before a clock time that make it p.m."""


def parse_zh_numeral(text: str, lex: Lexicon) -> int | None:
    """Value of a Chinese numeral such as 三, 十五, 两百零三, 一万二千."""
    digits, units = lex.map("numerals"), lex.map("numeral_units")
    total, section, current = 0, 0, None
    for ch in text:
        if ch in digits:
            current = digits[ch]
        elif ch in units:
            unit = units[ch]
            if unit >= 10000:
                total += (section + (current or 0)) * unit
                section, current = 0, None
            else:
                section += (1 if current is None else current) * unit
                current = None
        else:
            return None
    return total + section + (current or 0)


def zh_numeral_moments(text: str, lex: Lexicon) -> list[tuple[FactKind, int, int, str]]:
    """(kind, start, end, value) of each date (`--09-08`) and clock time (`19:00`) written in Chinese numerals.

    Args:
        text: An answer sentence.
        lex: The lexicon giving the numerals.
    """
    out: list[tuple[FactKind, int, int, str]] = []
    for m in _ZH_NUMERAL_DATE.finditer(text) if "月" in text else ():
        month, day = parse_zh_numeral(m.group(1), lex), parse_zh_numeral(m.group(2), lex)
        if month and day and month <= 12 and day <= 31:
            out.append((FactKind.DATE, m.start(), m.end(), f"--{month:02d}-{day:02d}"))
    previous: tuple[int, int] | None = None  # (end, hour) of the last time read
    for m in _ZH_NUMERAL_CLOCK.finditer(text) if "点" in text else ():
        hour, minute = parse_zh_numeral(m.group(2), lex), parse_zh_numeral(m.group(3) or "零", lex)
        if hour is None or minute is None or hour > 24:
            continue
        if m.group(1) in ZH_PM and hour < 12:
            hour += 12
        out.append((FactKind.TIME, m.start(), m.end(), f"{hour:02d}:{30 if m.group(4) else minute:02d}"))
        previous = (m.end(), hour)
    tail = _ZH_NUMERAL_RANGE_END.match(text, previous[0]) if previous is not None else None
    if tail and previous:  # "晚上七点到九点": the end of a range keeps its start's half of the day
        hour = parse_zh_numeral(tail.group(1), lex)
        if hour is not None and hour < 12 <= previous[1]:
            out.append((FactKind.TIME, tail.start(1), tail.end(), f"{hour + 12:02d}:00"))
    return out
