"""locate: normalise as lower-casing letter by letter, and the best span as rapidfuzz finds it."""

import pytest
from rapidfuzz import fuzz

from factcheck.grounding.evidence import Leaf
from factcheck.grounding.locate import locate, normalise


def _letter_by_letter(text: str) -> str:
    """The reference: full-width ASCII to half-width, then each character lower-cased alone, kept when that grows it."""
    folded = text.translate({c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)})
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in folded)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Order #W1234 DELIVERED",
        "ＡＢＣ１２３！",  # full-width ASCII
        "订单 O-6603 已经发货了",
        "ΟΔΟΣ",  # a final capital sigma lower-cases by its neighbours as a whole string, not letter by letter
        "ΣΑΣ and σας",
        "İstanbul",  # İ grows to two characters lower-cased
        "Straße STRASSE ẞ",
        "\u212a Kelvin",
        "Café Crème ÉCLAIR",
    ],
)
def test_normalise_is_letter_by_letter(text: str) -> None:
    got = normalise(text)
    assert got == _letter_by_letter(text)
    assert len(got) == len(text)


def _located_by_processor(claim: str, texts: list[str], cutoff: float) -> tuple[int, int, int, float] | None:
    """The reference of `locate`: rapidfuzz normalising both sides itself at every leaf (`processor=normalise`)."""
    query, best = normalise(claim), None
    for i, text in enumerate(texts):
        found = fuzz.partial_ratio_alignment(query, text, processor=normalise,
                                             score_cutoff=best[3] if best else cutoff)
        if found is not None and (best is None or found.score > best[3]):
            best = (i, found.dest_start, found.dest_end, found.score)
    return best


@pytest.mark.parametrize(
    ("claim", "texts"),
    [
        ("Emily Carson", ["emily carter", "EMILY CARSON booked", "Carson"]),
        ("İstanbul Airport", ["ISTANBUL AIRPORT", "istanbul havalimanı"]),
        ("ΟΔΟΣ Athens", ["οδος athens", "ΟΔΟΣ ATHENS"]),
        ("ＡＢＣ１２３", ["abc123", "ABC-123"]),
        ("Lumière Café", ["LUMIERE CAFE", "Lumière café on 5th"]),
    ],
)
def test_locate_normalises_as_the_processor_would(claim: str, texts: list[str]) -> None:
    """`locate` normalises the query once and each leaf's text itself: the same span and score as rapidfuzz
    normalising both at every leaf."""
    leaves = [Leaf("tool", 0, f"[{i}]", text) for i, text in enumerate(texts)]
    found = locate(claim, leaves, 50.0)
    expected = _located_by_processor(claim, texts, 50.0)
    assert (None if found is None else (leaves.index(found[0]), *found[1:])) == expected
