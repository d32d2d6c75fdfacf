"""Bounded reading of the checker's inputs: long answers, huge numbers, deep structures."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from typing import Any

MAX_NUMBER_DIGITS = 1000
"""Longest digit run read as a number: longer ones (Python refuses to convert past 4,300
digits, and converting grows quadratically) are not read, and noted."""
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""In a Python str every surrogate is lone (a pair read from JSON is one character)."""
_NUMBER = re.compile(r"\d(?:[,.'_ \u00a0\u2009\u202f]?\d)*")
"""A digit run, thousands separators and spaces between digits included ("999,999,…")."""


def bounded_answer(answer: str, max_chars: int) -> tuple[str, list[str]]:
    """The part of an answer the checker reads, the same length as what it covers.

    The answer is cut at `max_chars` (at the last whitespace before it, when there is
    one in the last 200 characters), every lone surrogate read as U+FFFD, and every digit
    run longer than `MAX_NUMBER_DIGITS` blanked (same length, so claim offsets still point
    into the answer).

    Args:
        answer: The answer as given.
        max_chars: Most characters checked.

    Returns:
        The text to check (a prefix of the answer's length or shorter) and notes.
    """
    notes: list[str] = []
    scanned = answer
    if len(answer) > max_chars:
        cut = answer.rfind(" ", max(max_chars - 200, 0), max_chars)
        end = cut if cut > 0 else max_chars
        scanned = answer[:end]
        notes.append(
            f"answer: only the first {end:,} of {len(answer):,} characters were checked "
            f"(max_answer_chars={max_chars:,}); the rest is unchecked"
        )
    if LONE_SURROGATE.search(scanned):  # spaCy cannot hash one; U+FFFD keeps every offset
        scanned = LONE_SURROGATE.sub("\ufffd", scanned)
    if len(scanned) <= MAX_NUMBER_DIGITS:  # no number in it can be too long
        return scanned, notes
    runs = [(m.span(), digits) for m in _NUMBER.finditer(scanned) if (digits := _digits(m.group())) > MAX_NUMBER_DIGITS]
    if runs:
        parts, cursor = [], 0
        for (start, end), _ in runs:
            parts += [scanned[cursor:start], " " * (end - start)]
            cursor = end
        scanned = "".join([*parts, scanned[cursor:]])
        notes.append(
            f"answer: {len(runs)} number(s) longer than {MAX_NUMBER_DIGITS:,} digits (up to "
            f"{max(d for _, d in runs):,}) not read"
        )
    return scanned, notes


def _digits(text: str) -> int:
    return len(text) if text.isdigit() else sum(c.isdigit() for c in text)


def bounded_value(value: Any, max_depth: int) -> tuple[Any, list[str]]:
    """A tool call or context item with every int too long for Python to write (over
    `sys.get_int_max_str_digits()`, 4,300 by default) replaced by a note-like string.

    Looked for at C speed (`json.dumps` refuses such an int), then walked to `max_depth`
    (the index notes deeper values itself); containers are copied only when something
    inside them was replaced.

    Args:
        value: A tool call (mapping, list, object) or a context item.
        max_depth: Deepest level looked at.

    Returns:
        The value (the same object when nothing was replaced) and notes.
    """
    if not _has_huge_int(value, max_depth):
        return value, []
    return _replaced(value, max_depth), [
        f"a number longer than {sys.get_int_max_str_digits():,} digits was not read"
    ]


def bounded_text(value: Any, max_depth: int, max_chars: int) -> tuple[str, list[str]]:
    """A non-str context item as text, read to `max_depth` levels and `max_chars` characters.

    Args:
        value: A list, dict or other object given as context.
        max_depth: Deepest level read; deeper parts are left out, with a note.
        max_chars: Most characters of text produced.

    Returns:
        The text and notes.
    """
    parts: list[str] = []
    size = 0
    deep = False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and size < max_chars:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, Mapping)):
            if depth >= max_depth:
                deep = True
                continue
            if isinstance(item, Mapping):
                for key, child in reversed(list(item.items())):
                    stack += [(child, depth + 1), (_Label(f"{key}:"), depth)]
            else:
                stack.extend((x, depth + 1) for x in reversed(item))
            continue
        text = _scalar_text(item)
        parts.append(text)
        size += len(text) + 1
    notes = [f"context deeper than {max_depth} levels not read below that depth"] if deep else []
    return " ".join(p for p in parts if p)[:max_chars], notes


class _Label(str):
    """A mapping key, written before its value."""


def _scalar_text(item: Any) -> str:
    if item is None:
        return ""
    if _huge(item):
        return ""
    if isinstance(item, (bytes, bytearray)):
        return bytes(item).decode("utf-8", errors="replace")
    try:
        return item if isinstance(item, str) else str(item)
    except (ValueError, RecursionError):
        return ""


def _huge(item: Any) -> bool:
    """An int Python refuses to write as text (its int-string limit)."""
    if not isinstance(item, int) or isinstance(item, bool):
        return False
    limit = sys.get_int_max_str_digits()
    return bool(limit) and item.bit_length() > limit * 3.32  # 3.32 bits per digit: a lower bound on its digits


_FLAT = (str, bytes, bytearray, float, bool, type(None))
"""Values that hold no int."""


def _opaque(item: Any) -> None:
    """What `json.dumps` writes for an object it cannot: nothing (only ints are looked for)."""
    return None


def _children(item: Any) -> list[Any]:
    if isinstance(item, Mapping):
        return list(item.values())
    if isinstance(item, (list, tuple)):
        return list(item)
    return []


def _has_huge_int(value: Any, max_depth: int) -> bool:
    if isinstance(value, Mapping):  # a tool call: its text output needs no look
        value = [v for v in value.values() if not isinstance(v, _FLAT)]
        if not value:
            return False
    elif isinstance(value, _FLAT):
        return False
    try:  # at C speed: writing a huge int raises ValueError; anything else odd is walked below
        json.dumps(value, default=_opaque, check_circular=False)
        return False
    except (ValueError, TypeError, RecursionError):
        pass
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if _huge(item):
            return True
        if depth < max_depth:
            stack.extend((x, depth + 1) for x in _children(item))
    return False


def _replaced(value: Any, max_depth: int, depth: int = 0) -> Any:
    if _huge(value):
        return "[a number too long to read]"
    if depth >= max_depth or not _has_huge_int(value, max_depth - depth):
        return value
    if isinstance(value, Mapping):
        return {k: _replaced(v, max_depth, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replaced(v, max_depth, depth + 1) for v in value]
    return value
