"""Typographic apostrophes and hyphens read as ASCII, and bold around a number as none: "I’ve sent" is "I've sent"."""

from __future__ import annotations

import re
from typing import Any

APOSTROPHES = "\u2019\u2018\u02bc"
"""The right and left single quotation marks and the modifier-letter apostrophe: what models and editors write
for `'` ("I’ve", "O’Connor", "don‘t")."""
HYPHENS = "\u2010\u2011"
"""The hyphen and the non-breaking hyphen: what models write for `-` inside words, ids and dates ("T‑Shirt",
"INV‑2207", "2025‑10‑19"). Dashes and the minus sign (– — −) say more than a hyphen and are left as they are."""
_MARKS = APOSTROPHES + HYPHENS
_TO_ASCII = str.maketrans({**dict.fromkeys(APOSTROPHES, "'"), **dict.fromkeys(HYPHENS, "-")})
_BOLD_NUMBER = re.compile(r"(?<![*\w])\*\*([-+\u2212]?[$¥€£]?\d[^*\n]{0,40}?)\*\*(?![*\w])")
"""Markdown bold around words that open with a number ("**$1,240**", "**3 nights**"): the same words without it."""


def plain_text(text: str) -> str:
    """An answer as the checker reads it: `plain_marks`, and the markers of bold around words that open with a number
    as spaces ("**$3,175.00**" reads "  $3,175.00  "). One character for one, so offsets hold.

    Args:
        text: An answer.

    Returns:
        The text read, or the text itself when nothing in it changes.
    """
    text = plain_marks(text)
    if "**" in text:
        text = _BOLD_NUMBER.sub(r"  \1  ", text)
    return text


def plain_marks(text: str) -> str:
    """`text` with every typographic apostrophe as `'` and hyphen as `-`, one character for one.

    Args:
        text: Any text.

    Returns:
        The text with them changed, or the text itself when it holds none.
    """
    if any(mark in text for mark in _MARKS):
        return text.translate(_TO_ASCII)
    return text


def plain_value(value: Any) -> Any:
    """A JSON-like value (a tool's output or arguments, a context item) with `plain_marks` applied to every string
    in it, keys included.

    Args:
        value: A str, or a dict, list or tuple of such values; anything else is returned as it is.

    Returns:
        The value itself when no string in it changes (or it is nested too deep to walk), else a copy with the
        strings changed.
    """
    if isinstance(value, str):
        return plain_marks(value)
    try:  # the written form holds every string of the value: most outputs hold no typographic mark
        written = repr(value)
        if not any(mark in written for mark in _MARKS):
            return value
        return _plain(value)
    except RecursionError:
        return value


def _plain(value: Any) -> Any:
    if isinstance(value, str):
        return plain_marks(value)
    if isinstance(value, dict):
        items = [(_plain(k), _plain(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list | tuple):
        values = [_plain(v) for v in value]
        if all(v is v0 for v, v0 in zip(values, value, strict=True)):
            return value
        return type(value)(values) if isinstance(value, list) else tuple(values)
    return value
