"""Literal searches over tool-output text: a search form that keeps offsets, tokens, windows and literals."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cached_property, lru_cache
from os.path import commonprefix
from typing import TYPE_CHECKING

from factcheck.grounding.flat import Leaf
from factcheck.lexicon import Lexicon

if TYPE_CHECKING:
    from factcheck.grounding.flat import Flat

_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
_DIGITS = re.compile(r"\d+")
# A number written with a magnitude word (1.2万, 3k, 2 million): its digits are not its value.
_MAGNITUDE = re.compile(r"\d\s?(?:[万千亿]|k(?![a-z])|thousand|million)")
_ZONED = re.compile(
    r"(?:(\d{4})-(\d{2})-(\d{2})[t ])?(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?(?:\.\d+)?"
    r"\s?\(?(z|utc|gmt|[+-]\d{2}:?\d{2})(?![\w:])"
)
"""A clock time written with its UTC offset (2026-03-17t14:30:00z, 18:00+09:00, 22:40 (utc)), lower case."""
NEAR = 48
"""How far around a search hit a long string is read for mentions."""
_BOUNDARY = re.compile(r"[\s，。；、]")
_ASCII_NON_LETTERS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha()})
HITS_READ = 100
"""How many places of one literal in one string a search gives (the first ones, in text order)."""
_WORDS_FROM = 4096
"""Length of the joined strings from which a word look-up goes before a search for a plain word."""


@dataclass
class Blob:
    """Leaves joined into one searchable text, lower-cased, with offsets back to leaves."""

    leaves: list[Leaf] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    length: int = 0

    def add(self, leaf: Leaf) -> None:
        leaf.start = self.length
        self.leaves.append(leaf)
        self.parts.append(leaf.text)
        self.length += len(leaf.text) + 1

    @cached_property
    def lower(self) -> str:
        return search_form("\n".join(self.parts))

    @cached_property
    def _starts(self) -> list[int]:
        return [leaf.start for leaf in self.leaves]

    def leaf_at(self, pos: int) -> Leaf:
        return self.leaves[bisect_right(self._starts, pos) - 1]

    def find_token(self, value: str, url: bool = False) -> Leaf | None:
        """First leaf holding `value` (lower case) as a whole token."""
        pos = find_token(self.lower, value, url)
        return None if pos < 0 else self.leaf_at(pos)


def search_form(text: str) -> str:
    """`text` lower-cased with ASCII digits, character for character (offsets stay valid)."""
    low = text.lower()
    if low.isascii():
        return low
    if len(low) != len(text):  # "İ" lower-cases to two characters
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    return _OTHER_DIGIT.sub(lambda m: str(int(m.group())), low)  # ４５, ٣ are read as digits too


def find_token(hay: str, value: str, url: bool = False, segment: bool = False) -> int:
    """Offset of the first whole-token occurrence of `value` in `hay`, or -1.

    A token runs on over `-` and `_`; with `segment`, `value` may also be one part of such a
    token (9kx2p of search-indexer-5d8b7c9f4-9kx2p, p99 of p99_latency).
    """
    pos = 0
    while value:
        pos = hay.find(value, pos)
        if pos < 0:
            return -1
        before = hay[pos - 1] if pos else " "
        after = hay[pos + len(value)] if pos + len(value) < len(hay) else " "
        if segment:
            ok = not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum())
        elif url:
            ok = not (after.isalnum() or after in "-_") and not (before.isalnum() or before in "-_")
        else:
            ok = not (before.isascii() and (before.isalnum() or before in "-_")) and not (
                after.isascii() and (after.isalnum() or after in "-_")
            )
        if ok:
            return pos
        pos += 1
    return -1


@dataclass(slots=True, eq=False)
class Strings:
    """The distinct strings of all tool outputs (entries), joined lower-cased for literal searches."""

    texts: list[str]
    """Each distinct string of each shape, shape by shape."""
    buckets: list[tuple[Flat, str, int, int]]
    """(flat, shape, first entry, end entry) of each shape's strings."""
    lower: str
    starts: list[int]
    """Offset of each entry in `lower`."""
    firsts: list[int]
    """First entry of each bucket."""
    _words: str | None = None
    _magnitudes: dict[int, list[int]] | None = None
    """Entry -> where its numbers written with a magnitude word stand, its first `HITS_READ` (found when first
    needed)."""
    _zoned: list[tuple[datetime, bool, int]] | None = None

    def may_hold(self, literal: str) -> bool:
        """False when `lower` cannot hold `literal`; the long joined text is then not searched.

        A plain ASCII word can only stand inside a run of letters, so it is first looked
        for in the distinct runs, which long outputs (item lists, logs) repeat.
        """
        if len(self.lower) < _WORDS_FROM or not (literal.isascii() and literal.isalpha()):
            return True
        if self._words is None:
            self._words = " ".join(set(self.lower.translate(_ASCII_NON_LETTERS).split()))
        return literal in self._words

    def zoned_times(self) -> list[tuple[datetime, bool, int]]:
        """(the moment in UTC, whether its date is written, entry) of each clock time written with its offset.

        Found when first needed: only a claim naming a time zone looks for them.
        """
        if self._zoned is None:
            self._zoned = []
            for m in _ZONED.finditer(self.lower):
                year, month, day, hour, minute, zone = m.groups()
                sign = -1 if zone.startswith("-") else 1
                offset = 0 if zone[0] not in "+-" else sign * (int(zone[1:3]) * 60 + int(zone[-2:]))
                try:
                    local = datetime(int(year or 2000), int(month or 1), int(day or 1), int(hour), int(minute))
                except ValueError:
                    continue
                self._zoned.append((local - timedelta(minutes=offset), year is not None, self.at(m.start())))
        return self._zoned

    def at(self, pos: int) -> int:
        """The entry at an offset of `lower`."""
        return bisect_right(self.starts, pos) - 1

    def bucket(self, entry: int) -> tuple[Flat, str, int, int]:
        return self.buckets[bisect_right(self.firsts, entry) - 1]

    def hits(self, literals: Iterable[str], digits: bool = False) -> dict[int, list[int]]:
        """Entry -> offsets in its text of any of `literals`; with `digits`, not inside a longer digit run.

        Each literal gives at most `HITS_READ` offsets in one entry, its first: the rest of a long
        text (a log with the literal on every line) is skipped, not searched place by place.
        """
        hay, found = self.lower, {}
        for literal in literals:
            if not self.may_hold(literal):
                continue
            # with `digits`, the regex engine skips the places a digit follows (the exact test is below); a literal
            # of four digits or more is rarely followed by one, and a regex each would crowd the cache out
            after_digit = _not_before_digit(literal) if digits and len(literal) < 4 else None
            pos, taken = self._next(hay, literal, after_digit, 0), {}
            while pos >= 0:
                end, start = pos + len(literal), pos
                while digits and start and hay[start - 1] == "0":  # 0932 is 932
                    start -= 1
                if not digits or not (start and hay[start - 1].isdigit() or end < len(hay) and hay[end].isdigit()):
                    entry = self.at(pos)
                    found.setdefault(entry, []).append(pos - self.starts[entry])
                    taken[entry] = taken.get(entry, 0) + 1
                    if taken[entry] == HITS_READ:  # on to the next entry
                        pos = self.starts[entry + 1] - 1 if entry + 1 < len(self.starts) else len(hay)
                pos = self._next(hay, literal, after_digit, pos + 1)
        return found

    @staticmethod
    def _next(hay: str, literal: str, places: re.Pattern[str] | None, pos: int) -> int:
        """The next place of `literal` from `pos` (of `places` when given), or -1."""
        if places is None:
            return hay.find(literal, pos)
        m = places.search(hay, pos)
        return -1 if m is None else m.start()

    def number_entries(self, target: Decimal, exponent: int) -> dict[int, list[int] | None]:
        """Entries whose text may hold a number equal to `target` at `exponent`, and where (None: anywhere)."""
        half = Decimal(5).scaleb(exponent - 1)
        lo, hi = abs(target) - half, abs(target) + half
        if hi - lo > 10:  # written with a magnitude (1.2万): any digits may be it
            return dict.fromkeys((self.at(m.start()) for m in _DIGITS.finditer(self.lower)), None)
        if hi < 1:  # 0.15: its digits after "0." (a lone "0" is everywhere), and 0 itself when in range
            low, high = f"{max(lo, Decimal(0)):.12f}", f"{hi:.12f}"
            found: dict[int, list[int] | None] = dict(self.hits([commonprefix([low, high]) or "0."]))
            if lo <= 0:
                merge_hits(found, self.hits(["0"], digits=True))
            return found
        whole = range(max(0, math.floor(lo)), math.floor(hi) + 1)
        literals = {str(n) for n in whole} | {f"{n:,}" for n in whole if n >= 1000}
        found = dict(self.hits(literals, digits=True))
        if hi >= 1000:  # "3k", "1.2万": other digits may give it, read where such a number stands
            merge_hits(found, self.magnitudes())
        return found

    def magnitudes(self) -> dict[int, list[int]]:
        """Entry -> offsets in its text of the first `HITS_READ` numbers written with a magnitude word.

        Each offset is the digit before the word ("3k": the 3), inside the number's mention.
        """
        if self._magnitudes is None:
            self._magnitudes = {}
            for m in _MAGNITUDE.finditer(self.lower):
                entry = self.at(m.start())
                places = self._magnitudes.setdefault(entry, [])
                if len(places) < HITS_READ:
                    places.append(m.start() - self.starts[entry])
        return self._magnitudes


@lru_cache(maxsize=4096)
def _not_before_digit(literal: str) -> re.Pattern[str]:
    """A regex for `literal` where no ASCII digit follows it (a superset of the places `Strings.hits` keeps)."""
    return re.compile(re.escape(literal) + "(?![0-9])")


def merge_hits(into: dict[int, list[int] | None], hits: Mapping[int, list[int] | None]) -> None:
    """Add hit offsets per entry; None (read the whole string) wins over offsets."""
    for entry, near in hits.items():
        had = into.get(entry, [])
        into[entry] = None if near is None or had is None else had + near


def windows(text: str, offsets: list[int]) -> list[tuple[int, int, list[int]]]:
    """Merged windows of `text` around sorted offsets, widened to boundaries, with the offsets each holds.

    A window runs from the last boundary before `NEAR` characters ahead of its offset to the first
    boundary `NEAR` characters after it. The text is scanned for boundaries once, left to right:
    a long log with a hit every line costs one pass, not one per hit.
    """
    out: list[tuple[int, int, list[int]]] = []
    last_boundary, scanned = 0, 0  # the end of the last boundary before `scanned`
    for pos in offsets:
        start = max(0, pos - NEAR)
        if start > scanned:
            for m in _BOUNDARY.finditer(text, scanned, start):
                last_boundary = m.end()
            scanned = start
        start = last_boundary  # offsets come sorted: `start` never goes back
        after = _BOUNDARY.search(text, min(len(text), pos + NEAR))
        end = after.start() if after else len(text)
        if out and start <= out[-1][1]:
            first, last, held = out[-1]
            held.append(pos)
            out[-1] = (first, max(end, last), held)
        else:
            out.append((start, end, [pos]))
    return out


def holds_any(shape: str, words: Iterable[str]) -> bool:
    """Whether a path shape holds any of `words` (lower case) anywhere."""
    low = shape.lower()
    return any(w in low for w in words)


def date_literals(value: str, lex: Lexicon) -> list[str]:
    """Texts one of which any writing of the date's month and day contains."""
    month, day = int(value[-5:-3]), int(value[-2:])
    months = {str(month), f"{month:02d}"}
    out = [f"{m}{sep}{d}" for m in months for d in {str(day), f"{day:02d}"} for sep in "-/."]
    out += [f"{m}{gap}月" for m in months for gap in ("", " ", "\u3000")]  # 12月3日, 12 月 3 日
    out += [name for name, number in lex.map("months").items() if number == month]
    return out


def time_literals(value: str) -> list[str]:
    hour, minute = int(value[:2]), int(value[3:5])
    half_day = hour % 12 or 12
    out = [f"{h}:{minute:02d}" for h in {str(hour), f"{hour:02d}", str(half_day), f"{half_day:02d}"}]
    if not minute:
        out += [f"{half_day}{gap}{ap}" for gap in ("", " ") for ap in "ap"]
    return out + [f"{h}{gap}{unit}" for h in {hour, half_day} for gap in ("", " ", "\u3000") for unit in "点时"]
