"""locate.normalise: the quick whole-string paths give what lower-casing letter by letter gives."""

import pytest

from factcheck.grounding.locate import normalise


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
