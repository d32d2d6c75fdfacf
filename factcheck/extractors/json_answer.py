"""Answers written as JSON (`{"message": "…"}`, fields): prose and values inside, offsets back in the raw text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[{}\[\]]')
"""A JSON string token (quotes included), number or bracket, in document order (a number inside a string is the
string's)."""
_KEY_AFTER = re.compile(r"\s*:")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\", "/": "/"}
_STATE_CHARS = 40
"""Longest value read as a record's state ("delivered (item modified)")."""
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


def read_json_answer(answer: str, says_state: Callable[[str, str], bool] | None = None) -> JsonAnswer | None:
    """The prose view of an answer that is a JSON object or array, or None for any other answer.

    Keys are never prose. A string value with a space is a paragraph of its own; an id or a number (a value
    with a digit and no space) is a list line under its key ("- from item id: 4293355487", its container's key
    before a one-word key: "- refund amount: 54.04"), so its exact value is checked like any other; an enum
    (`"ok"`, `"success"`) is a field of the reply, not a sentence to the user, and is left out, unless it says
    a record's state under its status field (`"order_id": "#W1", "status": "delivered"` is the lines
    "- order id: #W1" and "- status: delivered", so the state is checked as that record's).

    Args:
        answer: The agent's answer, exactly as given.
        says_state: Whether a key and its enum value say a record's state (`Lexicon.says_record_state`);
            None keeps no enum.

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
    pending: list[tuple[str, int, int]] = []
    """The key just read: it labels the value or container after it."""
    within: list[tuple[list[tuple[str, int, int]], bool]] = []
    """Each open container: its key (an object in an array takes the array's) and whether it is an array."""
    fields = 0
    for m in _TOKEN.finditer(answer):
        if m[0] in "{[":
            within.append((pending or (within[-1][0] if within and within[-1][1] else []), m[0] == "["))
            pending = []
            continue
        if m[0] in "}]":
            if within:
                within.pop()
            pending = []
            continue
        if m[0].startswith('"'):
            chars = _decode(answer, m.start() + 1, m.end() - 1)
            if _KEY_AFTER.match(answer, m.end()):
                pending = chars  # a key: it labels the value after it
                continue
            prose = any(ch.isspace() for ch, _, _ in chars) and not _says_state(says_state, pending, chars)
        else:  # a number
            chars, prose = [(ch, m.start() + i, m.start() + i + 1) for i, ch in enumerate(m[0])], False
        key = pending or (within[-1][0] if within and within[-1][1] else [])  # an array's items: under its key
        pending = []
        if not prose:  # an id or a number: a "key: value" line of a list ("- product_id: 5923456873"); an enum
            # ("status": "success") is the reply's field, not a sentence to the user
            if not key or not (any(ch.isdigit() for ch, _, _ in chars) or _says_state(says_state, key, chars)):
                continue
            # a one-word key takes its container's: "refund": {"amount": 54.04} is "refund amount: 54.04"
            own = _words(key)
            one_word = sum(ch == " " for ch, _, _ in own) == 1
            parent = next((k for k, _ in reversed(within) if k and k != key), []) if one_word else []
            label = [*_words(parent), *own]
            if not label:
                continue
            chars = [("-", key[0][1], key[0][1]), *label, (":", key[-1][2], key[-1][2]),
                     (" ", key[-1][2], key[-1][2]), *chars]
        if text:
            gap = "\n" if not prose and fields else _SEPARATOR
            text.append(gap)
            starts += [m.start()] * len(gap)
            ends += [m.start()] * len(gap)
        fields = 0 if prose else fields + 1
        for ch, s, e in chars:
            text.append(ch)
            starts.append(s)
            ends.append(e)
    if not text:
        return None
    return JsonAnswer("".join(text), tuple(starts), tuple(ends))


def _says_state(says_state: Callable[[str, str], bool] | None, key: list[tuple[str, int, int]],
                value: list[tuple[str, int, int]]) -> bool:
    """Whether a key and its value say a record's state (`says_state` of their texts); a value longer than
    `_STATE_CHARS` is prose, no state."""
    return says_state is not None and bool(key) and len(value) <= _STATE_CHARS \
        and says_state("".join(c for c, _, _ in key), "".join(c for c, _, _ in value))


def _words(key: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The words of a key, each after a space, its parts holding a digit or a sign left out: a label names a
    field, never a value ("#W8277957_address" is " address", "from_item_id" " from item id")."""
    parts: list[list[tuple[str, int, int]]] = [[]]
    for ch in key:
        if ch[0] in "_ -":
            parts.append([])
        else:
            parts[-1].append(ch)
    return [c for part in parts if part and all(ch.isalpha() for ch, _, _ in part)
            for c in [(" ", part[0][1], part[0][1]), *part]]


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
