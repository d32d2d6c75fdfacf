"""Exact-fact mentions in text: links, e-mails, identifiers, dates, times and numbers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from factcheck.extractors.grouped_digits import grouped_numbers
from factcheck.extractors.taken import Taken
from factcheck.extractors.zh_numerals import ZH_PM as _ZH_PM
from factcheck.extractors.zh_numerals import parse_zh_numeral, zh_numeral_moments
from factcheck.lexicon import Lexicon
from factcheck.phrases import Phrases, term_key
from factcheck.report import FactKind

URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`\]\)（）【】「」，。；：！？、]+"
    r"|(?<![@\w.])(?:[a-z0-9-]+\.)+(?:com|cn|net|org|io|ai|co|app|dev)(?:/[^\s<>\"'`\]\)（）【】「」，。；：！？、]*)",
    re.IGNORECASE,
)
_LINK_TARGET = re.compile(r"\]\(([^\s()<>]*[./][^\s()<>]*)\)")
"""A markdown link's target with a path or a file name in it ("](image1.jpg)", "](/files/a.pdf)")."""
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# An identifier: letters and digits mixed (CT-20260922-001, SF1234567890, 1Z999AA1...),
# or # followed by digits, or a long digit run.
ID_RE = re.compile(
    r"(?<![\w.#-])(?:#\s?[A-Za-z]?\d{3,}[\w-]*"
    r"|\d{4}(?: \d{4}){2,}(?: \d{1,4})?(?![\d.,])"  # digits in groups of four: 9400 1118 9922 3344 55
    r"|v\d+(?:\.\d+){1,3}(?![\d])"  # a version: v2.14.3
    r"|\d{6,}(?:-\d{3,})+"  # digit groups: 20260915-88213
    r"|(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*[A-Za-z0-9]"
    r"|\d{7,})(?![\w])",
    re.ASCII,
)
# The patterns run on every sentence open with the character class of their first character,
# with any look-behind just after it (`(\d{4})(?<!\d{5})`: four digits, no digit before): the
# regex engine then skips ahead to such characters instead of trying the pattern everywhere.
# Dimensions written with a multiplication sign or a spaced x ("1024×1024", "91 × 61 × 66"): one identifier.
_DIMENSIONS = re.compile(r"\d(?<![A-Za-z0-9_.#-]\d)\d{1,4}(?:(?:\s?×\s?|\s[xX]\s)\d{2,5}){1,2}(?![A-Za-z0-9_.])")
_CODE = re.compile(
    r"(?<![\w!#%&?@^~.-])(?=[\w#%&?@^~-]*[A-Za-z])(?=[\w#%&?@^~-]*\d)"
    r"[A-Za-z0-9][\w#-]*[!%&?@^~][\w#-]+(?:[!%&?@^~][\w#-]+)*[!%&?@^~]?",
    re.ASCII,
)
"""A code with a symbol between its letters and digits (a password aB3#fG6&kL9@): one identifier, its case kept."""
_CODE_LEAST = 8
_CODE_MARK = re.compile(r"\w[!%&?@^~]\w")
_CARRIER_NUMBER = re.compile(r"(?<![\w.#-])([A-Z]{2}|[A-Z]\d|\d[A-Z]) (\d{1,4})(?![\w:%]|[.,]\d)", re.ASCII)
"""A flight or train number written with a space (BA 2491, UA 1142): one identifier, not a code and a number."""
_ID_SHORT_DIGITS = re.compile(r"\d(?<![\w.,#-]\d)\d{4,5}(?![\w.,%])", re.ASCII)
ISO_DATE = re.compile(r"(\d{4})(?<!\d{5})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_DOTTED_DATE = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)(?![\d.]\d)")
"""A date written day first with dots ("14.03.2025", as much of Europe writes it)."""
ZH_DATE = re.compile(r"(?:(\d{4})\s?年\s?)?(\d{1,2})\s?月\s?(\d{1,2})\s?[日号]")
_MONTH = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?![a-z])"
)
# EN_DATE opens with a look-ahead for the months' first letters: the alternation is tried only there.
EN_DATE = re.compile(
    r"(?=[adfjmnos])(?<![A-Za-z])" + _MONTH
    + r"[^\S\n]*(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:,?[^\S\n]+(?P<year>\d{4}))?(?!\d)",
    re.IGNORECASE,
)
EN_DATE_DMY = re.compile(
    r"(?P<day>\d(?<!\d\d)\d?)(?:st|nd|rd|th)?[^\S\n]+(?:of[^\S\n]+)?" + _MONTH
    + r"(?:,?[^\S\n]+(?P<year>\d{4}))?",
    re.IGNORECASE,
)
_RANGE_END = re.compile(
    r"\s*(?:[–—~-]|,?\s(?:and|or|&|to|through|until))\s*(\d{1,2})(?!\d|[:/.]\d|\s*[ap]\.?m\b)", re.IGNORECASE
)
"""The second day of a date that shares its month ("Dec. 10–12", "February 15 and 16", "April 14 to 17")."""
_RANGE_START = re.compile(r"(?<![\w.,:/$€£¥])(\d{1,2})\s*(?:[–—~-]|(?:,\s*)?\s(?:and|or|&))\s*$")
"""The first day of a day-first date that shares its month ("15 and 16 February", "3–4 March")."""
_ZH_BARE_DAY = re.compile(r"(?<![\d月/.-])(?<![\d月/.-]\s)(?<![A-Za-z]\s)(?<!序号)(?<!序号\s)(\d{1,2})\s?[日号]"
                          r"(?![\d内后前起游])")
"""A day of the month written alone (21日), after a full date; not a tour's days (6 日游), a train's or a queue's
number (Nozomi 24 号, 序号 12 号)."""
_ZH_RANGE_END = re.compile(r"\s*(?:到|至|[–—~～-])\s*(\d{1,2})\s?[日号]")
"""The end of a day range in Chinese: "5 月 18 日到 24 日"."""
_MD_LABEL = re.compile(r"!?\[[^\]\n]{0,60}\]\(")
SLASH_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{4}))?(?![\d/])")
# A clock time, with the time zone's offset after its seconds (09:12:44+08:00); an offset is no time.
CLOCK = re.compile(
    r"(?<![\d:+])(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?(?:\s*([ap])\.?m\.?)?(?![\d:])",
    re.IGNORECASE,
)
AMPM = re.compile(r"(\d(?<![\d:.]\d)\d?)\s*([ap])\.?m\.?(?![a-z])", re.IGNORECASE)
_AM = re.compile(r"a\.?m\b|上午|早上|凌晨")
"""A morning marker: the start of a range said with one keeps it."""
_HOUR_BEFORE_RANGE = re.compile(r"(?<![\w:.,/$€£¥])(\d{1,2})\s*(?:to|and|-|–|—|~)\s*$")
"""A bare hour starting a range whose end says am or pm ("between 6 and 10 pm")."""
_RANGE_JOIN = re.compile(r"\s*(?:到|至|-|–|—|~|～|to)\s*")
"""What joins the two ends of a range: of times ("3 点到 4 点"), of numbers ("3-5 天", "5–10 business days")."""
_CLOCK_NEXT = frozenset("前后到至左整半钟开起以之过多分点的那这班")
"""What may follow a bare "N 点" that is a clock time; another Chinese word after it makes it points (1 点成长值)."""
ZH_CLOCK = re.compile(r"(上午|早上|中午|下午|晚上|傍晚|凌晨)?\s?(\d{1,2})\s?[点时](?:\s?(\d{1,2})\s?分|(半))?")
_NUMBER_BODY = (
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<mag>\s?[万千亿](?!克)|\s?[kK](?![A-Za-z])|M(?![A-Za-z])|\s(?:million|thousand)(?![a-z]))?"
)


def number_pattern(currency_words: Iterable[str]) -> re.Pattern[str]:
    """The pattern of an amount, a count or a percentage with the lexicon's currency words: a symbol or a code
    before the number ("$", "HK$", "CHF 489"), a code or a Chinese word after it ("489 CHF", "42,500 日元").

    Args:
        currency_words: The words of the lexicons' `currencies` (`usd`, `$`, `元`).

    Returns:
        The compiled pattern, with groups `cur`, `num`, `mag` and `unit`.
    """
    words = set(currency_words)
    codes = {w.upper() for w in words if re.fullmatch(r"[a-z]{3}", w)}
    symbols = {w.upper() for w in words if w.isascii() and not w.isalpha()}  # "$", "us$", "hk$"
    symbols |= {w for w in words if not w.isascii() and len(w) == 1 and not w.isalnum()}  # ¥ € £
    chinese = {w for w in words if not w.isascii() and w.isalpha()}  # 元 美元 日元

    def either(items: set[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(items, key=lambda w: (-len(w), w)))

    starts = "".join(sorted({re.escape(w[0]) for w in symbols | codes}))
    return re.compile(
        rf"(?=[{starts}\d])"  # where a number can start: the alternations are tried only there
        rf"(?P<cur>{either(symbols | codes)})?\s?" + _NUMBER_BODY
        + rf"(?P<unit>\s?%|\s?percent(?![a-z])|\s?/\s?100(?!\d|[.,]\d)|\s?(?:{either(chinese)})"
        rf"|\s?(?:{either(codes)})(?![A-Za-z]))?",
    )


# "of", "de", "la" only between capitalised words ("Bank of China"), never at the end ("Refund of $45")
NAME_RE = re.compile(r"[A-Z](?<![\w.][A-Z])[a-zà-ÿ]+(?:[ -](?:(?:of|de|la)[ -])?[A-Z][a-zà-ÿ]+){1,3}(?![\w])")
_ZH_NUM = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")
_DIGIT = re.compile(r"\d")
_ZH_MONTH_AFTER = re.compile(r"\s?年\s?\d{1,2}\s?月(?!\s?\d{1,2}\s?[日号])")
"""A month after a year, with no day (2024 年 8 月): the year is no count; with a day it is a date."""
_LAST_WORD = re.compile(r"([A-Za-z]+)\.?,?\s+$")
"""The word right before a position, with its dot and comma ("Sept., ")."""
_CLAUSE_MARK = re.compile(r"[，,；;]")
_SPACES_AT = re.compile(r"\s*")
_COUNT = "count"
"""The label of counting words (找到, 共有): a number whose unit names its own field is no count."""
_QUANTITY = re.compile(r"\d+(?:\.\d+)?[A-Za-z]{1,3}|\d+(?:st|nd|rd|th)?(?:-[A-Za-z]+)+", re.IGNORECASE)
_NAMED_PLACE = re.compile(
    r"[Qq][1-4]|[Hh][12]|FY\d{2}(?:\d{2})?|(?:mid|early|late|end)-\d{4}|[a-z]+(?:-[a-z]+)*-\d{1,2}")
"""A period or a place in a scale written like a code (Q4, FY2025, mid-2027, tier-2, size-10): no record's key."""
_SEAT = re.compile(r"(?<![\w.#/-])\d{1,2}[A-HJK](?![\w-])", re.ASCII)
"""A seat (12F, 3A) in a sentence that speaks of seats (the lexicon's `seat_words`): a value of a passenger's record."""
_SPACES = re.compile(r"\s+")
# What may stand between a date and its day of the week: white space, a comma, a bracket.
_BESIDE = re.compile(r"[\s,，、(（)）]{0,3}")
_NON_SPACE = re.compile(r"\S+")
_LABEL_WINDOW = 24
_MONTH_STEMS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MAG = {"万": 4, "千": 3, "亿": 8, "k": 3, "m": 6, "thousand": 3, "million": 6}


class Mention(NamedTuple):
    """A fact found in text: where it is and its normalised value (a tuple: made by the thousand)."""

    kind: FactKind
    start: int
    end: int
    value: str
    unit: str | None = None
    exponent: int = 0
    """Power of ten of the last written digit (-2 for 42.50, 3 for 1.2万's thousands)."""
    labels: frozenset[str] = frozenset()
    """Field names the number is attached to (`refund`, `total`, `building`, ...)."""


def normalise_id(text: str) -> str:
    """Trivial identifier normalisation: lower case, no spaces, no leading `#`."""
    return _SPACES.sub("", text).lstrip("#").lower()


def normalise_url(text: str) -> str:
    """Lower-case a link, drop the scheme, `www.` and trailing punctuation or slash."""
    url = text.strip().rstrip(".,;:!?'\"").lower()
    url = re.sub(r"^https?://", "", url)
    url = re.sub(r"^www\.", "", url)
    return url.rstrip("/")


_WORD_AFTER_NUMBER = re.compile(r"[A-Z]|(?:st|nd|rd|th)\b|\([a-z]\)")


def _not_a_number(text: str, start: int, end: int) -> bool:
    """Whether the digits at `text[start:end]` are a list marker or part of a word (see below)."""
    return _is_list_marker(text, start, end) or _letter_follows(text, end)


def _letter_follows(text: str, end: int) -> bool:
    """Whether the number ending at `end` is part of a word: capitals ("2FA", "12A"), an ordinal ending ("3rd")
    or a letter in brackets ("401(k)", a plan's name).

    Lower-case unit letters ("24h", "5kg") leave it a number.
    """
    return _WORD_AFTER_NUMBER.match(text, end) is not None


def _is_list_marker(text: str, start: int, end: int) -> bool:
    """Whether the digits at `text[start:end]` number a list item: first on their line, then `.` or `)`
    and a space, or `、` and no digit ("1、2、3 号楼" lists numbers)."""
    line_start = text.rfind("\n", 0, start) + 1
    mark, after = text[end : end + 1], text[end + 1 : end + 2]
    if text[line_start:start].strip(" \t*#>-"):
        return False
    return mark in (".", ")") and after in ("", " ", "\t", "\n") or mark == "、" and not after.isdigit()


class MentionExtractor:
    """Find exact-fact mentions in an answer or a tool output, with one lexicon."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        nouns = sorted(lex.list("count_nouns"), key=len, reverse=True)
        adjectives = _alternation(lex.list("count_adjectives"))
        self._noun_after = re.compile(  # "3 items", "三件", "30-day"
            _first_letter_check([*nouns, *lex.list("count_adjectives")], gap="[\\s-]?")
            + rf"[\s-]?(?:(?:{adjectives})\s+)?("
            + _alternation(nouns)
            + r")(?![A-Za-z])",
            re.IGNORECASE,
        )
        self._number_words = Phrases(lex.map("number_words"))
        self._number_word_values = {term_key(w): v for w, v in lex.map("number_words").items()}
        keywords = sorted(lex.list("id_keywords"), key=len, reverse=True)
        self._id_keyword = re.compile(
            _first_letter_check(keywords)
            + r"(?:"
            + "|".join(re.escape(k) for k in keywords) + r")\s*(?:号|number|no\.?|id)?[\s:：#为是]*$",
            re.IGNORECASE,
        )
        self._months = lex.map("months")
        self._number = number_pattern(lex.map("currencies"))
        self._duration_units = {*lex.duration_seconds, *lex.duration_days}
        self._conjunctions = Phrases(lex.list("clause_conjunctions"))
        self._seat_word = Phrases(lex.list("seat_words"))
        self._not_carriers = {
            w.lower() for w in lex.currency_codes | set(lex.list("id_keywords")) | set(lex.unit_scales)
        } | {"am", "pm"}
        """Letters before a spaced number that are no carrier code (USD 120, ID 4471, PM 2, 每 GB 5 元)."""
        self._not_count_prefixes = tuple(lex.list("not_count_prefixes"))
        self._numeral_idioms = Phrases(lex.list("numeral_idioms"))

    def links(self, text: str, taken: Taken) -> list[Mention]:
        """URLs and e-mail addresses."""
        out = []
        for m in EMAIL_RE.finditer(text) if "@" in text else ():
            taken.take(m.start(), m.end())
            out.append(Mention(FactKind.EMAIL, m.start(), m.end(), m.group().lower()))
        # a link holds `/` (`://`, or a path after the domain) or `www.`
        for m in URL_RE.finditer(text) if "/" in text or "www." in text.lower() else ():
            raw = m.group().rstrip(".,;:!?'\"*_~")  # "**https://…**.": markdown emphasis is no part of a link
            if taken.free(m.start(), m.start() + len(raw)):
                taken.take(m.start(), m.start() + len(raw))
                out.append(Mention(FactKind.URL, m.start(), m.start() + len(raw), normalise_url(raw)))
        # a markdown link's target, whatever its form: "[日落景色](image1.jpg)" links to a file a tool must give
        for m in _LINK_TARGET.finditer(text) if "](" in text else ():
            if taken.free(m.start(1), m.end(1)):
                taken.take(m.start(1), m.end(1))
                out.append(Mention(FactKind.URL, m.start(1), m.end(1), normalise_url(m.group(1))))
        return out

    def identifiers(self, text: str, taken: Taken) -> list[Mention]:
        """Order, tracking and registration numbers; short digit runs only after a keyword."""
        out = []
        for m in _DIMENSIONS.finditer(text) if "×" in text or " x " in text.lower() else ():
            taken.take(m.start(), m.end())
            value = re.sub(r"\s*(?:×|x|X)\s*", "x", m.group())
            out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), value))
        for start, end, digits in grouped_numbers(text, taken):  # "0421 338 910": one identifier of its digits
            out.append(Mention(FactKind.IDENTIFIER, start, end, digits))
        for m in _CODE.finditer(text) if _CODE_MARK.search(text) else ():
            code = m.group()  # a sentence's "!" after it is read with it: grounding tries it without
            if len(code.rstrip("!?")) >= _CODE_LEAST and taken.free(m.start(), m.end()):
                taken.take(m.start(), m.end())
                out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), code.lower()))
        for m in ID_RE.finditer(text):
            if not taken.free(m.start(), m.end()) or _looks_like_quantity(m.group()) \
                    or _NAMED_PLACE.fullmatch(m.group()):
                continue
            taken.take(m.start(), m.end())
            out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), normalise_id(m.group())))
        seats = list(_SEAT.finditer(text))  # the rare token first: most sentences hold none, so no seat word is sought
        for m in seats if seats and self._seat_word.search(text) else ():
            if taken.free(m.start(), m.end()):  # "张伟 12D、李娜 12F，两人座位相邻": a seat, a record's value
                taken.take(m.start(), m.end())
                out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), m.group().lower()))
        for m in _CARRIER_NUMBER.finditer(text):
            if taken.free(m.start(), m.end()) and m[1].lower() not in self._not_carriers:
                taken.take(m.start(), m.end())
                out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), normalise_id(m.group())))
        for m in _ID_SHORT_DIGITS.finditer(text):
            if taken.free(m.start(), m.end()) and self._id_keyword.search(text[max(0, m.start() - 12) : m.start()]):
                taken.take(m.start(), m.end())
                out.append(Mention(FactKind.IDENTIFIER, m.start(), m.end(), m.group()))
        return out

    def dates(self, text: str, taken: Taken) -> list[Mention]:
        """Calendar dates as `YYYY-MM-DD`, or `--MM-DD` when no year is written."""
        out = []
        found: list[tuple[int, int, str | None, int, int]] = []
        for m in ISO_DATE.finditer(text):
            found.append((m.start(), m.end(), m.group(1), int(m.group(2)), int(m.group(3))))
        zh_dates = list(ZH_DATE.finditer(text)) if "月" in text else []
        for m in zh_dates:
            found.append((m.start(), m.end(), m.group(1), int(m.group(2)), int(m.group(3))))
            tail = _ZH_RANGE_END.match(text, m.end())
            if tail and int(tail[1]) > int(m.group(3)):
                found.append((tail.start(1), tail.end(), m.group(1), int(m.group(2)), int(tail[1])))
        for m in _ZH_BARE_DAY.finditer(text, zh_dates[0].end()) if zh_dates else ():
            # "4月18日入住、21日退房": a day alone is in the month of the date before it
            last = max((d for d in zh_dates if d.end() <= m.start()), key=lambda d: d.end())
            if int(m[1]) > int(last.group(3)):
                found.append((m.start(), m.end(), last.group(1), int(last.group(2)), int(m[1])))
        lower = text.lower()
        for rx in (EN_DATE, EN_DATE_DMY) if any(map(lower.__contains__, _MONTH_STEMS)) else ():
            for m in rx.finditer(text):
                mon = self._months.get(m.group("mon").lower().rstrip("."))
                if mon:
                    found.append((m.start(), m.end(), m.group("year"), mon, int(m.group("day"))))
                    # a day range: "Dec. 10–12", not "until Nov. 1 — 12 days from today"
                    tail = _RANGE_END.match(text, m.end())
                    is_range = tail and int(tail[1]) > int(m["day"]) and not self.noun_after(text, tail.end())
                    if is_range and rx is EN_DATE:
                        found.append((tail.start(1), tail.end(1), m.group("year"), mon, int(tail.group(1))))
                    head = _RANGE_START.search(text, max(0, m.start() - 12), m.start()) if rx is EN_DATE_DMY else None
                    if head and int(head[1]) < int(m["day"]):
                        found.append((head.start(1), head.end(1), m.group("year"), mon, int(head[1])))
        for m in _DOTTED_DATE.finditer(text) if "." in text else ():
            found.append((m.start(), m.end(), m.group(3), int(m.group(2)), int(m.group(1))))
        for m in SLASH_DATE.finditer(text) if "/" in text else ():
            found.append((m.start(), m.end(), m.group(3), int(m.group(1)), int(m.group(2))))
        for start, end, year, month, day in sorted(found):
            if not (1 <= month <= 12 and 1 <= day <= 31) or not taken.free(start, end):
                continue
            taken.take(start, end)
            value = f"{year or '-'}-{month:02d}-{day:02d}"
            out.append(Mention(FactKind.DATE, start, end, value))
        return out

    def times(self, text: str, taken: Taken) -> list[Mention]:
        """Clock times as `HH:MM` (24 h)."""
        out = []
        found: list[tuple[int, int, int, int]] = []
        for m in CLOCK.finditer(text) if ":" in text else ():
            hour = _to24(int(m.group(1)), m.group(3))
            if hour < 12 and text[max(0, m.start() - 4) : m.start()].rstrip().endswith(_ZH_PM):
                hour += 12  # "下午 3:22"
            found.append((m.start(), m.end(), hour, int(m.group(2))))
        lower = text.lower()
        for m in AMPM.finditer(text) if "m" in lower else ():
            found.append((m.start(), m.end(), _to24(int(m.group(1)), m.group(2)), 0))
            head = _HOUR_BEFORE_RANGE.search(text, max(0, m.start() - 10), m.start())
            if head and 1 <= int(head[1]) < int(m.group(1)) < 12:  # "between 6 and 10 pm": 6 pm too
                found.append((head.start(1), head.end(1), _to24(int(head[1]), m.group(2)), 0))
        for m in ZH_CLOCK.finditer(text) if "点" in text or "时" in text else ():
            after = text[m.end() : m.end() + 1]
            bare = not (m.group(1) or m.group(3) or m.group(4))
            if bare and "\u4e00" <= after <= "\u9fff" and after not in _CLOCK_NEXT:
                continue  # "1 点成长值": points, no time
            hour = int(m.group(2))
            if m.group(1) in _ZH_PM and hour < 12:
                hour += 12
            minute = 30 if m.group(4) else int(m.group(3) or 0)
            found.append((m.start(), m.end(), hour, minute))
        previous: tuple[int, int] | None = None  # (end, hour) of the last time read
        for start, end, hour, minute in sorted(found):
            if hour > 24 or minute > 59 or not taken.free(start, end):
                continue
            if previous and previous[1] >= 12 > hour and _RANGE_JOIN.fullmatch(text, previous[0], start):
                hour += 12  # "下午 3 点到 4 点", "4:00–4:45 PM": the end of a range keeps its start's half of the day
            taken.take(start, end)
            out.append(Mention(FactKind.TIME, start, end, f"{hour:02d}:{minute:02d}"))
            previous = (end, hour)
        for i in range(len(out) - 1):
            first, then = out[i], out[i + 1]
            h1, h2 = int(first.value[:2]), int(then.value[:2])
            said = text[max(0, first.start - 4) : first.end].lower()
            if h1 + 12 <= h2 and _RANGE_JOIN.fullmatch(text, first.end, then.start) and not _AM.search(said):
                out[i] = first._replace(value=f"{h1 + 12:02d}{first.value[2:]}")  # "from 1:30 to 3 PM"
        return out

    def numeral_moments(self, text: str, taken: Taken) -> list[Mention]:
        """Dates and clock times in Chinese numerals: 九月八日, 晚上七点, 下午三点半."""
        out = []
        for kind, start, end, value in zh_numeral_moments(text, self.lex):
            if taken.free(start, end):
                taken.take(start, end)
                out.append(Mention(kind, start, end, value))
        return out

    def numbers(self, text: str, taken: Taken, words: bool = True) -> list[Mention]:
        """Amounts, counts and percentages with their unit and written precision.

        Args:
            text: Text to read.
            taken: Spans already claimed by other mentions.
            words: Read as an answer: number words ("three items", "两个") count, and list markers and
                numbers inside words ("2FA") do not. A tool's "7F" is still floor 7.
        """
        out = []
        currencies = self.lex.map("currencies")
        for m in self._number.finditer(text):
            if not taken.free(m.start("num"), m.end("num")):  # most often digits of a date or an identifier
                continue
            cur, num, mag, unit_word = m.group("cur", "num", "mag", "unit")
            start = m.start("cur") if cur else m.start("num")
            raw = num.replace(",", "")
            try:
                value = Decimal(raw)
            except InvalidOperation:
                continue
            exponent = -len(raw.split(".")[1]) if "." in raw else 0
            if mag:
                shift = _MAG[mag.strip().lower()]
                value = value.scaleb(shift)
                exponent += shift
            unit = None
            if unit_word:
                word = unit_word.strip().lower()
                per_cent = word in ("%", "percent") or word.replace(" ", "") == "/100"  # a score of 86/100
                unit = "%" if per_cent else currencies.get(word, word.upper())
            elif cur:
                unit = currencies.get(cur.lower(), cur.upper())
            end = m.end() if (unit_word or mag) else m.end("num")
            if words and unit is None and not mag and self._year_of_month(text, start, num):
                month = _ZH_MONTH_AFTER.match(text, start + 4)
                if month:
                    taken.take(start, month.end())  # "2024 年 8 月": its month is no count either
                continue  # "the May 2026 invoice": a month of a year, no count
            noun = self._noun_after.match(text, end)
            if words and unit is None and noun and noun.group(1) == "月" and 1 <= value <= 12 and not mag:
                continue  # "您4月税前工资": April, no count of months (that is 4 个月)
            if unit is None and noun:
                unit = noun.group(1).lower()
                if self._half_after(text, noun.end()):  # "3天半": three and a half days
                    value, exponent = value + _HALF, min(exponent, -1)
            elif words and unit is None and not cur and _not_a_number(text, start, end):
                continue  # in an answer, "1. **T-40112**", "2FA", "3rd": a list marker or part of a word

            taken.take(start, end)
            out.append(Mention(FactKind.NUMBER, start, end, _fmt(value), unit, exponent))
        for i, (low, high) in enumerate(zip(out, out[1:], strict=False)):
            if low.unit is None and high.unit and text[high.start].isdigit() \
                    and _RANGE_JOIN.fullmatch(text, low.end, high.start):
                # "5–10 business days": the low end is days too; not a symbol before the high end ("×3 — $6.49")
                out[i] = low._replace(unit=high.unit)
        if words:
            out.extend(self._word_numbers(text, taken))
        return out

    def _year_of_month(self, text: str, start: int, digits: str) -> bool:
        """Whether `digits` at `start` are the year of a month ("May 2026", "March, 2026", "2024 年 8 月")."""
        if len(digits) != 4 or not "1900" <= digits <= "2100":
            return False
        word = _LAST_WORD.search(text, max(0, start - 12), start)
        return word is not None and word[1].lower() in self._months or bool(_ZH_MONTH_AFTER.match(text, start + 4))

    def _word_numbers(self, text: str, taken: Taken) -> list[Mention]:
        out = []
        for m in _ZH_NUM.finditer(text) if not text.isascii() else ():
            noun = self._noun_after.match(text, m.end())
            if not noun or not taken.free(m.start(), m.end()) or m.group() == "一":
                continue
            if text.endswith(self._not_count_prefixes, 0, m.start()):  # 第三, 周六: an ordinal or a weekday
                continue
            if self._in_idiom(text, m.start(), noun.end()):  # 二次销售, 十分抱歉 (but 十分钟 counts)
                continue
            value = parse_zh_numeral(m.group(), self.lex)
            if value is None:
                continue
            taken.take(m.start(), m.end())
            if self._half_after(text, noun.end()):  # "六天半": six and a half days
                out.append(Mention(FactKind.NUMBER, m.start(), m.end(), _fmt(value + _HALF), noun.group(1).lower(), -1))
                continue
            out.append(Mention(FactKind.NUMBER, m.start(), m.end(), str(value), noun.group(1).lower()))
        for hit in self._number_words.finditer(text):
            noun = self._noun_after.match(text, hit.end)
            if noun and noun.start(1) > hit.end and taken.free(hit.start, hit.end):
                taken.take(hit.start, hit.end)
                value = str(self._number_word_values[hit.key])
                out.append(Mention(FactKind.NUMBER, hit.start, hit.end, value, noun.group(1).lower()))
        return out

    def _half_after(self, text: str, pos: int) -> bool:
        """Whether a count noun ending at `pos` is followed by 半 that adds a half ("六天半", not "两个半小时")."""
        return text.startswith("半", pos) and self._noun_after.match(text, pos + 1) is None

    def _in_idiom(self, text: str, start: int, end: int) -> bool:
        """Whether a numeral idiom covers `text[start:end]`, a numeral and its count noun."""
        return any(h.start <= start and end <= h.end for h in self._numeral_idioms.finditer(text, 0, len(text)))

    def noun_after(self, text: str, pos: int) -> re.Match[str] | None:
        """The count noun or unit word right after `pos` (`件`, `days`), if any."""
        return self._noun_after.match(text, pos)

    def labels_before(
        self, text: str, mention: Mention, floor: int = 0, window: int = _LABEL_WINDOW, nearest: bool = False
    ) -> frozenset[str]:
        """Field labels a number is attached to: field words just before it, and its unit.

        Args:
            text: The text holding the mention.
            mention: A number mention.
            floor: Do not look before this offset (the start of its leaf).
            window: How many characters back to look.
            nearest: Keep only the closest field word, and look across clauses.
        """
        before = text[max(floor, mention.start - window) : mention.start]
        if not before.strip() and not mention.unit:
            return frozenset()
        cut = self._conjunction_cut(before) if nearest else max(map(before.rfind, "，,；;。\n"))
        opened = max(map(before.rfind, "(（"))
        if opened > cut and max(map(before.rfind, ")）")) < opened:
            cut = opened  # a number in brackets: '"5 Ways to Cut Costs" (1,240 words)'
        before = before[cut + 1 :]
        labels = self.lex.fields_in(before)
        if nearest:
            labels = labels[-1:]
        own = self.lex.unit_field(mention.unit)
        if own is not None:
            labels = [label for label in labels if label != _COUNT] + [own]  # "共有 12,580 积分": points, no count
        if mention.unit in self.lex.currency_codes:
            return frozenset(labels) - self.lex.not_money_labels
        if mention.unit in self._duration_units:  # 保留座位 15 分钟: a duration, no count of seats
            return frozenset(label for label in labels if label in self.lex.duration_labels or label == own)
        if mention.unit and mention.unit != "%":  # a count or a measure: 3-5 个工作日 after 退款
            labels = [label for label in labels if label not in self.lex.money_labels]
            if mention.unit.lower() in self.lex.unit_scales:  # "within 5 miles": a distance, no days
                labels = [label for label in labels if label not in self.lex.duration_labels]
        return frozenset(labels)

    def labels_after(self, text: str, mention: Mention) -> frozenset[str]:
        """Field labels named right after a measure and its unit ("18.6 GB left": balance; lexicon `fields_after`).

        Only a measure of a `unit_scales` dimension other than time takes them: "3 days left" and
        "$5 left" are said of too many fields to compare with one.
        """
        unit = (mention.unit or "").lower()
        if unit not in self.lex.unit_scales or unit in self.lex.duration_seconds:
            return frozenset()
        at = _SPACES_AT.match(text, mention.end).end()
        if text[at : at + len(unit)].lower() == unit:
            at = _SPACES_AT.match(text, at + len(unit)).end()
        hits = self.lex.fields_after.finditer(text, at, at + _LABEL_WINDOW)
        if not hits or hits[0].start != at:
            return frozenset()
        return frozenset({self.lex.field_after_of[hits[0].key]})

    def _conjunction_cut(self, before: str) -> int:
        """The last clause mark before a conjunction ("…fee, so you'll get"): field words before it name no number
        after it."""
        cut = -1
        for m in _CLAUSE_MARK.finditer(before):
            if self._conjunctions.match_at(before, _SPACES_AT.match(before, m.end()).end()):
                cut = m.start()
        return cut

    def weekdays(self, text: str, taken: Taken, dates: list[Mention]) -> list[Mention]:
        """Days of the week right next to a date (`Monday, Dec. 7`, `9月26日（周六）`); value 0 is Monday."""
        out = []
        for hit in self.lex.weekday_words.finditer(text) if dates else ():
            beside = any(
                _BESIDE.fullmatch(text, min(hit.end, d.end), max(hit.start, d.start)) for d in dates
            )
            if beside and taken.free(hit.start, hit.end):
                taken.take(hit.start, hit.end)
                out.append(Mention(FactKind.WEEKDAY, hit.start, hit.end, str(self.lex.weekday_of[hit.key])))
        return out

    def names(self, text: str, taken: Taken) -> list[Mention]:
        """Proper names in Latin script: two to four capitalised words (`Emily Carson`)."""
        out = []
        skip = self.lex.name_stopwords
        for m in NAME_RE.finditer(text):
            words = [(w.start(), w.group()) for w in _NON_SPACE.finditer(m.group())]
            while words and (words[0][1] in skip or words[0][1].lower() in self._months):
                words.pop(0)
            if len(words) < 2 or not taken.free(m.start(), m.end()):
                continue
            start = m.start() + words[0][0]
            taken.take(start, m.end())
            out.append(Mention(FactKind.NAME, start, m.end(), text[start : m.end()].lower()))
        return out

    def extract(self, text: str, words: bool = True, numbers: bool = True) -> list[Mention]:
        """All mentions in `text`, highest priority first, never overlapping.

        Args:
            text: An answer sentence or tool-output text.
            words: Also read number words and proper names (see `numbers`, `names`).
            numbers: Also read numbers. They come after links, dates, identifiers and
                times in priority, so without them those mentions are the same.
        """
        taken = Taken()
        found = self.links(text, taken)
        for m in _MD_LABEL.finditer(text) if "](" in text else ():  # "[图1](...)": a link's label, not a fact
            if taken.free(m.start(), m.end() - 1):
                taken.take(m.start(), m.end() - 1)
        if _DIGIT.search(text):  # every date, identifier, time and numeral holds a digit
            found += self.dates(text, taken)
            found += self.identifiers(text, taken)
            found += self.times(text, taken)
            if words and not text.isascii():
                found += self.numeral_moments(text, taken)
            if numbers:
                found += self.numbers(text, taken, words)
        elif words and numbers and not text.isascii():
            found += self.numeral_moments(text, taken)
            found += self._word_numbers(text, taken)
        elif words and numbers:
            found += self._word_numbers(text, taken)
        if words:
            found += self.weekdays(text, taken, [m for m in found if m.kind == FactKind.DATE])
            found += self.names(text, taken)
        found.sort(key=lambda x: x.start)
        return found


def _first_letter_check(words: list[str], gap: str = "\\s?") -> str:
    """A look-ahead for `gap` (`\\s?`) then the first letter of one of `words`, if none is empty.

    Put before an alternation of the words, it spares the regex engine trying each
    of them where none can match.
    """
    if not all(words):
        return ""
    return "(?=" + gap + "[" + "".join(sorted({re.escape(w[0]) for w in words})) + "])"


def _alternation(words: list[str]) -> str:
    """A case-insensitive regex alternation of `words`, tried in their order, branching on first characters.

    The words are grouped by their lower-cased first character, so the regex engine tries
    only the words of one group at each place. A text character matches the first
    characters of one group at most, unless some word opens with a cased non-ASCII
    character: then the words stay one plain alternation.
    """
    if not all(words) or any(not w[0].isascii() and (w[0].lower(), w[0].upper()) != (w[0], w[0]) for w in words):
        return "|".join(map(re.escape, words))
    rests: dict[str, list[str]] = {}
    for word in words:
        rests.setdefault(word[0].lower(), []).append(re.escape(word[1:]))
    return "|".join(re.escape(first) + "(?:" + "|".join(ends) + ")" for first, ends in rests.items())


def _looks_like_quantity(token: str) -> bool:
    """`24h`, `5kg`, `3x`, `30-day`, `3rd-floor` style tokens are quantities, not identifiers."""
    return bool(_QUANTITY.fullmatch(token))


def _to24(hour: int, ampm: str | None) -> int:
    if ampm and ampm.lower() == "p" and hour < 12:
        return hour + 12
    if ampm and ampm.lower() == "a" and hour == 12:
        return 0
    return hour


_HALF = Decimal("0.5")


def _fmt(value: Decimal) -> str:
    """Canonical decimal string: no exponent, no trailing zeros (not `normalize`, which rounds long numbers)."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"
