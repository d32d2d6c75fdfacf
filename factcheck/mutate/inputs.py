"""Read what `factcheck mutate` mutates: case-format suites and stored histories (the formats `audit` reads)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factcheck.audit.messages import Conversation, RecordError, read_conversation


class MutateInputError(ValueError):
    """An input of `factcheck mutate` cannot be read at all."""


def _is_case(record: Any) -> bool:
    return isinstance(record, dict) and "answer" in record and "tool_calls" in record


def history_cases(conv: Conversation, where: str) -> Iterator[dict[str, Any]]:
    """One case per assistant text turn of a conversation that some tool result came before.

    Like `factcheck audit`, the turn may rely on every tool result stored before it; the context is the
    system prompt and the earlier user messages, the question the last user message.

    Args:
        conv: The conversation, as `factcheck.audit.messages.read_conversation` reads it.
        where: `file:line`, kept in each case's `note`.

    Yields:
        Case-format mappings (`id` is `<conversation>-<message index>`).
    """
    calls: list[dict[str, Any]] = []
    args: dict[str, dict[str, Any]] = {}
    context: list[str] = []
    question = ""
    for msg in conv.messages:
        if msg.role == "system" and msg.text.strip():
            context.append(msg.text)
        elif msg.role == "user" and msg.text.strip():
            if question:
                context.append(question)
            question = msg.text
        elif msg.role == "assistant":
            for call in msg.tool_calls:
                args[call["id"]] = call.get("args") or {}
            if msg.text.strip() and calls:
                yield {
                    "id": f"{conv.id}-{msg.index}", "lang": _lang(msg.text), "domain": "history",
                    "question": question, "tool_calls": [dict(c) for c in calls], "context": list(context),
                    "answer": msg.text, "hallucinated_spans": [], "note": f"from {where}",
                }
        elif msg.role == "tool":
            output = msg.output
            if isinstance(output, list):
                output = "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in output)
            if isinstance(output, str) and output[:1] in "[{":
                try:
                    output = json.loads(output)
                except ValueError:
                    pass
            calls.append({"name": msg.name or "tool", "args": args.get(msg.tool_call_id or "", {}),
                          "output": output, "status": msg.status})


def _lang(text: str) -> str:
    han = sum("\u4e00" <= c <= "\u9fff" for c in text)
    latin = sum(c.isascii() and c.isalpha() for c in text)
    if han and latin > 3 * han:
        return "mixed"
    return "zh" if han else "en"


def read_inputs(paths: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Read every input file: each line a case (has `answer` and `tool_calls`) or a stored conversation.

    Args:
        paths: JSON Lines files.

    Returns:
        The cases in order, and notes on lines that could not be read (they are skipped).

    Raises:
        MutateInputError: for a file that cannot be read, or inputs that hold no case at all.
    """
    from factcheck.audit.lines import read_lines  # loads the checker: not for `factcheck --help`

    cases: list[dict[str, Any]] = []
    notes: list[str] = []
    for path in paths:
        try:
            lines = list(read_lines(path))
        except OSError as err:
            raise MutateInputError(f"{path}: cannot read: {err.strerror or err}") from None
        for lineno, _raw, text, line_notes in lines:
            if not text.strip():
                continue
            notes.extend(line_notes)
            where = f"{path}:{lineno}"
            try:
                record = json.loads(text)
            except json.JSONDecodeError as err:
                notes.append(f"{where}: invalid JSON: {err.msg} (column {err.colno}); line skipped")
                continue
            if _is_case(record):
                cases.append(record)
                continue
            try:
                conv = read_conversation(record, lineno)
            except RecordError as err:
                notes.append(f"{where}: neither a case nor a conversation: {err}; line skipped")
                continue
            cases.extend(history_cases(conv, where))
    if not cases:
        raise MutateInputError(f"no case or assistant turn after a tool result in {', '.join(paths)}")
    return cases, notes


def write_cases(cases: list[dict[str, Any]], out: str | Path) -> None:
    """Write cases as JSON Lines (UTF-8, one object per line; `.gz` compresses)."""
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    path = Path(out)
    if path.suffix == ".gz":
        import gzip

        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")
