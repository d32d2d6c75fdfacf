"""Find the final answer, tool evidence and context in LangChain inputs and outputs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from uuid import uuid4

from langchain_core.agents import AgentAction
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.prompt_values import PromptValue

from factcheck.grounding.records import with_artifact

CORRECTION_ID_PREFIX = "factcheck-correction-"
"""Id prefix of the correction messages factcheck adds; they never count as context."""

MESSAGES_KEY = "messages"
"""State key that holds the conversation in agents and message graphs."""

GUARD_KEY = "factcheck_guard"
"""Key of the tool guard's record in a `ToolMessage`'s `response_metadata`."""
RUN_METADATA_KEY = "factcheck_run"
"""Config metadata key naming one wrapped run on every attempt (the tool guard's once-only scope)."""
LEGACY_ANSWER_KEY = "output"
"""Key of the final answer in legacy executor outputs."""

INPUT_TEXT_KEYS = ("input", "question", "query")
"""Dict input keys a correction is appended to when the input has no messages."""


def message_text(message: BaseMessage) -> str:
    """The text of a message: str content, or the text of its content blocks joined.

    Args:
        message: Any LangChain message.

    Returns:
        The text; blocks that carry no text (images, tool calls) are skipped.
    """
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") in ("text", "output_text"):
            text = block.get("text")
            if isinstance(text, str):
                parts.append(text)
    return "".join(parts)


def is_correction(message: Any) -> bool:
    """True for a correction message factcheck added to a conversation."""
    return isinstance(message, BaseMessage) and str(message.id or "").startswith(
        CORRECTION_ID_PREFIX
    )


@dataclass(frozen=True)
class AnswerLocation:
    """Where the final answer sits in an output, so a new text can be put back."""

    kind: Literal["message", "state", "key", "str"]
    """An AI message, the last AI message of a state's `messages`, a dict key, or a str."""
    text: str
    """The answer text found there."""
    index: int = -1
    """Position in `messages` for `state`."""
    key: str = ""
    """The dict key for `key`."""


def find_answer(output: Any, answer_key: str | None = None) -> AnswerLocation | None:
    """Locate the final answer in a runnable's output.

    Looks, in order, at: an AI message; the last AI message of a dict's `messages`;
    `answer_key` (default `output`) of a dict; a str.

    Args:
        output: What the wrapped runnable returned.
        answer_key: Dict key holding the answer; defaults to `output`.

    Returns:
        The location, or None when the output holds no recognisable answer.
    """
    if isinstance(output, AIMessage):
        return AnswerLocation("message", message_text(output))
    if isinstance(output, str):
        return AnswerLocation("str", output)
    if not isinstance(output, Mapping):
        return None
    key = answer_key or LEGACY_ANSWER_KEY
    if answer_key is None or answer_key == MESSAGES_KEY:
        messages = output.get(MESSAGES_KEY)
        if isinstance(messages, Sequence) and not isinstance(messages, str):
            for i in range(len(messages) - 1, -1, -1):
                if isinstance(messages[i], AIMessage):
                    return AnswerLocation("state", message_text(messages[i]), index=i)
    value = output.get(key)
    if isinstance(value, str):
        return AnswerLocation("key", value, key=key)
    if isinstance(value, AIMessage):
        return AnswerLocation("key", message_text(value), key=key)
    return None


def put_answer(
    output: Any, where: AnswerLocation, text: str, report: dict[str, Any], report_key: str
) -> Any:
    """Return a copy of the output with the answer set to `text` and the report attached.

    The report goes into `AIMessage.response_metadata[report_key]` for messages and
    into `output[report_key]` for dicts; a str output cannot carry it.

    Args:
        output: The wrapped runnable's output.
        where: Where the answer was found.
        text: The answer to give the user.
        report: The run report as JSON-ready data.
        report_key: Key to store the report under.

    Returns:
        An output of the same type.
    """
    if where.kind == "str":
        return text
    if where.kind == "message":
        return _with_text(output, where.text, text, report, report_key)
    new = dict(output)
    if where.kind == "state":
        messages = list(output[MESSAGES_KEY])
        messages[where.index] = _with_text(
            messages[where.index], where.text, text, report, report_key
        )
        new[MESSAGES_KEY] = messages
    elif isinstance(output[where.key], AIMessage):
        new[where.key] = _with_text(output[where.key], where.text, text, report, report_key)
    else:
        new[where.key] = text
    new[report_key] = report
    return new


def _with_text(
    message: AIMessage, old: str, text: str, report: dict[str, Any], report_key: str
) -> AIMessage:
    update: dict[str, Any] = {
        "response_metadata": {**message.response_metadata, report_key: report}
    }
    if text != old:
        update["content"] = text
    return message.model_copy(update=update)


def as_messages(value: Any) -> list[BaseMessage] | None:
    """Coerce a chat input (str, PromptValue, message, list of message-likes) to messages.

    Returns:
        The messages, or None when the value is not a chat input.
    """
    if isinstance(value, PromptValue):
        return value.to_messages()
    if isinstance(value, BaseMessage):
        return [value]
    if isinstance(value, str):
        return [HumanMessage(value)]
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        try:
            return convert_to_messages(list(value))
        except (ValueError, TypeError, NotImplementedError):
            return None
    return None


def context_from_input(value: Any) -> list[str]:
    """User and system text of the input, which the answer may repeat without a tool.

    AI and tool messages are not context (the first are the model's own words, the
    second are evidence), nor are factcheck's own correction messages.

    Args:
        value: The input given to the wrapped runnable.

    Returns:
        Context strings in input order.
    """
    if isinstance(value, Mapping):
        out: list[str] = []
        for key, item in value.items():
            if isinstance(item, str):
                if item.strip():
                    out.append(item)
            elif key in (MESSAGES_KEY, "chat_history"):
                out.extend(_context_from_messages(as_messages(item) or []))
        return out
    if isinstance(value, str):
        return [value] if value.strip() else []
    return _context_from_messages(as_messages(value) or [])


def _context_from_messages(messages: list[BaseMessage]) -> list[str]:
    out = []
    for message in messages:
        if isinstance(message, (HumanMessage, SystemMessage)) and not is_correction(message):
            text = message_text(message)
            if text.strip():
                out.append(text)
    return out


@dataclass(frozen=True)
class OutputToolCall:
    """A tool result found in the output (ToolMessage or intermediate step)."""

    tool_call_id: str | None
    """Id of the model's tool call, when the output says."""
    name: str
    """Tool name."""
    args: Any
    """Arguments, when the output says."""
    output: Any
    """The tool's output as recorded."""
    status: Literal["ok", "error"]
    """`error` for a ToolMessage with status `error`."""
    guard_event: Any = field(default=None, compare=False)
    """What `ToolGuardMiddleware` stopped or repaired on this call (a dict), if anything."""
    untrusted: bool = field(default=False, compare=False)
    """The tool guard framed this output as outside content: it never outranks a structured field."""
    repeat: bool = field(default=False, compare=False)
    """A guard's notice that the call was not run again (a repeat, a twin in the same
    message, a fact-check retry's refusal): not a tool output, never evidence."""

    def as_tool_call(self) -> dict[str, Any]:
        """The record as a checker `tool_calls` mapping (`untrusted` only when it is)."""
        call = {"name": self.name, "args": self.args, "output": self.output, "status": self.status}
        return {**call, "untrusted": True} if self.untrusted else call


def tool_calls_from_output(output: Any) -> list[OutputToolCall]:
    """Tool results recorded in an output: ToolMessages and `intermediate_steps`.

    Args:
        output: The wrapped runnable's output.

    Returns:
        The results in output order.
    """
    if not isinstance(output, Mapping):
        return []
    found: list[OutputToolCall] = []
    messages = output.get(MESSAGES_KEY)
    if isinstance(messages, Sequence) and not isinstance(messages, str):
        args_by_id: dict[str, Any] = {}
        for message in messages:
            if isinstance(message, AIMessage):
                for call in message.tool_calls:
                    if call.get("id"):
                        args_by_id[call["id"]] = call.get("args", {})
            elif isinstance(message, ToolMessage):
                found.append(
                    OutputToolCall(
                        tool_call_id=message.tool_call_id,
                        name=message.name or "tool",
                        args=guard_record(message).get("args", args_by_id.get(message.tool_call_id, {})),
                        output=tool_message_value(message),
                        status="error" if message.status == "error" else "ok",
                        guard_event=guard_record(message).get("event"),
                        repeat=bool(guard_record(message).get("repeat")),
                        untrusted=bool(guard_record(message).get("untrusted")),
                    )
                )
    steps = output.get("intermediate_steps")
    if isinstance(steps, Sequence) and not isinstance(steps, str):
        for step in steps:
            if not (isinstance(step, Sequence) and len(step) == 2):
                continue
            action, observation = step
            if not isinstance(action, AgentAction):
                continue
            if isinstance(observation, ToolMessage):
                status = "error" if observation.status == "error" else "ok"
                observation = tool_message_value(observation)
            else:
                status = "ok"
            found.append(
                OutputToolCall(
                    tool_call_id=getattr(action, "tool_call_id", None),
                    name=action.tool,
                    args=action.tool_input,
                    output=observation,
                    status=status,
                )
            )
    return found


def tool_message_value(message: ToolMessage) -> Any:
    """The output a `ToolMessage` carries: its text content, or its blocks' text.

    An untrusted output the tool guard framed for the model gives its original text.
    A tool that returned `(content, artifact)` gives both (its documents as `page_content` and `metadata`).
    """
    original = guard_record(message).get("original")
    if original is not None:
        return original
    content = message.content if isinstance(message.content, str) else message_text(message) or str(message.content)
    return with_artifact(content, message.artifact)


def evidence_calls(calls: Sequence[OutputToolCall]) -> list[dict[str, Any]]:
    """The checker `tool_calls` of recorded results, without the guards' repeat notices."""
    return [c.as_tool_call() for c in calls if not c.repeat]


def guard_record(message: BaseMessage) -> dict[str, Any]:
    """What the tool guard recorded on a `ToolMessage` (`ToolGuardMiddleware`), or {}."""
    record = (getattr(message, "response_metadata", None) or {}).get(GUARD_KEY)
    return record if isinstance(record, dict) else {}


def correction_message(text: str) -> HumanMessage:
    """A user-role message carrying a correction, marked so it never counts as context."""
    return HumanMessage(text, id=f"{CORRECTION_ID_PREFIX}{uuid4().hex}")


@dataclass(frozen=True)
class RetryInput:
    """The input of a retry and whether it carries the conversation so far."""

    value: Any
    """What to invoke the wrapped runnable with."""
    carries_history: bool
    """True when the retry continues the conversation (tool results included), False
    when it re-runs the runnable from the original input plus the correction text."""
    correction: str
    """The correction text the retry input carries."""


def retry_input(
    original: Any,
    current: Any,
    output: Any,
    answer: str,
    correction: Callable[[bool], str],
    *,
    accepts_messages: bool,
    input_key: str | None = None,
) -> RetryInput | None:
    """Build the input of a retry: the original input plus a correction.

    Message inputs (a `messages` state, a list of messages, a prompt value, or a str
    given to a chat model) continue the conversation: the previous attempt's
    messages (tool calls and results included) are kept, then the correction is
    added as a user message. Other str inputs and dicts get the correction text
    appended to the original text (to `input_key`, or `input`/`question`/`query`).

    Args:
        original: The input of the first attempt.
        current: The input of the attempt being corrected.
        output: That attempt's output.
        answer: That attempt's answer text.
        correction: Returns the correction text; its argument asks it to quote the
            previous answer (needed when the conversation is not carried).
        accepts_messages: Whether the wrapped runnable takes a list of messages.
        input_key: Dict input key to append the correction to.

    Returns:
        The retry input, or None when this input has no place for a correction.
    """
    out_messages = output.get(MESSAGES_KEY) if isinstance(output, Mapping) else None
    if not isinstance(out_messages, list):
        out_messages = None
    if isinstance(original, Mapping) and isinstance(original.get(MESSAGES_KEY), list):
        history = out_messages
        if history is None:
            history = [*(as_messages(current[MESSAGES_KEY]) or []), AIMessage(answer)]
        text = correction(False)
        messages = [*history, correction_message(text)]
        return RetryInput({**original, MESSAGES_KEY: messages}, True, text)
    chat_like = isinstance(original, (PromptValue, BaseMessage)) or (
        isinstance(original, Sequence) and not isinstance(original, (str, bytes))
    )
    if chat_like or (isinstance(original, str) and accepts_messages):
        history = out_messages
        if history is None:
            history = [*(as_messages(current) or []), AIMessage(answer)]
        text = correction(False)
        return RetryInput([*history, correction_message(text)], True, text)
    if isinstance(original, str):
        text = correction(True)
        return RetryInput(f"{original}\n\n{text}", False, text)
    if isinstance(original, Mapping):
        key = _text_key(original, input_key)
        if key is not None:
            text = correction(True)
            return RetryInput({**original, key: f"{original[key]}\n\n{text}"}, False, text)
    return None


def _text_key(value: Mapping[str, Any], input_key: str | None) -> str | None:
    if input_key is not None:
        return input_key if isinstance(value.get(input_key), str) else None
    for key in INPUT_TEXT_KEYS:
        if isinstance(value.get(key), str):
            return key
    keys = [k for k, v in value.items() if isinstance(v, str)]
    return keys[0] if len(keys) == 1 else None
