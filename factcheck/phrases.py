"""Find lexicon words and phrases in text: Latin ones by tokens and look-ups, CJK ones by one regex."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import NamedTuple

COMPLETED = re.compile(r"(?i:\b(?:has|have|had)\s+(?:been\s+|already\s+|now\s+)*\w+|\b(?:was|were)\s+\w+ed\b"
                       r"|['’]ve\s+\w+|\bsuccessful(?:ly)?\b|\bsucceeded\b|\bcompleted?\b|\bwent through\b)"
                       r"|已经?|成功|完成了")
"""A completed-action marker before a fact ("has been refunded", "I've sent", 已发布): the claim says it was done."""
AGENT_DOER = re.compile(r"(?i:\b(?:I|we)(?:['’]ve|\s+have|\s+just|\s+already)?\s+\w+)|为您|帮您|给您|我已|我们已|已为")
"""The agent as the doer of a claim ("I've sent", "我已为您"): an action the agent says it took this turn."""

MARKER_REACH = 24
"""How far before a fact (characters) its completion marker or doer stands (已为您成功取消, "I've refunded")."""


def marked_done(text: str, at: int, length: int, doer: bool = False) -> bool:
    """Whether a completion marker (`COMPLETED`; with `doer`, the agent as doer too) stands in `text` within
    `MARKER_REACH` characters before the fact at `at`, or inside the fact (`length` long): the text says it was done."""
    begin, end = max(0, at - MARKER_REACH), min(len(text), at + length)
    return COMPLETED.search(text, begin, end) is not None or doer and AGENT_DOER.search(text, begin, end) is not None


# A word of Latin letters, with an apostrophe contraction ("didn't").
_LATIN_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_ASCII_LETTERS = frozenset(string.ascii_letters)
# The characters of a CJK run: a CJK phrase made of others never matches.
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
# What may stand between the words of one phrase ("in transit", "in_transit", "e-mail").
_GAP = re.compile(r"[\s_\-]+")


def term_key(text: str) -> str:
    """Lookup key of a lexicon word or matched text: lower case, one space between words."""
    return _GAP.sub(" ", text.lower().replace("’", "'")).strip()


def _is_cjk(ch: str) -> bool:
    return "\u3040" <= ch <= "\u9fff"


def _with_plurals(words: frozenset[str]) -> frozenset[str]:
    """`words` and every lower-cased token that `Phrases.lookup` may fold to one of them.

    A token ending in `s` folds by dropping its last one or two characters, and a
    lower-cased Latin token holds only `a`-`z` and apostrophes.
    """
    endings = ("", "s", *(c + "s" for c in "abcdefghijklmnopqrstuvwxyz'’"))
    return frozenset(w + e for w in words for e in endings)


def _latin_lows(window: str) -> tuple[str, ...]:
    """The Latin words of `window`, lower-cased, with `’` read as `'`.

    A short window's words are remembered until `forget_words` (each check calls it
    first): every lexicon list looks through the same sentence, each with its own `Phrases`.
    """
    if len(window) <= _REMEMBERED_WINDOW:
        return _remembered_latin_lows(window)
    return _read_latin_lows(window)


_REMEMBERED_WINDOW = 512
"""Longest text whose words `_latin_lows` remembers: a sentence, not a whole tool output."""


@functools.lru_cache(maxsize=256)
def _remembered_latin_lows(window: str) -> tuple[str, ...]:
    return _read_latin_lows(window)


def forget_words() -> None:
    """Drop the remembered words of short texts: a check remembers only its own."""
    _remembered_latin_lows.cache_clear()
    _remembered_latin_tokens.cache_clear()


def _latin_tokens(window: str) -> tuple[re.Match[str], ...]:
    """The Latin words of `window` (those of `_latin_lows`) as matches, for their places; a short window's are
    remembered like its words (the lists whose words it holds each ask)."""
    if len(window) <= _REMEMBERED_WINDOW:
        return _remembered_latin_tokens(window)
    return tuple(_LATIN_TOKEN.finditer(window))


@functools.lru_cache(maxsize=256)
def _remembered_latin_tokens(window: str) -> tuple[re.Match[str], ...]:
    return tuple(_LATIN_TOKEN.finditer(window))


def _read_latin_lows(window: str) -> tuple[str, ...]:
    # ASCII text lower-cases letter for letter, so it can be tokenized lower-cased
    if window.isascii():
        return tuple(_LATIN_TOKEN.findall(window.lower()))
    return tuple(w.lower().replace("’", "'") for w in _LATIN_TOKEN.findall(window))


class Hit(NamedTuple):
    """A lexicon phrase found in text."""

    start: int
    end: int
    key: str
    """The lexicon key it matched (plural `s`/`es` folded)."""

    def overlaps(self, spans: Iterable[tuple[int, int]]) -> bool:
        """Whether the hit overlaps any of `spans` (start, end): a link's or a quoted title's words."""
        return any(a < self.end and self.start < b for a, b in spans)


def said_alone(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is all the text says, punctuation aside ("Done!", "搞定。")."""
    return not (text[:start] + text[end:]).strip(_BARE_MARKS)


_BARE_MARKS = " \t\n!！.。~～"
"""What may stand around words said alone."""


def window_before(prefix: str, words: int, chars: int) -> str:
    """The end of `prefix` a word standing just before something is looked for in.

    Its last `words` words when it ends in Latin text or white space, else (CJK) its last `chars` characters.
    """
    if prefix[-1:].isascii():
        return " ".join(prefix.split()[-words:])
    return prefix[-chars:]


class Phrases:
    """Words and phrases of one lexicon list: Latin ones by tokens and dict look-ups, CJK ones by a regex.

    Matching is leftmost-longest and case-insensitive, on whole words in Latin text
    (`ship` never matches inside `shipping`) and anywhere inside CJK runs. A Latin
    phrase's last word may carry a plural `s`/`es`. A plain regex alternation would be
    tried branch by branch at every position of a long tool output; the CJK regex
    branches on first characters, which the regex engine skips ahead to.
    """

    def __init__(self, phrases: Iterable[str]) -> None:
        self.keys = frozenset(k for k in map(term_key, phrases) if k)
        latin = [k for k in self.keys if not _is_cjk(k[0])]
        cjk = [k for k in self.keys if _is_cjk(k[0])]
        first_words = frozenset(k.split(" ")[0] for k in latin)
        self._starts = _with_plurals(first_words)
        """Lower-cased words that may start a phrase: a first word, or one with a plural ending."""
        self._word_prefixes = frozenset(
            " ".join(words[:n]) for words in (k.split(" ") for k in latin) for n in range(1, len(words))
        )
        """The first words of each phrase of several words, short of its last word ("in", "let me")."""
        self._max_words = max((k.count(" ") + 1 for k in latin), default=0)
        seconds: dict[str, set[str]] = {}
        for words in (k.split(" ") for k in latin if " " in k):
            # the second word of a two-word phrase is its last: it may carry a plural ending
            second = _with_plurals(frozenset(words[1:2])) if len(words) == 2 else words[1:2]
            seconds.setdefault(words[0], set()).update(second)
        self._seconds = {first: frozenset(ws) for first, ws in seconds.items()}
        """First word -> the words that may follow it in a longer phrase: a token is looked at as the
        start of one only when such a word follows it."""
        self._cjk_keys = frozenset(cjk)
        self._cjk_max = max((len(k) for k in cjk), default=0)
        self._cjk = _cjk_pattern(k for k in cjk if _CJK_RUN.fullmatch(k))
        """Finds the CJK phrases, longest first at each place; None when there are none."""

    def lookup(self, key: str) -> str | None:
        """The lexicon key for `key`, folding a plural `s`/`es`; None when absent."""
        if key in self.keys:
            return key
        if key.endswith("s"):
            for folded in (key[:-1], key[:-2]):
                if folded in self.keys:
                    return folded
        return None

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> list[Hit]:
        """All non-overlapping phrases in `text[pos:endpos]`, in order."""
        end = len(text) if endpos is None else endpos
        starts = self._starts
        if starts:
            # the first look, inline: most lists have no word that starts a phrase in a given sentence
            window = text[pos:end]
            lows = _remembered_latin_lows(window) if len(window) <= _REMEMBERED_WINDOW else _read_latin_lows(window)
            hits = [] if starts.isdisjoint(lows) else self._latin_hits(text, pos, window, lows)
        else:
            hits = []
        if self._cjk is not None and not text.isascii():
            # CJK phrases hold CJK characters only, so they never overlap a Latin word
            cjk = [Hit(m.start(), m.end(), m.group()) for m in self._cjk.finditer(text, pos, end)]
            hits = sorted(hits + cjk) if hits and cjk else hits or cjk
        return hits

    def _latin_hits(self, text: str, pos: int, window: str, lows: tuple[str, ...]) -> list[Hit]:
        """The phrases of Latin words in `window`, `text[pos:…]`, in order, once its `_latin_lows` (`lows`, read by
        the caller, inline: every lexicon list looks through each sentence) hold a word that may start one."""
        starts = self._starts
        seconds = self._seconds
        tokens: tuple[re.Match[str], ...] = ()  # the tokens of `window`, found once a phrase may be here
        hits: list[Hit] = []
        after = 0  # the first token not covered by a hit
        for i in [i for i, low in enumerate(lows) if low in starts]:
            if i < after:
                continue
            low = lows[i]
            following = lows[i + 1] if i + 1 < len(lows) else None
            if following is not None and (following == "s" or following in seconds.get(low, ())):
                # a longer phrase may start here ("order s" folds to "order" too)
                tokens = tokens or _latin_tokens(window)
                after = i + (self._latin_hit(text, tokens, pos, lows, i, hits) or 1)
            else:
                key = self.lookup(low)
                if key is not None:
                    tokens = tokens or _latin_tokens(window)
                    hits.append(Hit(pos + tokens[i].start(), pos + tokens[i].end(), key))
                after = i + 1
        return hits

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> bool:
        """Whether any phrase occurs in `text[pos:endpos]`."""
        end = len(text) if endpos is None else endpos
        if self._cjk is not None and not text.isascii() and self._cjk.search(text, pos, end):
            return True
        starts = self._starts
        if not starts:
            return False
        window = text[pos:end]  # the first look, inline (as in `finditer`)
        lows = _remembered_latin_lows(window) if len(window) <= _REMEMBERED_WINDOW else _read_latin_lows(window)
        return not starts.isdisjoint(lows) and bool(self._latin_hits(text, pos, window, lows))

    def match_at(self, text: str, pos: int) -> bool:
        """Whether a phrase starts exactly at `pos` (a Latin one only where a word starts)."""
        if _is_cjk(text[pos : pos + 1]):  # a CJK phrase starts with a CJK character, a Latin one never does
            for length in range(min(self._cjk_max, len(text) - pos), 0, -1):
                if text[pos : pos + length] in self._cjk_keys:
                    return True
            return False
        if not self._starts or pos and text[pos - 1] in _ASCII_LETTERS:
            return False
        token = _LATIN_TOKEN.match(text, pos)
        low = token.group().lower().replace("’", "'") if token is not None else None
        if low not in self._starts:
            return False
        # the words after it are read only when a longer phrase may start here (as `_latin_hits` does), and only
        # those it may span (`_max_words`, and one more): they alone decide it, not the rest of the text
        following = _LATIN_TOKEN.search(text, token.end())
        then = following.group().lower().replace("’", "'") if following is not None else None
        if then is None or then != "s" and then not in self._seconds.get(low, ()):
            return self.lookup(low) is not None
        tokens = [token, following, *islice(_LATIN_TOKEN.finditer(text, following.end()), self._max_words - 1)]
        lows = tuple(t.group().lower().replace("’", "'") for t in tokens)
        return self._latin_hit(text, tokens, 0, lows, 0, []) > 0

    def _latin_hit(self, text: str, tokens: Sequence[re.Match[str]], offset: int, lows: tuple[str, ...], i: int,
                   hits: list[Hit]) -> int:
        """Longest phrase starting at token `i`; returns how many tokens it spans (0: none).

        `tokens` are matches in a window starting at `offset` of `text`; `lows` holds them lower-cased, with `’`
        read as `'`.
        """
        n, words = 1, lows[i]
        while (
            n < self._max_words
            and i + n < len(tokens)
            # a phrase goes on after some phrase's first words, or after a whole one as "order s"
            and (words in self._word_prefixes or lows[i + n] == "s" and words in self.keys)
            and _GAP.fullmatch(text, offset + tokens[i + n - 1].end(), offset + tokens[i + n].start())
        ):
            words += " " + lows[i + n]
            n += 1
        for width in range(n, 0, -1):
            key = self.lookup(" ".join(lows[i : i + width]))
            if key is not None:
                hits.append(Hit(offset + tokens[i].start(), offset + tokens[i + width - 1].end(), key))
                return width
        return 0


def _cjk_pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """A regex of CJK phrases that tries the longest phrase first at each character.

    It branches on the first character, so the regex engine skips ahead to those.
    """
    rests: dict[str, list[str]] = {}
    for phrase in phrases:
        rests.setdefault(phrase[0], []).append(phrase[1:])
    if not rests:
        return None
    branches = (
        re.escape(first) + "(?:" + "|".join(map(re.escape, sorted(ends, key=len, reverse=True))) + ")"
        for first, ends in sorted(rests.items())
    )
    return re.compile("|".join(branches))
