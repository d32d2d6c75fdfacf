"""Answers written as JSON (`{"message": "…"}`): the prose inside, with offsets back into the raw text."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
"""A JSON string token, quotes included."""
_KEY_AFTER = re.compile(r"\s*:")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\", "/": "/"}
_SEPARATOR = "\n\n"
"""What stands between two strings of the view: a paragraph break, so no sentence runs across them."""


@dataclass(frozen=True)
class JsonAnswer:
    """The prose of an answer written as a JSON value, and where each of its characters stands in the answer."""

    text: str
    """The string values that hold prose (a space or more), decoded, in document order, a blank line apart."""
    starts: tuple[int, ...]
    """For each character of `text`: its first character in the raw answer."""
    ends: tuple[int, ...]
    """For each character of `text`: the raw offset just after it (an escape `\\n` is two raw characters)."""

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """The raw answer's span of the view's `text[start:end]` (a non-empty span)."""
        end = max(end, start + 1)
        return self.starts[start], self.ends[min(end, len(self.ends)) - 1]


def read_json_answer(answer: str) -> JsonAnswer | None:
    """The prose view of an answer that is a JSON object or array, or None for any other answer.

    Keys are never prose; string values without a space (`"ok"`, an id, an enum) are left out: they
    are fields of the reply, not sentences to the user.

    Args:
        answer: The agent's answer, exactly as given.

    Returns:
        The view, or None when the answer is no JSON object or array or holds no prose.
    """
    head = answer.lstrip()[:1]
    if head not in ("{", "["):
        return None
    try:
        value = json.loads(answer)
    except ValueError:
        return None
    if not isinstance(value, dict | list):
        return None
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for m in _STRING.finditer(answer):
        if _KEY_AFTER.match(answer, m.end()):
            continue  # a key
        chars = _decode(answer, m.start() + 1, m.end() - 1)
        if not any(ch.isspace() for ch, _, _ in chars):
            continue
        if text:
            text.append(_SEPARATOR)
            starts += [m.start()] * len(_SEPARATOR)
            ends += [m.start()] * len(_SEPARATOR)
        for ch, s, e in chars:
            text.append(ch)
            starts.append(s)
            ends.append(e)
    if not text:
        return None
    return JsonAnswer("".join(text), tuple(starts), tuple(ends))


_LITERAL_BREAK = re.compile(r"\\n")


def read_escaped_answer(answer: str) -> JsonAnswer | None:
    """The text of an answer that holds JSON escapes as written characters (`Step one\\n2. Step two`, a reply
    escaped twice on its way), decoded with the raw place of each character; None when it holds no `\\n`.

    Args:
        answer: The agent's answer, exactly as given (no JSON object or array: see `read_json_answer`).

    Returns:
        The view, or None.
    """
    if not _LITERAL_BREAK.search(answer):
        return None
    chars = _decode(answer, 0, len(answer))
    return JsonAnswer("".join(c for c, _, _ in chars), tuple(s for _, s, _ in chars), tuple(e for _, _, e in chars))


def _decode(raw: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The characters of the JSON string body `raw[start:end]`, each with its raw span."""
    out: list[tuple[str, int, int]] = []
    i = start
    while i < end:
        ch = raw[i]
        if ch != "\\" or i + 1 >= end:
            out.append((ch, i, i + 1))
            i += 1
            continue
        code = raw[i + 1]
        if code != "u":
            out.append((_ESCAPES.get(code, code), i, i + 2))
            i += 2
            continue
        try:
            unit = int(raw[i + 2 : i + 6], 16)
        except ValueError:  # "\\user": no escape after all
            out.append((ch, i, i + 1))
            i += 1
            continue
        width = 6
        if 0xD800 <= unit < 0xDC00 and raw[i + 6 : i + 8] == "\\u":  # a surrogate pair: one character
            low = int(raw[i + 8 : i + 12], 16)
            if 0xDC00 <= low < 0xE000:
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                width = 12
        out.append((chr(unit), i, i + width))
        i += width
    return out
