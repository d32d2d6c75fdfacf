"""Phone and meter numbers written in groups of digits, in an answer and in tool outputs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from factcheck.extractors.taken import Taken

_GROUPED_DIGITS = re.compile(
    r"(?<![\w.,#$€£¥/+-])(?:\+\d{1,3}[ -]\d{1,4}[ .-]\d{2,8}"
    r"|(?:\+\d{1,3}[ -]?)?(?:\(\d{2,4}\)[ -]?|\d{2,5}[ .-])\d{2,6})(?:[ .-]\d{2,5}){0,2}"
    r"(?!\w|[.,/-]\d)")
"""A phone or meter number written in groups ("0421 338 910", "(415) 555-0143", "07700 900412", "555-0102",
"+31 6 12345601")."""
_SEPARATED = re.compile(r"\d[ .-]\d|\)\s?\d")
"""Digits a space, dash or dot parts, or a bracket before them: a text that may hold a number in groups."""
_PHONE_DIGITS = range(7, 16)
"""How many digits such a number has."""
_YEARS = re.compile(r"(?:19|20)\d\d\D+(?:19|20)\d\d")
"""Two years ("2025-2026"): no phone number."""
_IN_TOOLS = re.compile(r"\+?\d[\d ().-]{6,}\d")
"""Digits with spaces, dashes, dots or brackets between them, as a tool output writes a phone number."""


def grouped_numbers(text: str, taken: Taken) -> Iterator[tuple[int, int, str]]:
    """The phone or meter numbers an answer writes in groups, each one identifier of its digits: its last group of
    3 digits or more, 7 to 15 digits, dots only between three groups or more ("415.555.0143"; not "14250.00"),
    no two years ("2025-2026"). Each is taken from `taken`.

    Args:
        text: The answer's text.
        taken: The spans other mentions hold.

    Yields:
        (start, end, digits) of each.
    """
    if not _SEPARATED.search(text):
        return  # no digits with a space, dash, dot or bracket between them: nothing to read (most texts)
    for m in _GROUPED_DIGITS.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        groups = re.findall(r"\d+", m.group())
        if len(digits) in _PHONE_DIGITS and len(groups[-1]) >= 3 and ("." not in m.group() or len(groups) >= 3) \
                and not _YEARS.fullmatch(m.group()) and taken.free(m.start(), m.end()):
            taken.take(m.start(), m.end())
            yield m.start(), m.end(), digits


def digit_runs(text: str) -> list[tuple[str, int]]:
    """The digits of every number a tool output writes in groups ("+1 415-555-0143"), with where each starts.

    Args:
        text: The tool outputs' strings, lower case.

    Returns:
        (digits, start) of each.
    """
    return [(re.sub(r"\D", "", m.group()), m.start()) for m in _IN_TOOLS.finditer(text)]
