"""Lexicon phrase matching: whole Latin words, CJK anywhere, plurals, phrases at a place."""

import re

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


def test_a_user_file_extends_the_shipped_lexicons(tmp_path) -> None:
    from factcheck import CheckerConfig, FactChecker, Verdict

    extra = tmp_path / "extra.json"
    extra.write_text(
        '{"status_terms": {"voided": {"concept": "payment", "polarity": "negative"}}, "negators": ["nie"]}',
        encoding="utf-8",
    )
    checker = FactChecker(CheckerConfig(lexicon_paths=[extra]))
    tools = [{"name": "get_payment", "args": {}, "output": {"payment_status": "voided"}, "status": "ok"}]
    assert checker.check("Your payment went through.", tools).claims[0].verdict == Verdict.CONTRADICTED
    assert FactChecker().check("Your payment went through.", tools).claims[0].verdict != Verdict.CONTRADICTED
    assert "nie" in checker.lexicon.negators.keys and "not" in checker.lexicon.negators.keys


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read lexicon file"),
        ('["a list"]', "must hold a JSON object"),
        ('{"duration_days": {"fortnight": "14"}}', "duration_days['fortnight'] must be a number"),
        ('{"duration_days": {"fortnight": 0}}', "duration_days['fortnight'] must be a positive number"),
        ('{"categories": {"tier": ["gold"]}}', "categories['tier'] must be an object"),
        ('{"status_terms": {"voided": "negative"}}', "status_terms['voided'] must be an object with a polarity"),
        ('{"status_terms": {"voided": {"polarity": "bad"}}}', "status_terms['voided'] must be an object with"),
        ('{"negators": "not"}', "negators must be a list of words"),  # not three negators n, o, t
        ('{"fields": {"refund": "退款"}}', "fields['refund'] must be a list of words"),
        ('{"weekdays": {"lundi": "x"}}', "weekdays['lundi'] must be a number"),
        ('{"currencies": {"usd": 1}}', "currencies['usd'] must be a currency code"),
        ('{"negator": ["nie"]}', "negator is not a lexicon key"),  # a typo is not ignored
        ('{"categories": {"tier": {"values": {"gold": "gold"}}}}', "categories['tier'] must be an object"),
        # a key given twice: the later one would silently win
        ('{"status_terms": {"voided": {"polarity": "negative"}, "voided": {"polarity": "positive"}}}',
         "key 'voided' is given twice in one object"),
    ],
)
def test_a_bad_lexicon_file_is_a_clear_error(tmp_path, content: str, message: str) -> None:
    from factcheck.lexicon import load_lexicon

    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_lexicon([bad])


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


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("items[].price", "items[].price"),
        ("payment.amountCents", "payment.amount_Cents"),
        ("orderId", "order_Id"),
        ("refund2Status", "refund2_Status"),
        ("退款状态", "退款状态"),
        ("HTTPStatus", "HTTPStatus"),  # only a lower-case letter or digit before a capital breaks a word
        ("", ""),
    ],
)
def test_split_camel(name: str, expected: str) -> None:
    from factcheck.lexicon import split_camel

    assert split_camel(name) == expected


def test_a_user_file_adds_a_category_and_extends_one_word_by_word(tmp_path) -> None:
    from factcheck import CheckerConfig, FactChecker, Verdict

    extra = tmp_path / "categories.json"
    extra.write_text(
        '{"categories": {"tier": {"fields": ["club"], "values": {"gold": ["goldstar"]}},'
        ' "color": {"fields": ["color"], "values": {"red": ["red"], "blue": ["blue"]}}}}',
        encoding="utf-8",
    )
    checker = FactChecker(CheckerConfig(lexicon_paths=[extra]))
    tier = checker.lexicon.data["categories"]["tier"]
    assert {"tier", "club"} <= set(tier["fields"]) and {"gold", "goldstar"} <= set(tier["values"]["gold"])
    call = {"name": "get_item", "args": {}, "output": {"color": "blue"}, "status": "ok"}
    assert checker.check("Your color is red.", [call]).claims[0].verdict == Verdict.CONTRADICTED
    assert checker.check("Your color is blue.", [call]).claims[0].verdict == Verdict.SUPPORTED
