"""Lexicon phrase matching: whole Latin words, CJK anywhere, plurals, phrases at a place."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factcheck import phrases
from factcheck.phrases import Phrases, forget_words

PHRASES = Phrases(["if", "in transit", "order", "后", "之后", "let me"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if it ships", ["if"]),
        ("a gift card", []),  # never inside a word
        ("IF so", ["if"]),
        ("it is in transit now", ["in transit"]),
        ("in_transit", ["in transit"]),
        ("two orders", ["order"]),
        ("the order s", ["order"]),
        ("审核通过后退款", ["后"]),
        ("审核通过之后退款", ["之后"]),
        ("let me check", ["let me"]),
        ("let it be", []),
    ],
)
def test_finditer(text: str, expected: list[str]) -> None:
    assert [h.key for h in PHRASES.finditer(text)] == expected


@pytest.mark.parametrize(
    ("text", "pos", "expected"),
    [
        ("通过后退款", 2, True),
        ("通过之后退款", 2, True),
        ("通过后退款", 1, False),
        ("shipped if approved", 8, True),
        ("shipped if approved", 7, False),  # a space, not a phrase
        ("a gift card", 3, False),  # "if" inside "gift" is not a word
        ("shipped iffy", 8, False),  # nor is the start of "iffy"
        ("退款if approved", 2, True),  # a Latin word may follow CJK text directly
        ("now in transit", 4, True),
        ("now in stock", 4, False),  # "in" starts a phrase that does not follow
        ("two orders", 4, True),
        ("", 0, False),
    ],
)
def test_match_at(text: str, pos: int, expected: bool) -> None:
    assert PHRASES.match_at(text, pos) is expected


@given(st.text(alphabet="ifgtn后之 _-s", max_size=30), st.integers(min_value=0, max_value=30))
def test_match_at_agrees_with_finditer(text: str, pos: int) -> None:
    """A phrase starts at `pos` exactly when scanning from `pos` finds one starting there, at a word start."""
    pos = min(pos, len(text))
    hits = PHRASES.finditer(text, pos)
    starts_word = pos == 0 or not text[pos - 1].isascii() or not text[pos - 1].isalpha()
    cjk_here = any(text.startswith(k, pos) for k in ("后", "之后"))
    expected = cjk_here or starts_word and bool(hits) and hits[0].start == pos
    assert PHRASES.match_at(text, pos) is expected


LEXICON_PHRASES = Phrases([
    "in transit", "order", "order status", "is live", "not", "didn't", "did not", "could not find", "no results",
    "logged in the ledger", "ship", "shipped", "found", "let me", "status",
])
_WORDS = ["in", "transit", "transits", "order", "orders", "status", "is", "live", "not", "didn't", "didn’t", "did",
          "could", "find", "no", "results", "logged", "the", "ledger", "ship", "ships", "shipped", "shipping", "found",
          "let", "me", "s", "Order", "NOT", "Didn’T", "x"]
_SEPARATORS = [" ", "  ", "_", "-", " - ", ", ", ". ", "/", "\n", "’", "'"]


def _reference_hits(phrases: Phrases, text: str) -> list[tuple[int, int, str]]:
    """Leftmost-longest whole-word matching, spelled out: at each word, the longest run of words
    joined only by spaces, `_` or `-` whose lower-cased text is a phrase (its last word may add `s`/`es`)."""
    words = re.finditer(r"[A-Za-z]+(?:['’][A-Za-z]+)?", text)
    tokens = [(m.start(), m.end(), m.group().lower().replace("’", "'")) for m in words]
    longest = max((k.count(" ") + 1 for k in phrases.keys), default=0)
    hits, i = [], 0
    while i < len(tokens):
        for width in range(min(longest, len(tokens) - i), 0, -1):
            run = tokens[i : i + width]
            if all(re.fullmatch(r"[\s_\-]+", text[a[1] : b[0]]) for a, b in zip(run, run[1:], strict=False)):
                key = phrases.lookup(" ".join(t[2] for t in run))
                if key is not None:
                    hits.append((run[0][0], run[-1][1], key))
                    i += width
                    break
        else:
            i += 1
    return hits


@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPARATORS)), max_size=12))
def test_latin_phrases_are_leftmost_longest_whole_words(parts: list[tuple[str, str]]) -> None:
    text = "".join(word + sep for word, sep in parts)
    assert [(h.start, h.end, h.key) for h in LEXICON_PHRASES.finditer(text)] == _reference_hits(LEXICON_PHRASES, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("it didn’t ship", ["didn't", "ship"]),  # a curly apostrophe is an apostrophe
        ("it Didn’T ship", ["didn't", "ship"]),
        ("order  status", ["order status"]),
        ("order - status", ["order status"]),
        ("order, status", ["order", "status"]),
        ("orders status", ["order", "status"]),  # only the last word of a phrase may be plural
        ("in transits", ["in transit"]),
        ("logged in the ledger", ["logged in the ledger"]),
        ("logged in the x", []),
        ("is it live", []),
    ],
)
def test_latin_phrases(text: str, expected: list[str]) -> None:
    assert [h.key for h in LEXICON_PHRASES.finditer(text)] == expected


@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPARATORS)), max_size=12),
       st.integers(min_value=0, max_value=90), st.integers(min_value=0, max_value=90))
def test_a_window_reads_as_the_text_cut_to_it(parts: list[tuple[str, str]], pos: int, end: int) -> None:
    """`finditer` over `text[pos:end]` and `match_at(text, pos)` (which reads only the words a phrase at `pos` may
    span) give what the reference gives for the cut text."""
    text = "".join(word + sep for word, sep in parts)
    pos, end = min(pos, len(text)), min(max(pos, end), len(text))
    window = [(a + pos, b + pos, key) for a, b, key in _reference_hits(LEXICON_PHRASES, text[pos:end])]
    assert [(h.start, h.end, h.key) for h in LEXICON_PHRASES.finditer(text, pos, end)] == window
    from_pos = _reference_hits(LEXICON_PHRASES, text[pos:])
    starts_word = pos == 0 or not (text[pos - 1].isascii() and text[pos - 1].isalpha())
    assert LEXICON_PHRASES.match_at(text, pos) is (starts_word and bool(from_pos) and from_pos[0][0] == 0)


def test_a_check_remembers_only_its_own_windows() -> None:
    """`forget_words` (called at the start of each check) drops every window remembered: words and their places."""
    assert PHRASES.finditer("the order shipped, in transit") != []  # remembers the window's words and places
    assert phrases._remembered_latin_lows.cache_info().currsize
    assert phrases._remembered_latin_tokens.cache_info().currsize
    forget_words()
    assert phrases._remembered_latin_lows.cache_info().currsize == 0
    assert phrases._remembered_latin_tokens.cache_info().currsize == 0
