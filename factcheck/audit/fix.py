"""`--fix`: unbacked links and identifiers of flagged turns replaced by a visible placeholder, in place."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from factcheck.audit.messages import Path
from factcheck.audit.turns import TurnResult
from factcheck.placeholders import PLACEHOLDERS
from factcheck.report import FactKind

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WS = " \t\r\n"
_decoder = json.JSONDecoder(parse_int=str)  # steps over values: a 10,000-digit number is no int


def fix_line(line: str, turns: Sequence[TurnResult], changes: Counter[str]) -> str:
    """The record with the unbacked links and identifiers of its flagged turns replaced.

    Only the JSON strings that hold those turns' text are rewritten (in the escaping style they
    had); every other byte of the line stays as it was. No message and no tool call is added.

    Args:
        line: The record's JSON text, as read.
        turns: The record's turn results.
        changes: Counts of what was changed (`turns`, `links`, `identifiers`), updated in place.

    Returns:
        The new line text (the same object when nothing changed).
    """
    edits: dict[Path, str] = {}
    for result in turns:
        if result.ok:
            continue
        replaced = _replace_in_parts(result, changes)
        if replaced:
            edits.update(replaced)
            changes["turns"] += 1
    if not edits:
        return line
    spans = string_spans(line, set(edits))
    out, last = [], 0
    for path, (start, end) in sorted(spans.items(), key=lambda item: item[1]):
        literal = line[start:end]
        out.append(line[last:start])
        out.append(json.dumps(edits[path], ensure_ascii=literal.isascii()))  # \uXXXX stays \uXXXX
        last = end
    out.append(line[last:])
    return "".join(out)


def _replace_in_parts(result: TurnResult, changes: Counter[str]) -> dict[Path, str]:
    """New text of each stored piece of a flagged turn that holds an unbacked link or identifier."""
    lang = "zh" if _CJK.search(result.message.text) else "en"
    facts = [
        f for c in result.report.claims for f in c.facts
        if f.flagged and f.kind in (FactKind.URL, FactKind.IDENTIFIER)
    ]
    edits = {}
    for part in result.message.parts:
        inside = sorted(
            (f for f in facts if part.start <= f.start and f.end <= part.start + len(part.text)),
            key=lambda f: f.start, reverse=True,
        )
        if not inside:
            continue
        text = part.text
        for fact in inside:
            a, b = fact.start - part.start, fact.end - part.start
            text = text[:a] + PLACEHOLDERS[(fact.kind, lang)] + text[b:]
            changes["links" if fact.kind == FactKind.URL else "identifiers"] += 1
        edits[part.path] = text
    return edits


def string_spans(text: str, wanted: set[Path]) -> dict[Path, tuple[int, int]]:
    """Where the JSON string literals at the wanted paths sit in a JSON document.

    Args:
        text: One JSON value (a JSON Lines record).
        wanted: Paths of string values (keys and list indexes from the root).

    Returns:
        Each wanted path that holds a string -> its literal's (start, end) offsets, quotes included.
    """
    found: dict[Path, tuple[int, int]] = {}
    prefixes = {p[:k] for p in wanted for k in range(len(p) + 1)}
    _scan(text, _skip(text, 0), (), wanted, prefixes, found)
    return found


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _scan(text: str, i: int, path: Path, wanted: set[Path], prefixes: set[Path],
          found: dict[Path, tuple[int, int]]) -> int:
    """Scan the value at `i`; record wanted string spans; return the offset after the value."""
    if path not in prefixes:  # nothing wanted inside: let the C decoder step over it
        return _decoder.raw_decode(text, i)[1]
    ch = text[i]
    if ch == '"':
        end = json.decoder.scanstring(text, i + 1)[1]
        if path in wanted:
            found[path] = (i, end)
        return end
    if ch not in "{[":
        return _decoder.raw_decode(text, i)[1]
    closing, k = ("}" if ch == "{" else "]"), 0
    i = _skip(text, i + 1)
    while text[i] != closing:
        if ch == "{":
            key, i = json.decoder.scanstring(text, i + 1)
            i = _skip(text, _skip(text, i) + 1)  # past ':'
            i = _scan(text, i, path + (key,), wanted, prefixes, found)
        else:
            i = _scan(text, i, path + (k,), wanted, prefixes, found)
            k += 1
        i = _skip(text, i)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return i + 1
