"""One change to a case: the new answer (and run), its exact wrong spans, and what was changed from what."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Edit:
    """What a mistake or rewrite class did to one case."""

    answer: str
    """The new answer."""
    spans: list[str]
    """Exact wrong substrings of `answer` (empty for a rewrite)."""
    kinds: list[str]
    """Case-format kinds of the mistake (empty for a rewrite)."""
    note: str
    """What was changed from what, for humans."""
    wrong: list[str] = field(default_factory=list)
    """The wrong values themselves, looked up in the outputs for `in_outputs`."""
    tool_calls: list[dict[str, Any]] | None = None
    """The run's tool calls when the class changed them (a call removed, reads dropped)."""
    question: str | None = None
    """The user's message when the class changed it (the user's claim added)."""


def splice(text: str, start: int, end: int, new: str) -> str:
    """`text` with `[start, end)` replaced by `new`."""
    return text[:start] + new + text[end:]


_WORD_RIGHT = re.compile(r"[ ]?(?:[A-Za-z]+|[\u4e00-\u9fff]{1,2})")
_WORD_LEFT = re.compile(r"(?:[A-Za-z]+|[\u4e00-\u9fff]{1,2})[ ]?$")


def unique_span(answer: str, start: int, end: int) -> str | None:
    """The shortest text around `[start, end)` that occurs once in `answer`, widened by up to two words.

    Every occurrence of a gold span counts, so "4" would also mark the 4 inside an id; "4 orders" does not.

    Args:
        answer: The new answer.
        start: Start of the wrong value in it.
        end: Its end.

    Returns:
        The span text, or None when no short span around the value is unique.
    """
    a, b = start, end
    for _ in range(3):
        span = answer[a:b]
        if answer.count(span) == 1:
            return span
        m = _WORD_RIGHT.match(answer, b)
        if m and m.end() > b:
            b = m.end()
            continue
        m = _WORD_LEFT.search(answer, 0, a)
        if m and m.start() < a:
            a = m.start()
            continue
        return None
    span = answer[a:b]
    return span if answer.count(span) == 1 else None


def format_note(cls: str, old: str, new: str, extra: str = "") -> str:
    """The `note` of a mutated case: `<class>: 'old' -> 'new'` and what else was done."""
    text = f"mutate {cls}: {old!r} -> {new!r}"
    return f"{text}; {extra}" if extra else text
