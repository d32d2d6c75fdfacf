"""Read one stored conversation (OpenAI chat messages, LangChain message dicts, LangGraph state) into turns."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Format = Literal["auto", "openai", "langchain"]
Role = Literal["system", "user", "assistant", "tool"]
Path = tuple[str | int, ...]

FORMATS: tuple[str, ...] = ("auto", "openai", "langchain")
"""Values of `--format`: `langchain` covers `messages_to_dict`, `dumpd` and LangGraph state exports."""

_OPENAI_ROLES: dict[str, Role] = {
    "system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool",
}
_LANGCHAIN_TYPES: dict[str, Role] = {
    "system": "system", "human": "user", "ai": "assistant", "tool": "tool",
    "SystemMessage": "system", "HumanMessage": "user", "AIMessage": "assistant", "ToolMessage": "tool",
    "AIMessageChunk": "assistant", "HumanMessageChunk": "user", "ToolMessageChunk": "tool",
}
_ID_KEYS = ("id", "conversation_id", "thread_id", "session_id")
_TEXT_BLOCKS = ("text", "output_text")
_LARGE_CHARS = 1_000_000
"""A tool result at least this long is noted (the checker cuts it at `CheckerConfig.max_output_chars`)."""


@dataclass
class TextPart:
    """A piece of a message's text and where its JSON string sits in the record."""

    path: Path
    """Keys from the record's root to the JSON string that holds this text."""
    start: int
    """Offset of this piece in the message's joined text."""
    text: str
    """The piece itself."""


@dataclass
class Message:
    """One message of a conversation, in a shape common to every format."""

    index: int
    """Position in the conversation's message list (the `turn` of its verdict)."""
    role: Role
    """`system`, `user`, `assistant` or `tool`."""
    text: str = ""
    """The message's text (text content blocks joined; images and other blocks skipped)."""
    parts: list[TextPart] = field(default_factory=list)
    """Where each piece of `text` is stored, for `--fix`."""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """For an assistant message: the calls it made, as `{"id", "name", "args"}`."""
    tool_call_id: str | None = None
    """For a tool message: the id of the call it answers."""
    name: str | None = None
    """For a tool message: the tool's name when the record gives it."""
    status: Literal["ok", "error"] = "ok"
    """For a tool message: `error` when the record marks the call as failed."""
    output: Any = None
    """For a tool message: its content as stored (str, list of blocks or a JSON value)."""


@dataclass
class Conversation:
    """A conversation read from one JSON Lines record."""

    id: str | int
    """The record's `id` (or `conversation_id`, `thread_id`, `session_id`), else its line number."""
    messages: list[Message] = field(default_factory=list)
    """The messages that could be read, in order."""
    notes: list[str] = field(default_factory=list)
    """What could not be read as it stands (unknown roles, missing call ids, orphans)."""


class RecordError(ValueError):
    """A record is not a conversation in any supported format."""


def read_conversation(record: Any, line: int, fmt: Format = "auto") -> Conversation:
    """Read one decoded JSON Lines record.

    A record is a list of messages, an object with `messages`, or a LangGraph state export
    (`{"values": {"messages": [...]}}`). Each message may be an OpenAI chat message
    (`role`, `content`, `tool_calls`, `tool_call_id`), a LangChain `messages_to_dict` record
    (`{"type": "ai", "data": {...}}`), a `dumpd` constructor (`{"lc": 1, "kwargs": {...}}`) or a
    LangChain message dumped flat (`{"type": "ai", "content": ...}`).

    Args:
        record: The decoded JSON value of the line.
        line: The line number, used as the id when the record has none.
        fmt: `auto`, or `openai` / `langchain` to accept only that format's messages.

    Returns:
        The conversation; messages that cannot be read are left out with a note.

    Raises:
        RecordError: when the record holds no message list.
    """
    messages, prefix, conv_id = _message_list(record)
    conv = Conversation(id=conv_id if conv_id is not None else line)
    calls: dict[str, dict[str, Any]] = {}
    answered: set[str] = set()
    for i, raw in enumerate(messages):
        msg = _read_message(raw, i, prefix + (i,), fmt, conv.notes)
        if msg is None:
            continue
        if msg.role == "assistant":
            for call in msg.tool_calls:
                calls[call["id"]] = call
        elif msg.role == "tool":
            if msg.tool_call_id is None:
                conv.notes.append(f"message {i}: tool result without tool_call_id; kept as the output of an "
                                  "unnamed tool")
            elif msg.tool_call_id not in calls:
                conv.notes.append(f"message {i}: tool result for call {msg.tool_call_id!r}, which no earlier "
                                  "assistant message made; kept as the output of an unnamed tool")
            else:
                answered.add(msg.tool_call_id)
                msg.name = msg.name or calls[msg.tool_call_id]["name"]
        conv.messages.append(msg)
    for call_id, call in calls.items():
        if call_id not in answered:
            conv.notes.append(f"call {call_id!r} ({call['name']}) has no tool result; it backs nothing")
    return conv


def _message_list(record: Any) -> tuple[Sequence[Any], Path, str | int | None]:
    """The record's messages, the path to them, and its id."""
    if isinstance(record, list):
        return record, (), None
    if not isinstance(record, Mapping):
        raise RecordError(f"a conversation is a list of messages or an object with 'messages', "
                          f"not {type(record).__name__}")
    conv_id = next((record[k] for k in _ID_KEYS if isinstance(record.get(k), (str, int))), None)
    if isinstance(record.get("messages"), list):
        return record["messages"], ("messages",), conv_id
    values = record.get("values")
    if isinstance(values, Mapping) and isinstance(values.get("messages"), list):
        meta = record.get("metadata") if isinstance(record.get("metadata"), Mapping) else {}
        if conv_id is None and isinstance(meta.get("thread_id"), (str, int)):
            conv_id = meta["thread_id"]
        return values["messages"], ("values", "messages"), conv_id
    raise RecordError("the object has no 'messages' list (nor 'values.messages')")


def _read_message(raw: Any, i: int, path: Path, fmt: Format, notes: list[str]) -> Message | None:
    """One message in the common shape, or None with a note."""
    if not isinstance(raw, Mapping):
        notes.append(f"message {i}: not an object ({type(raw).__name__}); skipped")
        return None
    fields, fpath, role = _fields_and_role(raw, fmt)
    if role is None:
        kind = raw.get("role") if raw.get("role") is not None else raw.get("type")
        if kind is None and raw.get("lc") == 1:
            kind = (raw.get("id") or ["?"])[-1]
        want = {"openai": "an OpenAI chat message", "langchain": "a LangChain message"}.get(fmt, "a message")
        notes.append(f"message {i}: unknown role {kind!r}; not {want}; skipped")
        return None
    msg = Message(index=i, role=role)
    content = fields.get("content")
    msg.text, msg.parts = _text_of(content, path + fpath + ("content",))
    if role == "assistant":
        msg.tool_calls = _tool_calls(fields, i, notes)
    elif role == "tool":
        call_id = fields.get("tool_call_id")
        msg.tool_call_id = str(call_id) if call_id not in (None, "") else None
        msg.name = fields.get("name") if isinstance(fields.get("name"), str) else None
        msg.status = "error" if fields.get("status") == "error" else "ok"
        msg.output = content
        size = len(content) if isinstance(content, str) else 0
        if size >= _LARGE_CHARS:
            notes.append(f"message {i}: tool result of {size / 1e6:.1f} million characters; checked up to the "
                         "checker's max_output_chars")
    return msg


def _fields_and_role(raw: Mapping[str, Any], fmt: Format) -> tuple[Mapping[str, Any], Path, Role | None]:
    """The mapping that holds the message's fields, its path inside the message, and its role."""
    if fmt != "langchain" and isinstance(raw.get("role"), str):
        return raw, (), _OPENAI_ROLES.get(raw["role"])
    if fmt == "openai":
        return raw, (), None
    if raw.get("lc") == 1 and isinstance(raw.get("kwargs"), Mapping) and isinstance(raw.get("id"), list):
        return raw["kwargs"], ("kwargs",), _LANGCHAIN_TYPES.get(str(raw["id"][-1]))
    kind = raw.get("type")
    if isinstance(kind, str) and isinstance(raw.get("data"), Mapping):
        return raw["data"], ("data",), _LANGCHAIN_TYPES.get(kind)
    if isinstance(kind, str) and "content" in raw:
        return raw, (), _LANGCHAIN_TYPES.get(kind)
    return raw, (), None


def _text_of(content: Any, path: Path) -> tuple[str, list[TextPart]]:
    """The text of a content value and where each piece is stored."""
    if isinstance(content, str):
        return content, [TextPart(path, 0, content)]
    if not isinstance(content, list):
        return "", []
    text, parts = "", []
    for j, block in enumerate(content):
        if isinstance(block, str):
            piece, where = block, path + (j,)
        elif isinstance(block, Mapping) and block.get("type") in _TEXT_BLOCKS and isinstance(block.get("text"), str):
            piece, where = block["text"], path + (j, "text")
        else:
            continue
        parts.append(TextPart(where, len(text), piece))
        text += piece
    return text, parts


def _tool_calls(fields: Mapping[str, Any], i: int, notes: list[str]) -> list[dict[str, Any]]:
    """An assistant message's calls as `{"id", "name", "args"}` (LangChain or OpenAI shape)."""
    raw_calls = fields.get("tool_calls")
    if not raw_calls:
        extra = fields.get("additional_kwargs")
        raw_calls = extra.get("tool_calls") if isinstance(extra, Mapping) else None
    calls = []
    for k, raw in enumerate(raw_calls or []):
        if not isinstance(raw, Mapping):
            notes.append(f"message {i}: tool call {k} is not an object; ignored")
            continue
        function = raw.get("function") if isinstance(raw.get("function"), Mapping) else None
        name = function.get("name") if function else raw.get("name")
        args: Any = raw.get("args")
        if function is not None:
            args = function.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args) if args.strip() else {}
                except ValueError:  # not JSON, or a number past Python's int-string limit
                    notes.append(f"message {i}: tool call {k} has arguments that are not JSON; kept as text")
        call_id = raw.get("id")
        if call_id in (None, ""):
            notes.append(f"message {i}: tool call {k} ({name}) has no id; no result can answer it")
            continue
        calls.append({"id": str(call_id), "name": str(name) if name is not None else None, "args": args or {}})
    return calls
