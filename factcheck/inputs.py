"""Read and validate the command's input files and output paths before any work starts (stdlib only)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

TOOLS_SHAPES = ("a JSON list of tool-call objects {\"name\": str, \"output\": ..., \"args\": {...}, "
                "\"status\": \"ok\"|\"error\"}, JSON Lines of them, a case-format object with \"tool_calls\", "
                "or an OpenAI/LangChain message export (a list of messages or {\"messages\": [...]}); "
                "bare values only through the Python API")
"""The shapes `--tools` accepts, as named in its errors."""
CALIBRATION_SHAPE = ('a JSON object {"version": 1, "bias": number, "weights": {"feature": number, ...}} '
                     "as written by `factcheck calibrate`")
"""The shape `--calibration` accepts, as named in its errors."""
CONVERSATION_SHAPE = ("JSON Lines, one conversation per line: a list of OpenAI/LangChain messages, "
                      '{"messages": [...]}, or a LangGraph state export {"values": {"messages": [...]}}')
"""The shape `audit` accepts, as named in its errors."""


class InputError(ValueError):
    """An input of the command could not be used; the message is the one line the user sees."""


def read_text(path: str) -> str:
    """The text of a file, or of stdin for `-`.

    Args:
        path: The file.

    Returns:
        Its text (a UTF-8 byte order mark dropped).

    Raises:
        InputError: when it cannot be read or decoded.
    """
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: cannot read: {getattr(err, 'strerror', None) or err}") from None


def read_answer(path: str) -> str:
    """The answer text of `check`; an empty or blank answer is an input error.

    Args:
        path: The file, or `-` for stdin.

    Returns:
        The answer.

    Raises:
        InputError: when it cannot be read or holds no text.
    """
    answer = read_text(path)
    if not answer.strip():
        raise InputError(f"{'stdin' if path == '-' else path}: the answer is empty; give the agent's answer text")
    return answer


def load_tool_calls(path: str) -> list[dict[str, Any]]:
    """Read tool calls from a JSON or JSONL file (see `TOOLS_SHAPES`).

    Args:
        path: The file, or `-` for stdin.

    Returns:
        The tool calls in order, as mappings with `name`, `output` and optionally `args`, `status`.

    Raises:
        InputError: naming the file (and line or item) and the accepted shapes.
    """
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return [_tool_call(item, f"{path}:{lineno}") for lineno, item in _json_lines(text, path)]
    if isinstance(data, Mapping) and "tool_calls" in data and "messages" not in data:
        if not isinstance(data["tool_calls"], list):
            raise InputError(f"{path}: \"tool_calls\" is {_kind(data['tool_calls'])}, not a list; "
                             f"expected {TOOLS_SHAPES}")
        data = data["tool_calls"]
    if _is_message_export(data):
        return _calls_from_messages(data, path)
    if isinstance(data, list):
        return [_tool_call(item, f"{path}: item {i}") for i, item in enumerate(data)]
    return [_tool_call(data, path)]


def _json_lines(text: str, path: str) -> list[tuple[int, Any]]:
    """The values of a JSON Lines text with their line numbers."""
    items = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append((lineno, json.loads(line)))
        except json.JSONDecodeError as err:
            raise InputError(f"{path}:{lineno}: invalid JSON: {err.msg} (column {err.colno}); "
                             f"expected {TOOLS_SHAPES}") from None
    if not items:
        raise InputError(f"{path}: empty; expected {TOOLS_SHAPES}")
    return items


def _kind(value: Any) -> str:
    """A JSON value's kind, for messages: `a number`, `an object without "name"`..."""
    if isinstance(value, Mapping):
        return "an object"
    names = {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _tool_call(item: Any, where: str) -> dict[str, Any]:
    """One tool-call object, checked."""
    if not isinstance(item, Mapping):
        raise InputError(f"{where}: {_kind(item)} is not a tool call; expected {TOOLS_SHAPES}")
    missing = [key for key in ("name", "output") if key not in item]
    if missing:
        raise InputError(f"{where}: tool call without {' or '.join(repr(k) for k in missing)}; "
                         f"expected {TOOLS_SHAPES}")
    if not isinstance(item["name"], str):
        raise InputError(f"{where}: tool call \"name\" is {_kind(item['name'])}, not a string")
    if "args" in item and not isinstance(item["args"], (Mapping, type(None))):
        raise InputError(f"{where}: tool call \"args\" is {_kind(item['args'])}, not an object")
    if str(item.get("status", "ok")).lower() not in ("ok", "error", "success"):
        raise InputError(f"{where}: tool call \"status\" is {item['status']!r}; expected \"ok\" or \"error\"")
    return dict(item)


def _is_message_export(data: Any) -> bool:
    """Whether a JSON value reads as a message export (OpenAI or LangChain records)."""
    if isinstance(data, Mapping):
        return isinstance(data.get("messages"), list) or (
            isinstance(data.get("values"), Mapping) and isinstance(data["values"].get("messages"), list))
    return (isinstance(data, list) and bool(data) and all(isinstance(m, Mapping) for m in data)
            and any(("role" in m or "type" in m or "lc" in m) and "output" not in m for m in data))


def _calls_from_messages(data: Any, path: str) -> list[dict[str, Any]]:
    """The tool results of a message export, as tool-call objects."""
    from factcheck.audit.messages import RecordError, read_conversation

    try:
        conv = read_conversation(data, 0)
    except RecordError as err:
        raise InputError(f"{path}: {err}; expected {TOOLS_SHAPES}") from None
    calls = [{"name": m.name or "tool", "args": {}, "output": m.output, "status": m.status}
             for m in conv.messages if m.role == "tool"]
    if not calls and not conv.messages:
        raise InputError(f"{path}: no message could be read ({'; '.join(conv.notes[:1])}); expected {TOOLS_SHAPES}")
    return calls


def load_context(path: str) -> list[str]:
    """Read context: a JSON array of strings, or plain text taken as one context string.

    Args:
        path: The file, or `-` for stdin.

    Returns:
        The context strings.

    Raises:
        InputError: when the file cannot be read.
    """
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return [text]
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return data
    return [text]


def check_calibration(path: str) -> None:
    """Refuse a calibration file that is not a table `factcheck calibrate` writes.

    Args:
        path: The file.

    Raises:
        InputError: naming the problem and `CALIBRATION_SHAPE`.
    """
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{path}: not a calibration table: invalid JSON ({err.msg}, line {err.lineno}); "
                         f"expected {CALIBRATION_SHAPE}") from None
    if not isinstance(data, Mapping):
        raise InputError(f"{path}: not a calibration table: {_kind(data)}; expected {CALIBRATION_SHAPE}")
    if "version" in data and data["version"] != 1:
        raise InputError(f"{path}: calibration file has version {data['version']!r}, expected 1; refit it with "
                         "`factcheck calibrate`")
    missing = [key for key in ("version", "bias", "weights") if key not in data]
    if missing:
        raise InputError(f"{path}: not a calibration table: no {', '.join(repr(k) for k in missing)}; "
                         f"expected {CALIBRATION_SHAPE}")
    numbers = (int, float)
    weights = data["weights"]
    if (not isinstance(data["bias"], numbers) or isinstance(data["bias"], bool) or not isinstance(weights, Mapping)
            or not all(isinstance(w, numbers) and not isinstance(w, bool) for w in weights.values())):
        raise InputError(f"{path}: not a calibration table: \"bias\" must be a number and \"weights\" an object of "
                         f"numbers; expected {CALIBRATION_SHAPE}")
    if not weights:
        raise InputError(f"{path}: calibration table with no weights: every flag would get the same confidence; "
                         f"expected {CALIBRATION_SHAPE}")
    from factcheck.calibration import Calibration  # the version and the remaining fields

    try:
        Calibration.load(path)
    except ValueError as err:
        raise InputError(" ".join(str(err).split())) from None


def check_output_path(path: str, option: str) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    Args:
        path: Where the command will write.
        option: The option that named it (`--report`), for the message.

    Raises:
        InputError: when the path is a directory, its directory is missing, or it is not writable.
    """
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory; give a file path")
    if not parent.is_dir():
        raise InputError(f"{option} {path}: directory {parent} does not exist")
    try:  # open it for writing without changing it: permissions, read-only mounts, /proc, a full quota
        if target.exists():
            os.close(os.open(target, os.O_WRONLY))
        else:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            target.unlink()
    except OSError as err:
        raise InputError(f"{option} {path}: cannot be written: {err.strerror or err}") from None


def check_audit_inputs(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """The audit inputs worth reading, and a note on each that holds no line at all.

    Args:
        paths: The files named on the command line.

    Returns:
        The files that are not empty (missing and unreadable ones included: the reader notes why), and one
        note per empty file (it is skipped).

    Raises:
        InputError: when every file is missing, unreadable or empty.
    """
    keep, notes, usable = [], [], 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                empty = not any(chunk.strip() for chunk in iter(lambda h=handle: h.read(1 << 16), b""))
        except OSError:
            keep.append(path)  # noted by the reader, with the reason
            continue
        if empty:
            notes.append(f"{path}: empty file (no conversation); file skipped")
        else:
            keep.append(path)
            usable += 1
    if not usable:
        raise InputError(f"{', '.join(paths)}: no conversation to audit (missing, unreadable or empty); "
                         f"expected {CONVERSATION_SHAPE}")
    return keep, notes


def whole_number(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (`--workers 2`, `--per-answer 0`).

    Args:
        least: The smallest number allowed.

    Returns:
        The parser argparse calls with the option's text.
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse
