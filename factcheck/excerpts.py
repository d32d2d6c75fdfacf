"""Evidence shown where it was found: an excerpt around the fact in the field it came from, cut between words."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # report.py imports `cut` from here
    from factcheck.report import Evidence, Report

WIDTH = 100
"""About how many characters of evidence an excerpt shows."""
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_WORD = re.compile(r"[A-Za-z0-9_]")
_REACH = 20
"""How far an excerpt's edge moves to reach a space rather than cut a word."""


def excerpt(text: str, start: int, end: int, width: int = WIDTH) -> str:
    """The text around `text[start:end]`, about `width` characters, cut between words, `…` where cut.

    Args:
        text: The whole field.
        start: Start of the located span.
        end: Its end.
        width: About how long the excerpt is.

    Returns:
        The excerpt (the whole text when it is short enough).
    """
    if len(text) <= width:
        return text
    room = max(0, width - (end - start))
    left = max(0, start - room // 2)
    right = min(len(text), end + room - (start - left))
    left = max(0, min(left, right - width))
    left, right = _word_edge(text, left, -1, start), _word_edge(text, right, 1, end)
    return ("…" if left > 0 else "") + text[left:right].strip() + ("…" if right < len(text) else "")


def cut(text: str, width: int = WIDTH) -> str:
    """`text` cut to about `width` characters between two words, with `…`.

    Args:
        text: Any text.
        width: About how long the result is.

    Returns:
        The text, or its start cut between words.
    """
    body = text[:-1] if text.endswith("…") else text
    if len(body) <= width and not text.endswith("…"):
        return text
    right = _word_edge(body, min(len(body), width), 1, 0, back=True)
    return body[:right].rstrip(" ,;:，、") + "…"


def _word_edge(text: str, at: int, side: int, keep: int, back: bool = False) -> int:
    """`at` moved to the nearest space (within `_REACH`) when it falls inside a word; never past `keep`."""
    if at <= 0 or at >= len(text) or not (_WORD.match(text[at - 1]) and _WORD.match(text[at])):
        return at
    if side < 0:
        space = text.find(" ", at, min(keep, at + _REACH))
        return space + 1 if space >= 0 else at
    space = text.rfind(" ", max(keep, at - _REACH), at) if back else text.find(" ", at, at + _REACH)
    if space < 0 and not back:
        space = text.rfind(" ", max(keep, at - _REACH), at)
    return space if space >= 0 else at


def place_excerpts(report: Report, tool_calls: Sequence[Any], context: Sequence[Any]) -> None:
    """Show each fact's evidence around the fact in the field it came from, where the report's text
    is a cut start of a longer field that holds the fact further on.

    Args:
        report: The report; its evidence texts are replaced in place.
        tool_calls: The tool calls the report was checked against.
        context: Its context strings.
    """
    for claim in report.claims:
        for fact in claim.facts:
            for ev in fact.evidence:
                if not ev.text.endswith("…") or fact.text in ev.text:  # only a cut field can hide the fact
                    continue
                full = _field(ev, tool_calls, context)
                if not isinstance(full, str) or len(full) <= len(ev.text):
                    continue
                at = full.find(fact.text)
                if at < 0 and fact.value:
                    at = full.lower().find(fact.value.lower())
                    span = len(fact.value)
                else:
                    span = len(fact.text)
                if at >= 0:
                    ev.text = excerpt(full, at, at + span)


def _field(ev: Evidence, tool_calls: Sequence[Any], context: Sequence[Any]) -> Any:
    """The whole value an evidence's path names, or None when it cannot be followed."""
    if ev.source == "context":
        return context[ev.index] if 0 <= ev.index < len(context) and not ev.path else None
    if not 0 <= ev.index < len(tool_calls):
        return None
    call = tool_calls[ev.index]
    if isinstance(call, Mapping) and ("output" in call or "name" in call):
        output, args = call.get("output"), call.get("args")
    else:
        output, args = getattr(call, "content", call), None
    if isinstance(output, (bytes, bytearray)):
        output = bytes(output).decode("utf-8", errors="replace")
    if not ev.path:
        return output
    if isinstance(output, str):
        try:
            output = json.loads(output)
        except ValueError:
            return None
    found = _follow(output, ev.path)
    if found is None and ev.path.startswith("args") and isinstance(args, Mapping):
        found = _follow(args, ev.path[len("args"):].lstrip("."))
    return found


def _follow(value: Any, path: str) -> Any:
    """The value at a `a.b[1].c` path, or None."""
    for key, index in _STEP.findall(path):
        if index:
            if not isinstance(value, list) or int(index) >= len(value):
                return None
            value = value[int(index)]
        elif isinstance(value, Mapping) and key in value:
            value = value[key]
        else:
            return None
    return value
