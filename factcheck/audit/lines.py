"""Audit JSON Lines records one line at a time: decode, read, check, fix; the unit both engines run."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factcheck.audit.fix import fix_line
from factcheck.audit.messages import Format, RecordError, read_conversation
from factcheck.audit.turns import TurnResult, audit_conversation
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
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        out.notes.append(f"{where}: invalid JSON: {err.msg} (column {err.colno}); line skipped")
        out.skipped = True
        return out
    except RecursionError:
        out.notes.append(f"{where}: JSON nested too deeply to read; line skipped")
        out.skipped = True
        return out
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
    out.records = [json.dumps(turn_record(r, file, line), ensure_ascii=False) for r in out.turns]
    if fix:
        changes: Counter[str] = Counter()
        fixed = fix_line(text, out.turns, changes)
        out.fixed = fixed if fixed is not text else None
        out.changes = dict(changes)
    return out


def read_lines(path: str) -> Iterator[tuple[int, bytes, str, list[str]]]:
    """The lines of a JSON Lines file (see `split_lines`).

    Args:
        path: The file.

    Returns:
        The file's lines.

    Raises:
        OSError: when the file cannot be read.
    """
    return split_lines(Path(path).read_bytes(), path)


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
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    start, lineno = 0, 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        raw = data[start:end]
        lineno += 1
        notes = []
        body = raw[bom if lineno == 1 else 0 :]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as err:
            text = body.decode("utf-8", errors="replace")
            notes.append(f"{path}:{lineno}: not valid UTF-8 (byte {err.start} of the line); undecodable bytes "
                         "read as U+FFFD")
        yield lineno, raw, text.rstrip("\r\n"), notes
        start = end
