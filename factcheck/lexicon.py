"""Lexicons (status words, negators, units, number words) loaded from data files."""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

SHIPPED = ("zh", "en")
_MERGED_DICTS = (
    "concepts", "status_terms", "action_tools", "currencies", "number_words", "numerals",
    "numeral_units", "fields", "months", "negation_window", "duration_days", "duration_minutes",
    "payment_methods",
    "currency_symbols", "weekdays", "status_implies",
)
_MERGED_LISTS = (
    "negators", "count_nouns", "id_keywords", "abbreviations", "hedges", "hedges_after",
    "completion_markers", "completion_markers_far", "minor_unit_fields", "name_stopwords",
    "read_only_tool_prefixes", "count_adjectives", "payment_method_cues", "payment_method_cues_after",
    "payment_method_fields", "not_count_prefixes", "numeral_idioms", "other_record_words", "suffix_cues",
    "generic_concepts", "status_fields", "advice_markers", "all_words", "approximators", "hedge_exceptions",
    "currency_fields", "record_key_fields", "categories_links", "categories_owners", "generic_field_labels",
)


@dataclass(frozen=True)
class Term:
    """A lexicon word with what it says about a status."""

    text: str
    concept: str | None
    polarity: str | None
    action: bool = False
    evidence_only: bool = False
    field_polarity: str | None = None
    """What the word says of another concept when it is the value of that concept's field
    (`{"booking_status": "cancelled"}`: the booking is off, `negative`); None: nothing."""


# A word of Latin letters, with an apostrophe contraction ("didn't").
_LATIN_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_ASCII_LETTERS = frozenset(string.ascii_letters)
# The characters of a CJK run: a CJK phrase made of others never matches.
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
# What may stand between the words of one phrase ("in transit", "in_transit", "e-mail").
_GAP = re.compile(r"[\s_\-]+")


def split_camel(name: str) -> str:
    """A camelCase name with its words apart (`amountCents` -> `amount_Cents`), as field and tool names are read."""
    if name.islower():  # snake_case and lower-case names: nothing to split (the common case, and fast)
        return name
    return _CAMEL.sub(_word_break, name)


def _word_break(m: re.Match[str]) -> str:
    return m[1] + "_" + m[2]


def field_name(path: str) -> str:
    """The last field name of a path or shape, as lexicon words (`items[].isRefunded` -> `is refunded`)."""
    return term_key(split_camel(path.rsplit(".", 1)[-1].replace("[]", "")))


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
        hits = self._latin_hits(text, pos, end) if self._starts else []
        if self._cjk is not None and not text.isascii():
            # CJK phrases hold CJK characters only, so they never overlap a Latin word
            cjk = [Hit(m.start(), m.end(), m.group()) for m in self._cjk.finditer(text, pos, end)]
            hits = sorted(hits + cjk) if hits and cjk else hits or cjk
        return hits

    def _latin_hits(self, text: str, pos: int, end: int) -> list[Hit]:
        """The phrases of Latin words in `text[pos:end]`, in order."""
        lows = _latin_lows(text[pos:end])
        starts = self._starts
        if starts.isdisjoint(lows):
            return []
        seconds = self._seconds
        tokens: list[re.Match[str]] = []  # the tokens' places, found once a phrase may be here
        hits: list[Hit] = []
        after = 0  # the first token not covered by a hit
        for i in [i for i, low in enumerate(lows) if low in starts]:
            if i < after:
                continue
            low = lows[i]
            following = lows[i + 1] if i + 1 < len(lows) else None
            if following is not None and (following == "s" or following in seconds.get(low, ())):
                # a longer phrase may start here ("order s" folds to "order" too)
                tokens = tokens or list(_LATIN_TOKEN.finditer(text, pos, end))
                after = i + (self._latin_hit(text, tokens, lows, i, hits) or 1)
            else:
                key = self.lookup(low)
                if key is not None:
                    tokens = tokens or list(_LATIN_TOKEN.finditer(text, pos, end))
                    hits.append(Hit(tokens[i].start(), tokens[i].end(), key))
                after = i + 1
        return hits

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> bool:
        """Whether any phrase occurs in `text[pos:endpos]`."""
        end = len(text) if endpos is None else endpos
        if self._cjk is not None and not text.isascii() and self._cjk.search(text, pos, end):
            return True
        return bool(self._starts) and bool(self._latin_hits(text, pos, end))

    def match_at(self, text: str, pos: int) -> bool:
        """Whether a phrase starts exactly at `pos` (a Latin one only where a word starts)."""
        for length in range(min(self._cjk_max, len(text) - pos), 0, -1):
            if text[pos : pos + length] in self._cjk_keys:
                return True
        if not self._starts or pos and text[pos - 1] in _ASCII_LETTERS:
            return False
        token = _LATIN_TOKEN.match(text, pos)
        if token is None or token.group().lower().replace("’", "'") not in self._starts:
            return False
        hits = self._latin_hits(text, pos, len(text))
        return bool(hits) and hits[0].start == pos

    def _latin_hit(self, text: str, tokens: list[re.Match[str]], lows: tuple[str, ...], i: int, hits: list[Hit]) -> int:
        """Longest phrase starting at token `i`; returns how many tokens it spans (0: none).

        `lows` holds the tokens lower-cased, with `’` read as `'`.
        """
        n, words = 1, lows[i]
        while (
            n < self._max_words
            and i + n < len(tokens)
            # a phrase goes on after some phrase's first words, or after a whole one as "order s"
            and (words in self._word_prefixes or lows[i + n] == "s" and words in self.keys)
            and _GAP.fullmatch(text, tokens[i + n - 1].end(), tokens[i + n].start())
        ):
            words += " " + lows[i + n]
            n += 1
        for width in range(n, 0, -1):
            key = self.lookup(" ".join(lows[i : i + width]))
            if key is not None:
                hits.append(Hit(tokens[i].start(), tokens[i + width - 1].end(), key))
                return width
        return 0


@dataclass
class Lexicon:
    """All lexicon data merged across languages, with the phrase matchers built from it."""

    data: dict[str, Any]
    terms: dict[str, Term] = field(init=False)
    """Status terms and concept words by key."""
    term_phrases: Phrases = field(init=False)
    negators: Phrases = field(init=False)
    hedge_exceptions: Phrases = field(init=False)
    """Words holding a hedge that are no hedge (申请 holds 请)."""
    hedges: Phrases = field(init=False)
    hedges_after: Phrases = field(init=False)
    completion: Phrases = field(init=False)
    completion_far: Phrases = field(init=False)
    minor_units: Phrases = field(init=False)
    field_phrases: Phrases = field(init=False)
    concept_words: dict[str, tuple[str, ...]] = field(init=False)
    """Concept -> a word of each of its terms, to find the texts that may speak of it."""
    field_words: dict[str, tuple[str, ...]] = field(init=False)
    """Field label -> a word of each of its field names, to find the texts that may name it."""
    field_of: dict[str, str] = field(init=False)
    """Field word key -> field label (`退款` -> refund)."""
    action_tools: dict[str, tuple[str, ...]] = field(init=False)
    payment_methods: Phrases = field(init=False)
    """Words naming where money goes or comes from (card, store credit, 支付宝)."""
    payment_method_of: dict[str, str] = field(init=False)
    """Payment-method word key -> its category (`credit card` -> card)."""
    payment_method_cues: Phrases = field(init=False)
    payment_method_cues_after: Phrases = field(init=False)
    payment_method_fields: Phrases = field(init=False)
    approximators: Phrases = field(init=False)
    """Words right before a round number that make it approximate (about 1,860, 约 1860)."""
    all_words: Phrases = field(init=False)
    """Words that make a status speak of everything the run did (all done, 全部完成)."""
    advice_markers: Phrases = field(init=False)
    """Words that open a clause of advice ("please arrive about 10 minutes early", 请提前): its counts are not facts."""
    status_fields: Phrases = field(init=False)
    """Field names whose values are a record's status (status, state, 状态)."""
    generic_concepts: frozenset[str] = field(init=False)
    """Concepts that stand for whatever the run's records are (order, ticket): with no status of their
    own in the outputs, they are compared with the statuses of the outputs' status fields."""
    status_implies: dict[tuple[str, ...], list[tuple[str, ...]]] = field(init=False)
    """(concept, polarity) of a tool's status -> the (concept, polarity) it also states (out for delivery: shipped)."""
    suffix_cues: Phrases = field(init=False)
    """Words that make the number after them the end of an identifier (ending in 4471, 尾号 4471)."""
    other_record_words: Phrases = field(init=False)
    """Words that make a clause speak of other records than the one its claim names (其余, the rest)."""
    status_words: frozenset[str] = field(init=False)
    """Every word of a status term, lower case ("progress" of "in progress"): such a word names no record."""
    category_values: Phrases = field(init=False)
    """The words of every category value (gold, 黄金, premium)."""
    category_of_value: dict[str, tuple[str, str]] = field(init=False)
    """Value word key -> (category, value): `黄金` -> (`tier`, `gold`)."""
    category_fields: dict[str, Phrases] = field(init=False)
    """Category -> the field words that name it (tier, level, 等级)."""
    category_links: Phrases = field(init=False)
    """Words that may join a field word to its value (is, 是, 为)."""
    category_owners: Phrases = field(init=False)
    """Words one of which stands just before a value said before its field word (you are a Gold member)."""
    generic_field_labels: frozenset[str] = field(init=False)
    """Field labels that name no particular thing (`amount`: cost, paid): a claim with only these is
    not contradicted by a field that names more (`refund_amount`)."""
    currency_codes: frozenset[str] = field(init=False)
    """The currency codes the lexicons' currency words stand for (`USD`, `CNY`, ...)."""
    duration_minutes: dict[str, Decimal] = field(init=False)
    """Unit word of a short duration (lower case) -> minutes in one unit (`hours` -> 60)."""
    duration_days: dict[str, Decimal] = field(init=False)
    """Unit word of a duration (lower case) -> days in one unit (`weeks` -> 7)."""
    read_only_tools: re.Pattern[str] = field(init=False)
    """Matches tool names that only read (`get_`, `query_`, `查询`): they never perform an action."""
    negation_window: dict[str, int] = field(init=False)
    """How far back a negator reaches: characters for `zh`, words for `en`."""
    path_cache: dict[str, tuple[frozenset[str], str | None, bool]] = field(init=False, default_factory=dict)
    """Labels and concept of each tool-output path shape seen so far (paths repeat across runs)."""
    tool_cache: dict[str, tuple[str, ...]] = field(init=False, default_factory=dict)
    """Concepts named by each tool name seen so far (the same tools run in every turn)."""
    shape_word_cache: dict[tuple[str, str, str], bool] = field(init=False, default_factory=dict)
    """Whether a tool-output path shape holds a word of a field label or a concept (shapes repeat across runs)."""
    field_status_cache: dict[tuple[str, str | None], Any] = field(init=False, default_factory=dict)
    """Statuses each field shape's name states, per default concept (shapes repeat across runs)."""
    record_key_cache: dict[str, bool] = field(init=False, default_factory=dict)
    """Whether each field name seen so far names its record's key (field names repeat across runs)."""
    status_cache: dict[tuple[str, str | None], Any] = field(init=False, default_factory=dict)
    """Statuses read from each tool-output value and default concept (values repeat across items)."""

    def __post_init__(self) -> None:
        terms: dict[str, Term] = {}
        for concept, words in self.data["concepts"].items():
            for word in words:
                terms[term_key(word)] = Term(term_key(word), concept, None)
        for word, spec in self.data["status_terms"].items():
            terms[term_key(word)] = Term(
                term_key(word),
                spec.get("concept"),
                spec.get("polarity"),
                bool(spec.get("action", False)),
                bool(spec.get("evidence_only", False)),
                spec.get("field_polarity"),
            )
        self.terms = terms
        self.term_phrases = Phrases(terms)
        self.status_words = frozenset(
            w for word, spec in self.data["status_terms"].items() if spec.get("polarity")
            for w in re.split(r"[\s_-]+", term_key(word)) if w
        )
        words: dict[str, set[str]] = {}
        for term in terms.values():
            if term.concept:
                words.setdefault(term.concept, set()).add(max(term.text.split(" "), key=len))
        self.concept_words = {c: _covering(ws) for c, ws in words.items()}
        self.negators = Phrases(self.data["negators"])
        self.hedges = Phrases(self.data["hedges"])
        self.hedge_exceptions = Phrases(self.data["hedge_exceptions"])
        self.hedges_after = Phrases(self.data["hedges_after"])
        self.completion = Phrases(self.data["completion_markers"])
        self.completion_far = Phrases(self.data["completion_markers_far"])
        self.minor_units = Phrases(self.data["minor_unit_fields"])
        self.field_of = {term_key(w): name for name, ws in self.data["fields"].items() for w in ws}
        self.field_phrases = Phrases(self.field_of)
        self.field_words = {
            name: _covering(max(term_key(w).split(" "), key=len) for w in ws if term_key(w))
            for name, ws in self.data["fields"].items()
        }
        self.action_tools = {k: tuple(v) for k, v in self.data["action_tools"].items()}
        self.payment_method_of = {
            term_key(w): category for category, ws in self.data["payment_methods"].items() for w in ws
        }
        self.payment_methods = Phrases(self.payment_method_of)
        self.payment_method_cues = Phrases(self.data["payment_method_cues"])
        self.payment_method_cues_after = Phrases(self.data["payment_method_cues_after"])
        self.payment_method_fields = Phrases(self.data["payment_method_fields"])
        categories = self.data.get("categories", {})
        self.category_of_value = {
            term_key(w): (name, value)
            for name, category in categories.items() for value, words in category["values"].items() for w in words
        }
        self.category_values = Phrases(self.category_of_value)
        self.category_fields = {name: Phrases(category["fields"]) for name, category in categories.items()}
        self.category_links = Phrases(self.data["categories_links"])
        self.category_owners = Phrases(self.data["categories_owners"])
        self.other_record_words = Phrases(self.data["other_record_words"])
        self.suffix_cues = Phrases(self.data["suffix_cues"])
        self.generic_concepts = frozenset(self.data["generic_concepts"])
        self.status_fields = Phrases(self.data["status_fields"])
        self.advice_markers = Phrases(self.data["advice_markers"])
        self.all_words = Phrases(self.data["all_words"])
        self.approximators = Phrases(self.data["approximators"])
        self.status_implies = {
            tuple(src.split(":", 1)): [tuple(dst.split(":", 1)) for dst in dsts]
            for src, dsts in self.data["status_implies"].items()
        }
        self.generic_field_labels = frozenset(self.data["generic_field_labels"])
        currencies = self.data["currencies"]
        self.currency_codes = frozenset(currencies.values()) | {
            code for codes in self.data["currency_symbols"].values() for code in codes
        }
        self.duration_days = {k.lower(): _days(k, v) for k, v in self.data["duration_days"].items()}
        self.duration_minutes = {
            k.lower(): _days(k, v, "duration_minutes") for k, v in self.data["duration_minutes"].items()
        }
        self.negation_window = {k: int(v) for k, v in self.data["negation_window"].items()}
        prefixes = "|".join(re.escape(p) for p in sorted(self.data["read_only_tool_prefixes"], key=len, reverse=True))
        self.read_only_tools = re.compile(rf"(?:{prefixes})(?:[_\-.\s]|(?=[A-Z])|$)", re.IGNORECASE)

    def term_hits(self, text: str, pos: int = 0, endpos: int | None = None) -> list[tuple[Hit, Term]]:
        """Status terms and concept words in `text[pos:endpos]`, in order."""
        return [(hit, self.terms[hit.key]) for hit in self.term_phrases.finditer(text, pos, endpos)]

    def concepts_in(self, text: str) -> list[str]:
        """Concepts named in `text` (a tool name or a field path), in order."""
        return [t.concept for _, t in self.term_hits(text) if t.concept]

    def fields_in(self, text: str, pos: int = 0, endpos: int | None = None) -> list[str]:
        """Field labels named in `text[pos:endpos]`, in order."""
        return [self.field_of[h.key] for h in self.field_phrases.finditer(text, pos, endpos)]

    def currency_of(self, text: str) -> str | None:
        """The currency code a word or code names (`usd`, `美元`, `CNY`); None for anything else."""
        text = text.strip()
        code = self.data["currencies"].get(text.lower())
        if code is None and text.upper() in self.currency_codes:
            code = text.upper()
        return code

    def hedged(self, text: str, start: int, end: int) -> bool:
        """Whether a hedge stands in `text[start:end]`, not inside a word that only holds one (申请)."""
        if not self.hedges.search(text, start, end):
            return False
        words = self.hedge_exceptions.finditer(text, max(0, start - 2), min(len(text), end + 2))
        if not words:
            return True
        hits = self.hedges.finditer(text, start, end)
        return any(not h.overlaps([(w.start, w.end) for w in words]) for h in hits)

    def is_record_key(self, field: str) -> bool:
        """Whether a field name (lexicon words) names its record's key: `order id`, `flight no`, `订单编号`."""
        words = field.split()
        return bool(words) and any(
            words[-1] == key or words[-1].endswith(key) and not key.isascii() for key in self.data["record_key_fields"]
        )

    def list(self, key: str) -> list[Any]:
        """A merged list entry (e.g. `count_nouns`)."""
        return self.data[key]

    def map(self, key: str) -> dict[str, Any]:
        """A merged mapping entry (e.g. `currencies`)."""
        return self.data[key]


CACHE_LIMIT = 50_000
"""Entries a per-lexicon cache (paths, tool names, statuses of values) holds before it is emptied."""


def remember(cache: dict[Any, T], key: Any, value: T) -> T:
    """Store a value in a per-lexicon cache, emptied when full (it lives as long as the checker)."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _days(unit: str, value: Any, key: str = "duration_days") -> Decimal:
    """A `duration_days` (or `duration_minutes`) entry as a positive number; a clear error for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        what = "days" if key == "duration_days" else "minutes"
        raise ValueError(f"lexicon {key}[{unit!r}] must be a positive number of {what}, not {value!r}")
    return Decimal(str(value))


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


def _covering(words: Iterable[str]) -> tuple[str, ...]:
    """The words not containing another of `words`: a text holding any word holds one of these."""
    unique = sorted(set(words), key=len)
    kept: list[str] = []
    for word in unique:
        if not any(k in word for k in kept):
            kept.append(word)
    return tuple(sorted(kept))


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key in _MERGED_DICTS:
        target = into.setdefault(key, {})
        for name, value in extra.get(key, {}).items():
            if isinstance(value, list) and isinstance(target.get(name), list):
                target[name] = target[name] + [v for v in value if v not in target[name]]
            else:
                target[name] = value
    for key in _MERGED_LISTS:
        if key in extra:
            seen = into.setdefault(key, [])
            seen.extend(w for w in extra[key] if w not in seen)
    for name, extra_category in extra.get("categories", {}).items():
        # a category's field words and each value's words are lists: they are merged word by word
        category = into.setdefault("categories", {}).setdefault(name, {"fields": [], "values": {}})
        category["fields"] += [w for w in extra_category.get("fields", []) if w not in category["fields"]]
        for value, words in extra_category.get("values", {}).items():
            known = category["values"].setdefault(value, [])
            known += [w for w in words if w not in known]


_WORD_LIST_MAPS = ("concepts", "action_tools", "fields", "payment_methods", "currency_symbols", "status_implies")
"""Keys whose entries are lists of words (`concepts`: concept -> words)."""
_NUMBER_MAPS = (
    "number_words", "numerals", "numeral_units", "months", "negation_window", "weekdays", "duration_days",
    "duration_minutes",
)
"""Keys whose entries are numbers (`months`: word -> month)."""
_POLARITIES = (None, "positive", "negative", "pending")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice (the later silently winning) is an error."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} is given twice in one object")
        seen[key] = value
    return seen


def _check_lexicon_file(data: Any, where: str) -> None:
    """Raise ValueError naming the first entry of a lexicon file that has the wrong shape."""
    if not isinstance(data, dict):
        raise ValueError(f"lexicon file {where} must hold a JSON object")
    known = {*_MERGED_DICTS, *_MERGED_LISTS, "categories"}
    for key, value in data.items():
        if key.startswith("_"):
            continue  # comments (`_doc`)
        problem = None
        if key not in known:
            problem = " is not a lexicon key"
        elif key in _MERGED_LISTS:
            problem = None if _words(value) else " must be a list of words"
        elif not isinstance(value, dict):
            problem = " must be an object"
        elif key in _WORD_LIST_MAPS:
            problem = _first_bad(value, _words, "must be a list of words")
        elif key in _NUMBER_MAPS:
            problem = _first_bad(value, _is_number, "must be a number")
        elif key == "currencies":
            problem = _first_bad(value, lambda v: isinstance(v, str), "must be a currency code")
        elif key == "status_terms":
            must = f"must be an object with a polarity of {_POLARITIES[1:]} or null"
            problem = _first_bad(value, _is_status_spec, must)
        elif key == "categories":
            must = "must be an object with a list `fields` and an object `values` of lists"
            problem = _first_bad(value, _is_category, must)
        if problem:
            raise ValueError(f"lexicon file {where}: {key}{problem}")


def _first_bad(entries: dict[str, Any], ok: Callable[[Any], bool], must: str) -> str | None:
    return next((f"[{name!r}] {must}" for name, value in entries.items() if not ok(value)), None)


def _words(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(w, str) for w in value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_status_spec(spec: Any) -> bool:
    return (
        isinstance(spec, dict)
        and spec.get("polarity") in _POLARITIES
        and spec.get("field_polarity") in _POLARITIES
        and isinstance(spec.get("concept"), (str, type(None)))
    )


def _is_category(category: Any) -> bool:
    return (
        isinstance(category, dict)
        and _words(category.get("fields", []))
        and isinstance(category.get("values", {}), dict)
        and all(_words(words) for words in category.get("values", {}).values())
    )


def load_lexicon(extra_paths: Iterable[Path | str] = ()) -> Lexicon:
    """Load the shipped zh and en lexicons and merge user files over them.

    Args:
        extra_paths: JSON files with any of the shipped keys; their entries are
            added to (and for mappings, override) the shipped ones.

    Returns:
        The merged, compiled lexicon.

    Raises:
        ValueError: when a user file is not valid JSON, not an object, gives a key twice
            in one object, or has an unknown key or an entry of the wrong shape (named in
            the message).
    """
    data: dict[str, Any] = {}
    for lang in SHIPPED:
        text = resources.files("factcheck.data").joinpath(f"{lang}.json").read_text("utf-8")
        shipped = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        _check_lexicon_file(shipped, f"{lang}.json")
        _merge(data, shipped)
    for path in extra_paths:
        try:
            extra = json.loads(Path(path).read_text("utf-8"), object_pairs_hook=_no_duplicate_keys)
        except (OSError, ValueError) as exc:  # JSONDecodeError is a ValueError, as is a key given twice
            raise ValueError(f"cannot read lexicon file {path}: {exc}") from exc
        _check_lexicon_file(extra, str(path))
        _merge(data, extra)
    return Lexicon(data)
