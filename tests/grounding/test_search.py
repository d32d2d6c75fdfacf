"""Literal searches: the word look-up that spares long joined strings a search."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck.grounding import search
from factcheck.grounding.search import Strings


def strings(texts: list[str]) -> Strings:
    lower = search.search_form("\n".join(texts))
    return Strings(texts, [], lower, [], [])


LONG = ["sku-12345 mug shipped", "processed by warehouse 3", "café refund_status=ok"] * 300


@pytest.mark.parametrize(
    ("literal", "held"),
    [
        ("shipped", True),
        ("ship", True),  # inside a word: a substring search, as before
        ("refund", True),  # between an underscore and a letter
        ("status", True),
        ("caf", True),
        ("refunded", False),
        ("delivered", False),
        ("sku-1", True),  # not a plain word: always searched
        ("已退款", True),
        ("could not", True),
    ],
)
def test_word_lookup_on_a_long_text(literal: str, held: bool) -> None:
    table = strings(LONG)
    assert len(table.lower) >= search._WORDS_FROM
    assert table.may_hold(literal) is held
    if not held:
        assert literal not in table.lower


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abcXYZ é_-1 \n.已", max_size=30), min_size=1, max_size=8),
    st.text(alphabet="abcxyzé", min_size=1, max_size=4),
    st.integers(0, 5000),
)
def test_a_held_literal_is_never_ruled_out(texts: list[str], literal: str, pad: int) -> None:
    table = strings([*texts, "z" * pad])
    if literal in table.lower:
        assert table.may_hold(literal)


@pytest.mark.parametrize(
    ("hay", "value", "segment", "found"),
    [
        ("order ct-20260922-001 done", "ct-20260922-001", False, True),
        ("order ct-20260922-0012 done", "ct-20260922-001", False, False),  # a token runs on over - and _
        ("search-indexer-5d8b7c9f4-9kx2p", "9kx2p", False, False),
        ("search-indexer-5d8b7c9f4-9kx2p", "9kx2p", True, True),  # one part of a longer name
        ("p99_latency > 800ms", "p99", True, True),
        ("search-indexer-5d8b7c9f4-9kx2pq", "9kx2p", True, False),  # still whole letters and digits
        ("a-x9kx2p", "9kx2p", True, False),
    ],
)
def test_find_token_whole_or_as_a_part(hay: str, value: str, segment: bool, found: bool) -> None:
    assert (search.find_token(hay, value, segment=segment) >= 0) is found


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab 1，\n。", max_size=600), st.lists(st.integers(0, 599), max_size=40))
def test_windows_hold_every_offset_and_start_and_end_at_boundaries(text: str, offsets: list[int]) -> None:
    offsets = sorted({o for o in offsets if o < len(text)})
    found = search.windows(text, offsets)
    assert [o for _, _, held in found for o in held] == offsets  # each offset in one window, in order
    for i, (start, end, held) in enumerate(found):
        assert all(start <= o <= end for o in held)
        assert start == 0 or text[start - 1] in " ，\n。"  # just after a boundary
        assert end == len(text) or text[end] in " ，\n。"  # at a boundary
        assert i + 1 == len(found) or end < found[i + 1][0]  # apart, in order


def _entries(texts: list[str]) -> Strings:
    """A table whose entries have their offsets (`strings` gives none)."""
    lower = search.search_form("\n".join(texts))
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    return Strings(texts, [], lower, starts, [])


def _exact_hits(table: Strings, literal: str, digits: bool) -> dict[int, list[int]]:
    """Every place of the literal, tested one by one (what `hits` gives, without its per-entry bound)."""
    out: dict[int, list[int]] = {}
    for entry, text in enumerate(table.texts):
        low = search.search_form(text)
        for pos in range(len(low) - len(literal) + 1):
            if not low.startswith(literal, pos):
                continue
            start, end = pos, pos + len(literal)
            while digits and start and low[start - 1] == "0":
                start -= 1
            if digits and (start and low[start - 1].isdigit() or end < len(low) and low[end].isdigit()):
                continue
            out.setdefault(entry, []).append(pos)
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="0123a ,.²٣", max_size=40), min_size=1, max_size=6),
    st.sampled_from(["3", "30", "0", "1,1", "11", "a3"]),
    st.booleans(),
)
def test_hits_are_the_places_an_exact_test_keeps(texts: list[str], literal: str, digits: bool) -> None:
    table = _entries(texts)
    assert table.hits([literal], digits) == _exact_hits(table, literal, digits)


def test_hits_read_the_first_places_of_each_string_and_go_on_to_the_next() -> None:
    log = "\n".join(f"line {i}: waiting=61 timeout_ms=3000" for i in range(1000))
    table = _entries([log, "short 3000", "x" * 10])
    found = table.hits(["3000"], digits=True)
    assert sorted(found) == [0, 1]
    assert found[0] == [m for m in range(len(log)) if log.startswith("3000", m)][: search.HITS_READ]
    assert found[1] == [6]


def test_magnitudes_are_the_first_places_of_each_string() -> None:
    log = "\n".join(f"line {i}: served 3k requests" for i in range(1000))
    table = _entries([log, "预计 1.2 万次", "no magnitude here, 3000 ms"])
    found = table.magnitudes()
    assert sorted(found) == [0, 1]
    assert found[0] == [m for m in range(len(log)) if log.startswith("3k", m)][: search.HITS_READ]
    assert found[1] == [5]  # the digit before the word


def test_a_number_of_a_thousand_or_more_reads_a_long_string_only_where_a_magnitude_stands() -> None:
    log = "\n".join(f"line {i}: served 3k requests, cache 2 万 entries" for i in range(1000))
    table = _entries([log])
    found = table.number_entries(Decimal(3000), 0)
    assert found[0] is not None and len(found[0]) <= 2 * search.HITS_READ  # places, not the whole string
