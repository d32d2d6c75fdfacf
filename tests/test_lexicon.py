"""Lexicon phrase matching: whole Latin words, CJK anywhere, plurals, phrases at a place."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factcheck.lexicon import Phrases

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
