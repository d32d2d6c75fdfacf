"""Tool calls as evidence: their name, status, arguments and output, however they were given."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from factcheck.grounding.json_text import LOOKS_JSON, read_cut_json
from factcheck.lexicon import Lexicon, remember, split_camel
from factcheck.typography import plain_value

_BARE_OUTPUTS = (dict, Mapping, str, bytes, bytearray, list, int, float, type(None))
"""What a tool call may be given as besides a `ToolMessage`: a mapping, or the output itself (a JSON value
or bytes; None is a call that returned nothing, and is noted). A plain dict is tried first: no ABC check."""
_PLAIN = frozenset((dict, list, str, int, float, bool, type(None)))
"""Built-in types whose values hold no attribute of their own: never a `Document`."""


@dataclass
class ToolRecord:
    """One tool call as evidence: its name, status and output."""

    index: int
    name: str | None
    status: str
    output: Any
    args: Any = None
    """The arguments the tool ran with (evidence for what was asked, e.g. a quantity)."""
    concepts: frozenset[str] = frozenset()
    """Concepts named by the tool's name (`refund_order` -> refund, order)."""
    default_concept: str | None = None
    """What a bare status word in the output speaks of: the action the name names, else its first
    concept (`refund_order` -> refund, `get_order` -> order)."""
    record_concept: str | None = None
    """The first concept the name names that is no action (`modify_pending_order_address` -> order): what
    the bare `status` field of a whole record it returns speaks of, when that status is no failure."""
    untrusted: bool = False
    """Outside content (`"untrusted": true` in the mapping, or the tool guard's mark on a
    `ToolMessage`): its text never outranks a structured field (see `grounding.trust`)."""

    @property
    def reports_failure(self) -> bool:
        """Whether the call returned an output that says its own action did not go through (`{"success": false,
        "code": "PREPAID_NOT_MODIFIABLE"}`, `{"result": "FAILED"}`, `{"status": "PAYMENT_FAILED"}`): its outcome field,
        not an error status, says so."""
        output = self.output
        return isinstance(output, dict) and (
            any(output.get(key) is False for key in _OUTCOME_FIELDS)
            or any(str(output.get(key)).lower() in _FAILED_RESULTS for key in _RESULT_FIELDS)
            or (isinstance(state := output.get("status"), str)
                and not _FAILED_RESULTS.isdisjoint(_WORD_BREAK.split(state.lower())))
        )


_OUTCOME_FIELDS = ("success", "ok", "succeeded")
"""Top-level fields of an output whose false says the call's own action did not go through."""
_RESULT_FIELDS = ("result", "outcome")
"""Top-level fields of an output that name how its call went (`{"result": "FAILED", "code": …}`)."""
_FAILED_RESULTS = frozenset({"failed", "failure", "fail", "error"})
"""Values of those fields (or words of a `status`: `PAYMENT_FAILED`) that say the call's own action failed."""
_WORD_BREAK = re.compile(r"[\W_]+")
"""What parts the words of a status value (`PAYMENT_FAILED`, `payment-failed`)."""


_GUARD_KEY = "factcheck_guard"
"""Where the tool guard records on a `ToolMessage` (`langchain.extract.GUARD_KEY`)."""


def tool_record(index: int, item: Any, lex: Lexicon) -> ToolRecord:
    """A tool call as evidence: from a mapping, a LangChain `ToolMessage` or a bare output.

    A mapping has the case format's keys (`name`, `args`, `output`, `status`). Typographic apostrophes and hyphens
    in the output and arguments read as `'` and `-` (`typography.plain_value`), as they do in the answer.

    Args:
        index: Position of the call in the order given to the checker.
        item: The call.
        lex: The lexicon naming the concepts in tool names.

    Returns:
        The call as evidence.

    Raises:
        TypeError: naming the position and the accepted shapes, for an item of none of them (a
            tuple, a set, a message that is no `ToolMessage`, any other object: its text would be
            its `repr`, nothing a tool returned).
    """
    if is_document(item):
        item = document_value(item)
    name, status, output, args, untrusted = None, "ok", item, None, False
    if not isinstance(item, _BARE_OUTPUTS) and not _is_tool_message(item):
        raise TypeError(
            f"tool_calls[{index}] is {type(item).__name__}, not a tool call: give a mapping with "
            "name/args/output/status, a LangChain ToolMessage, or the bare output (a JSON value: str, number, "
            "dict, list, None; or bytes; or a LangChain Document)"
        )
    if (type(item) is dict or isinstance(item, Mapping)) and ("output" in item or "name" in item):
        name = item.get("name")
        output = item.get("output")
        args = item.get("args") if isinstance(item.get("args"), Mapping) else None
        status = "error" if str(item.get("status", "ok")).lower() == "error" else "ok"
        untrusted = item.get("untrusted") is True
    elif _is_tool_message(item):
        name = getattr(item, "name", None)
        output = with_artifact(_content_text(item.content), getattr(item, "artifact", None))
        status = "error" if getattr(item, "status", "success") == "error" else "ok"
        guard = (getattr(item, "response_metadata", None) or {}).get(_GUARD_KEY)
        untrusted = isinstance(guard, Mapping) and guard.get("untrusted") is True
    output, args = plain_value(documents_as_values(output)), plain_value(args)  # O’Connor is O'Connor
    named = _tool_concepts(str(name), lex) if name else ()
    actions = [c for c in named if c in lex.action_tools]
    default = (actions or named or [None])[0]
    record = next((c for c in named if c not in lex.action_tools), None)
    return ToolRecord(
        index, str(name) if name is not None else None, status, output, args, frozenset(named), default, record,
        untrusted,
    )


def is_document(value: Any) -> bool:
    """Whether `value` reads as a LangChain `Document` (a str `page_content` and a mapping `metadata`)."""
    if type(value) in _PLAIN:  # a JSON value (most items of a list output): no attribute to look up
        return False
    return isinstance(getattr(value, "page_content", None), str) and isinstance(
        getattr(value, "metadata", None), Mapping
    )


def document_value(doc: Any) -> dict[str, Any]:
    """A retrieved document as evidence: its text and its metadata (source, ids, dates...)."""
    return {"page_content": doc.page_content, "metadata": dict(doc.metadata)}


def documents_as_values(value: Any) -> Any:
    """`value` with a `Document`, or the `Document`s of a list or tuple, as `document_value`s."""
    if is_document(value):
        return document_value(value)
    if isinstance(value, (list, tuple)) and any(is_document(v) for v in value):
        return [document_value(v) if is_document(v) else v for v in value]
    return value


def with_artifact(content: Any, artifact: Any) -> Any:
    """A tool's output when it returned `(content, artifact)`: both, the artifact's documents as values."""
    if artifact is None:
        return content
    return {"content": content, "artifact": documents_as_values(artifact)}


def output_value(call: ToolRecord, max_chars: int, notes: list[str], max_depth: int | None = None) -> Any:
    """The output as a str (decoded, cut to `max_chars` with a note) or a parsed value.

    A JSON object or array cut at `max_chars` is read up to the cut (its complete values; see
    `read_cut_json`), and a second note names the last value kept.

    Args:
        call: The tool call.
        max_chars: Longest output text read.
        notes: Where the notes go.
        max_depth: Containers this deep in a cut JSON text are not read (see `parse_json`).
    """
    output = call.output
    if isinstance(output, (bytes, bytearray, str)) or output is None:
        output = as_text(output, notes, f"tool call {call.index}")
        if len(output) > max_chars:
            notes.append(f"tool call {call.index} output cut from {len(output):,} to {max_chars:,} characters")
            output = output[:max_chars]
            kept = read_cut_json(output, max_depth) if LOOKS_JSON.match(output) else None
            if kept is not None:
                notes.append(f"tool call {call.index}: JSON cut at the limit read up to its last complete value "
                             f"({kept[1]}); the values after it were dropped")
                return kept[0]
    return output


def as_text(value: Any, notes: list[str], where: str) -> str:
    """A value as text: bytes decoded as UTF-8 (invalid bytes replaced, with a note), None as ""."""
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("utf-8", errors="replace")
        if "\ufffd" in text:
            notes.append(f"{where}: invalid UTF-8 replaced with U+FFFD")
        return text
    return value if isinstance(value, str) else str(value)


def _is_tool_message(item: Any) -> bool:
    """Whether `item` is a LangChain `ToolMessage` (or reads as one: `content` and type `tool`)."""
    return hasattr(item, "content") and getattr(item, "type", None) == "tool"


def _tool_concepts(name: str, lex: Lexicon) -> tuple[str, ...]:
    """Concepts named by a tool's name, in name order (cached per lexicon)."""
    concepts = lex.tool_cache.get(name)
    if concepts is None:
        concepts = remember(lex.tool_cache, name, tuple(dict.fromkeys(lex.concepts_in(split_camel(name)))))
    return concepts


def _content_text(content: Any) -> Any:
    """Text of a message's content: a str, or the text parts of content blocks."""
    if isinstance(content, list):
        parts = [
            b if isinstance(b, str) else b.get("text", "") if isinstance(b, Mapping) else str(b)
            for b in content
        ]
        return "\n".join(p for p in parts if p)
    return content
