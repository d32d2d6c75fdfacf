"""JSON text read within the checker's bounds: cut at the size limit, or nested past the depth limit."""

from __future__ import annotations

import json
import re
from typing import Any

_BACKSLASH_ESCAPES = (b"\\\\", b"\\\"")
"""Escaped backslashes, then escaped quotes: dropped (in that order) before quotes are paired."""
_KEEP = b'"[]{}'
_DROP = bytes(b for b in range(256) if b not in _KEEP)
"""Every byte but quotes and brackets: deleted to leave a text's structure."""
_QUOTED = re.compile(rb'"[^"]*"')
_CLOSERS = {"{": "}", "[": "]"}
_PAIR_ROUNDS = 16
"""Rounds of removing `{}`/`[]` pairs (each peels one level) before the rest is paired one bracket at a time."""
_SPACE = " \t\r\n"
_SCALAR_TAIL = re.compile(r"[-+.\w]+\Z")
_RECORD_CHARS = 65_536
"""How far back the start of a record the cut runs through is looked for (a longer one is kept in part)."""
_SCALAR_CHARS = 64
"""How far back from the cut a number or literal is looked for at a time."""
_BRACKET = re.compile(r"[\[\]{}]")
LOOKS_JSON = re.compile(r"\s*[\[{]")
"""Text that may be a JSON object or array (checked before parsing)."""


def parse_json(text: str, max_depth: int | None = None) -> Any:
    """Parsed JSON, or None when `text` is not JSON.

    JSON nested too deep for `json.loads` (which recurses per container) is read without
    recursion to `max_depth`: every container at that depth is read as an empty object, so a
    walk limited to `max_depth` notes the skipped levels as it does for a nested dict.

    Args:
        text: The text.
        max_depth: Containers this deep (the outermost is at depth 0) are not read; None reads
            every level `json.loads` can.
    """
    try:
        return json.loads(text)
    except ValueError:
        return None
    except RecursionError:
        pass
    if max_depth is None:
        return None
    try:
        return json.loads(_cut_below(text, max_depth))
    except (ValueError, RecursionError):
        return None


def _cut_below(text: str, max_depth: int) -> str:
    """`text` with every container at depth `max_depth` (and what it holds) replaced by `{}`.

    One pass over the brackets outside strings: the quotes between two brackets say whether
    the second stands in a string.
    """
    plain = text.replace("\\\\", "\x00\x00").replace('\\"', "\x00\x00")  # same length: offsets stay valid
    pieces, depth, kept, cut_from, inside, last = [], 0, 0, -1, False, 0
    for m in _BRACKET.finditer(plain):
        pos = m.start()
        if plain.count('"', last, pos) & 1:
            inside = not inside
        last = pos
        if inside:
            continue
        if m.group() in "{[":
            if depth == max_depth:
                cut_from = pos
            depth += 1
        else:
            depth -= 1
            if depth == max_depth and cut_from >= 0:
                pieces += [text[kept:cut_from], "{}"]
                kept, cut_from = pos + 1, -1
    pieces.append(text[kept:])
    return "".join(pieces)


def read_cut_json(text: str, max_depth: int | None = None) -> tuple[Any, str] | None:
    """A JSON object or array cut short, read up to the cut: its complete values, its containers closed.

    A value the cut runs through is dropped with what follows it: a string or number at the cut,
    a key without its value, a container left with no complete value, and the innermost record
    (an object in a list) the cut runs through, whole, unless it starts more than `_RECORD_CHARS`
    before the cut: its first fields without the rest would read as the record. A complete
    container, or a complete string value, that the cut falls right after is kept.

    Args:
        text: The start of a JSON object or array (a tool output cut at the size limit).
        max_depth: As for `parse_json`.

    Returns:
        (the parsed prefix, the path of its last complete value: `items[41].sku`, or `$` when
        nothing in the outermost container was complete), or None when the text is not the
        start of a JSON object or array.
    """
    found = _open_containers(text)
    if found is None:
        return None
    stack, inside = found
    end = _trim(text, _string_start(text, len(text)) if inside else len(text), stack)
    record = next((k for k in range(len(stack) - 1, 0, -1) if stack[k - 1 : k + 1] == ["[", "{"]), 0)
    if record and end > 0:  # the innermost record (an object in a list) the cut runs through: dropped whole
        start = end
        for _ in range(len(stack) - record):
            start = _opener(text, start, end - _RECORD_CHARS)
            if start < 0:
                break
        if start >= 0:
            del stack[record:]
            end = _trim(text, start, stack)
    if not stack or end <= 0:
        return None
    value = parse_json(text[:end] + "".join(_CLOSERS[c] for c in reversed(stack)), max_depth)
    if not isinstance(value, (dict, list)):
        return None
    return value, _last_path(value, len(stack))


def _trim(text: str, end: int, stack: list[str]) -> int:
    """`end` moved back to the end of the last complete value of the innermost open container.

    Containers left with no complete value are popped off `stack`. Returns -1 when the text is no
    start of JSON (a character no value ends with).
    """
    while stack:
        end = _rstrip(text, end)
        if end == 0:
            return 0
        last = text[end - 1]
        if last in "}]":  # a container that closes before the cut: complete
            break
        if last == '"':
            start = _string_start(text, end - 1)
            before = _rstrip(text, start)
            if stack[-1] == "[" or before and text[before - 1] == ":":  # a string value: complete
                break
            end = start  # a key without its value
        elif last == ":":
            end -= 1
        elif last == ",":  # what stands before a comma is complete
            end -= 1
            break
        elif last in "{[":  # a container left with no complete value
            end -= 1
            stack.pop()
        else:
            scalar = _SCALAR_TAIL.search(text, max(0, end - _SCALAR_CHARS), end)  # a longer one: in steps
            if scalar is None:
                return -1
            end = scalar.start()  # a number or literal at the cut may be cut itself
    return end


def _opener(text: str, end: int, floor: int) -> int:
    """Offset of the opening bracket of the innermost container open at `end` (outside a string there).

    Read backwards over the complete values after it (a quote not escaped opens or closes a
    string), not before `floor`: -1 when the bracket is further back.
    """
    depth, pos, in_string = 0, end, False
    while pos > max(0, floor):
        pos -= 1
        c = text[pos]
        if c == '"' and _string_start(text, pos + 1) == pos:
            in_string = not in_string
        elif not in_string and c in "}]":
            depth += 1
        elif not in_string and c in "{[":
            if depth == 0:
                return pos
            depth -= 1
    return -1


def _last_path(value: Any, levels: int) -> str:
    """The path of the last value in `levels` nested last values (`items[41].sku`), `$` for none."""
    path, node = "", value
    for _ in range(levels):
        if not isinstance(node, (dict, list)) or not node:
            break
        key: Any = next(reversed(node)) if isinstance(node, dict) else len(node) - 1
        path += f"[{key}]" if isinstance(node, list) else (f".{key}" if path else str(key))
        node = node[key]
    return path or "$"


def _open_containers(text: str) -> tuple[list[str], bool] | None:
    """The containers (`{`, `[`) open at the end of `text`, outermost first, and whether it ends in a string.

    Only the text's quotes and brackets are looked at (the other bytes deleted at C speed);
    brackets in strings go with the strings. None when the text is no start of a JSON container.
    """
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        for escape in _BACKSLASH_ESCAPES:
            raw = raw.replace(escape, b"")
    marks = raw.translate(None, _DROP)
    inside = bool(marks.count(b'"') & 1)
    if inside:  # what follows the opening quote of the cut string is text
        marks = marks[: marks.rfind(b'"')]
    marks = _QUOTED.sub(b"", marks.replace(b'""', b"")).decode("ascii")
    for _ in range(_PAIR_ROUNDS):
        if "{}" not in marks and "[]" not in marks:
            break
        marks = marks.replace("{}", "").replace("[]", "")
    stack: list[str] = []
    for mark in marks:
        if mark in "{[":
            stack.append(mark)
        elif not stack or _CLOSERS[stack.pop()] != mark:
            return None
    return (stack, inside) if stack else None


def _string_start(text: str, end: int) -> int:
    """Offset of the last unescaped quote before `end`."""
    pos = text.rfind('"', 0, end)
    while pos > 0:
        slashes = 0
        while pos - slashes > 0 and text[pos - slashes - 1] == "\\":
            slashes += 1
        if not slashes & 1:
            break
        pos = text.rfind('"', 0, pos)
    return pos


def _rstrip(text: str, end: int) -> int:
    """`end` moved back over white space."""
    while end and text[end - 1] in _SPACE:
        end -= 1
    return end
