"""Audit JSON Lines records one line at a time: decode, read, check, fix; the unit both engines run."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from factcheck.audit.fix import fix_line
from factcheck.audit.messages import Format, RecordError, read_conversation
from factcheck.audit.turns import TurnResult, audit_conversation
from factcheck.bounds import LONE_SURROGATE
from factcheck.checker import FactChecker


@dataclass
class LineResult:
    """What auditing one line gave."""

    file: str
    """The input file as named on the command line."""
    line: int
    """1-based line number."""
    records: list[str] = field(default_factory=list)
    """One JSON Lines verdict per assistant text turn (see `turn_record`)."""
    notes: list[str] = field(default_factory=list)
    """What could not be read as it stands, each prefixed with `file:line:`."""
    skipped: bool = False
    """True when the line could not be audited at all (bad JSON, not a conversation)."""
    fixed: str | None = None
    """With `fix`, the cleaned line when it changed, else None."""
    changes: dict[str, int] = field(default_factory=dict)
    """With `fix`, what was replaced: `turns`, `links`, `identifiers`."""
    turns: list[TurnResult] = field(default_factory=list)
    """The turn results themselves (local engine only; not carried across processes)."""


def turn_record(result: TurnResult, file: str, line: int) -> dict[str, Any]:
    """The JSON Lines object of one turn (`--json`).

    Args:
        result: The turn's result.
        file: Input file.
        line: Line number of the conversation.

    Returns:
        `conversation`, `turn`, `ok`, `file`, `line`, `chained` (some tool result came before the turn),
        `report` (the report's JSON, without its wall time so that runs compare byte for byte) and, for a
        flagged turn, `before`: the user message and the turn's tool calls with their arguments and results
        (outputs cut to `BEFORE_CHARS`), so that a reader sees what the answer answered.
    """
    record = {
        "conversation": result.conversation,
        "turn": result.turn,
        "ok": result.ok,
        "file": file,
        "line": line,
        "chained": result.chained,
        "report": result.report.model_dump(mode="json", exclude={"elapsed_ms"}),
    }
    if not result.ok:
        record["before"] = {"user": result.user, "tool_results": [
            {"name": c["name"], "args": c["args"], "status": c["status"], "output": _shown(c["output"])}
            for c in result.calls]}
    return record


BEFORE_CHARS = 2000
"""Longest tool output a flagged turn's record repeats."""


def _shown(output: Any) -> str:
    """A tool output as text, cut to `BEFORE_CHARS`."""
    text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return text if len(text) <= BEFORE_CHARS else text[:BEFORE_CHARS] + f"… ({len(text):,} characters)"


def audit_line(text: str, file: str, line: int, checker: FactChecker, fmt: Format = "auto",
               fix: bool = False, notes: list[str] | None = None,
               progress: Callable[[int, int], None] | None = None) -> LineResult:
    """Audit one JSON Lines record.

    Args:
        text: The line, decoded.
        file: Input file name, for notes and records.
        line: 1-based line number.
        checker: The checker.
        fmt: `auto`, `openai` or `langchain`.
        fix: Also compute the cleaned line.
        notes: Notes already made about the line (e.g. its decoding).
        progress: Called with `(turns checked, turns)` inside the conversation.

    Returns:
        The line's result; a line that cannot be read is skipped with a note, never raised.
    """
    out = LineResult(file=file, line=line, notes=list(notes or []))
    where = f"{file}:{line}"
    long_numbers: list[str] = []
    try:
        record = _loads(text, long_numbers)
    except json.JSONDecodeError as err:
        out.notes.append(f"{where}: invalid JSON: {err.msg} (column {err.colno}); line skipped")
        out.skipped = True
        return out
    except RecursionError:
        out.notes.append(f"{where}: JSON nested too deeply to read; line skipped")
        out.skipped = True
        return out
    if long_numbers:
        out.notes.append(f"{where}: {len(long_numbers)} number(s) longer than {sys.get_int_max_str_digits():,} "
                         "digits read as text")
    try:
        conv = read_conversation(record, line, fmt)
    except RecordError as err:
        out.notes.append(f"{where}: not a conversation: {err}; line skipped")
        out.skipped = True
        return out
    out.notes.extend(f"{where}: {note}" for note in conv.notes)
    if not conv.messages:
        out.notes.append(f"{where}: not a conversation: no item of it is a message; line skipped")
        out.skipped = True
        return out
    try:
        out.turns = audit_conversation(conv, checker, progress)
    except Exception as err:  # noqa: BLE001 - a checker bug on one record must not stop the audit
        out.notes.append(f"{where}: the checker failed on this conversation ({type(err).__name__}: {err}); "
                         "line skipped")
        out.skipped = True
        return out
    for result in out.turns:
        out.notes.extend(f"{where}: message {result.turn}: {note}" for note in result.report.notes)
    out.notes = list(dict.fromkeys(out.notes))  # a truncated output is noted once, not on every later turn
    out.records = [json_safe(json.dumps(turn_record(r, file, line), ensure_ascii=False)) for r in out.turns]
    if fix:
        changes: Counter[str] = Counter()
        fixed = fix_line(text, out.turns, changes)
        out.fixed = json_safe(fixed) if fixed is not text else None
        out.changes = dict(changes)
    return out


def _loads(text: str, long_numbers: list[str]) -> Any:
    """`json.loads`; a line holding an int too long for Python is read again, that int as text."""
    try:
        return json.loads(text)
    except ValueError as err:
        if isinstance(err, json.JSONDecodeError) or "integer string conversion" not in str(err):
            raise
    return json.loads(text, parse_int=lambda digits: _int_or_text(digits, long_numbers))


def _int_or_text(digits: str, long_numbers: list[str]) -> int | str:
    """A JSON integer as an int, or as its digits when too long for Python to convert (noted)."""
    if len(digits.lstrip("-")) <= sys.get_int_max_str_digits():
        return int(digits)
    long_numbers.append(digits)
    return digits


def read_lines(path: str) -> Iterator[tuple[int, bytes, str, list[str]]]:
    """The lines of a JSON Lines file, streamed (memory stays flat in the file's size).

    UTF-8 (with or without a byte order mark) is read as `split_lines` says; a file starting
    with a UTF-16 byte order mark is read as UTF-16, noted once on its first line.

    Args:
        path: The file.

    Yields:
        `(line number, raw bytes, decoded text, notes)`, as `split_lines`.

    Raises:
        OSError: when the file cannot be read.
    """
    with open(path, "rb") as stream:
        codec = utf16_codec(stream.read(4))
        stream.seek(0)
        if codec is None:
            yield from _utf8_lines(stream, path)
            return
        yield from _utf16_lines(stream, path, codec)


def split_lines(data: bytes, path: str) -> Iterator[tuple[int, bytes, str, list[str]]]:
    """The lines of a JSON Lines file's bytes: number, raw bytes (end of line kept), text, decoding notes.

    A line that is not valid UTF-8 is read with U+FFFD in place of its undecodable bytes, and noted.

    Args:
        data: The file's content.
        path: Its name, for notes.

    Yields:
        `(line number, raw bytes, decoded text, notes)`; blank lines are yielded too (the caller
        skips them) so that `--fix` can copy them.
    """
    codec = utf16_codec(data[:4])
    stream = io.BytesIO(data)
    yield from _utf8_lines(stream, path) if codec is None else _utf16_lines(stream, path, codec)


def utf16_codec(head: bytes) -> str | None:
    """`utf-16-le` or `utf-16-be` for bytes starting with a UTF-16 byte order mark, else None."""
    if head.startswith(b"\xff\xfe") and not head.startswith(b"\xff\xfe\x00\x00"):
        return "utf-16-le"
    if head.startswith(b"\xfe\xff"):
        return "utf-16-be"
    return None


def json_safe(text: str) -> str:
    """JSON text with each lone surrogate (`"\\ud800"` read from a line) written as its escape,
    so that it encodes as UTF-8 and reads back the same."""
    try:
        text.encode("utf-8")  # at C speed: only a lone surrogate fails
        return text
    except UnicodeEncodeError:
        return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def shown(text: str) -> str:
    """Text for a terminal or an HTML page: each lone surrogate as U+FFFD."""
    return LONE_SURROGATE.sub("\ufffd", text)


def _utf8_lines(stream: BinaryIO, path: str) -> Iterator[tuple[int, bytes, str, list[str]]]:
    bom = b"\xef\xbb\xbf"
    for lineno, raw in enumerate(stream, start=1):
        notes = []
        body = raw[len(bom) :] if lineno == 1 and raw.startswith(bom) else raw
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as err:
            text = body.decode("utf-8", errors="replace")
            notes.append(f"{path}:{lineno}: not valid UTF-8 (byte {err.start} of the line); undecodable bytes "
                         "read as U+FFFD")
        yield lineno, raw, text.rstrip("\r\n"), notes


def _utf16_lines(stream: BinaryIO, path: str, codec: str) -> Iterator[tuple[int, bytes, str, list[str]]]:
    """Lines of a UTF-16 file; `raw` is each line's own bytes (the byte order mark on the first)."""
    bom = stream.read(2)
    text_stream = io.TextIOWrapper(stream, encoding=codec, errors="replace", newline="")
    for lineno, line in enumerate(text_stream, start=1):
        raw = (bom if lineno == 1 else b"") + line.encode(codec, errors="surrogatepass")
        notes = [f"{path}: a UTF-16 file ({codec}, byte order mark); read as UTF-16"] if lineno == 1 else []
        yield lineno, raw, line.rstrip("\r\n"), notes
