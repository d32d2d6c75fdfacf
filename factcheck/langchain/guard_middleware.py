"""`ToolGuardMiddleware`: the trust boundary for a `create_agent` agent's tool calls."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Annotated, Any

try:
    from langchain.agents.middleware import HumanInTheLoopMiddleware, ToolErrorMiddleware
    from langchain.agents.middleware.human_in_the_loop import InterruptOnConfig, _HumanInTheLoopState
except ImportError as exc:  # pragma: no cover - depends on the installed langchain
    raise ImportError(
        "ToolGuardMiddleware needs langchain>=1.5 (HumanInTheLoopMiddleware with `when`, "
        'ToolErrorMiddleware): pip install "agent-factcheck[langchain]"'
    ) from exc
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage
from langgraph.config import get_config
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command
from pydantic import BaseModel, ValidationError
from typing_extensions import NotRequired

from factcheck.guard.policy import Refusal, ToolPolicy, check_policies, limit_refusal, permission_refusal
from factcheck.guard.untrusted import (
    InjectionDetector,
    Neutralize,
    as_text,
    check_mode,
    default_detector,
    frame,
    neutralize,
)
from factcheck.langchain.extract import GUARD_KEY, RUN_METADATA_KEY, is_correction

GUARD_EVENT = "tool_guard"
"""Name of the custom callback event sent for every refusal, repair and flag."""
_CHECKPOINTER_KEY = "__pregel_checkpointer"
"""Where LangGraph keeps the graph's checkpointer in the run config."""
_MAX_RUNS = 256
"""Wrapped runs whose once-only results are remembered (oldest forgotten first)."""
UNTRUSTED_KEY = "factcheck_untrusted_read"
"""Private state key: True once the thread has read an untrusted output (or error). It lives
in graph state, so a checkpointer keeps it across turns; clear it with `update_state`."""


class ToolGuardState(_HumanInTheLoopState):
    """The agent state the guard adds to the review's: the thread's untrusted-read mark."""

    factcheck_untrusted_read: NotRequired[Annotated[bool, PrivateStateAttr]]


class ToolGuardMiddleware(HumanInTheLoopMiddleware):
    """Check every guarded tool call against its `ToolPolicy` before it runs.

    Per call, in order: the reviewer's edit (if any) replaces the model's call; the
    caller's permission (from `runtime.context`); the tool's own argument schema (an
    invalid call goes on to LangChain, which answers with the validation error without
    running the tool) and argument names the tool does not declare (refused); the
    policy's limits and `validate` rule; a `once` tool that
    already ran with these arguments in this run gets its first result back; a call
    that needs confirmation (`confirm=True`, or a `once` tool after an untrusted output
    was read) runs only after the `HumanInTheLoopMiddleware` review this class inherits
    (an error `ToolMessage` when the agent has no checkpointer to pause with); the tool's
    exception becomes an error `ToolMessage` (`ToolErrorMiddleware`); an untrusted
    output reaches the model framed as data, instruction-like text neutralised.

    Tools without a policy pass untouched; unknown tool names are answered by
    `create_agent` itself. Review requests and decisions are `HumanInTheLoopMiddleware`'s
    (batched mode): resume with `Command(resume={"decisions": [...]})`.

    Example:
        ```python
        guard = ToolGuardMiddleware(policies={"delete_orders": ToolPolicy(
            permission="orders:delete", limits={"order_ids": 20}, once=True, confirm=True)})
        agent = create_agent(model, tools, middleware=[guard], checkpointer=InMemorySaver())
        agent.invoke({"messages": [...]}, config, context={"permissions": ["orders:delete"]})
        ```
    """

    def __init__(
        self,
        policies: Mapping[str, ToolPolicy],
        *,
        permissions_from: Callable[[Any], Collection[str] | None] | None = None,
        contain_errors: bool = True,
        neutralize_mode: Neutralize = "redact",
        detector: InjectionDetector | None = None,
        description_prefix: str = "Tool execution requires approval",
    ) -> None:
        """Configure the guard.

        Args:
            policies: Tool name -> policy.
            permissions_from: `permissions_from(runtime)` -> the caller's permissions;
                default: `runtime.context.permissions` or `runtime.context["permissions"]`.
            contain_errors: Turn a guarded tool's exception into an error `ToolMessage`;
                False lets it propagate.
            neutralize_mode: What instruction-like text in untrusted outputs becomes.
            detector: Instruction-like text detector; the shipped en + zh lexicon when None.
            description_prefix: Shown to the reviewer above the tool call.

        Raises:
            TypeError: a policy is not a `ToolPolicy`.
            ValueError: `neutralize_mode` is not `redact`, `mark` or `keep`.
        """
        self.policies = check_policies(policies)
        """Tool name -> policy."""
        review = {
            name: InterruptOnConfig(allowed_decisions=["approve", "edit", "reject"], when=self._review_wanted)
            for name, policy in self.policies.items()
            if policy.confirm or policy.once
        }
        super().__init__(review, description_prefix=description_prefix)
        self.permissions_from = permissions_from
        self.contain_errors = contain_errors
        self.neutralize_mode: Neutralize = check_mode(neutralize_mode)
        self.detector = detector or default_detector()
        self.state_schema = ToolGuardState
        """Adds the untrusted-read mark (`UNTRUSTED_KEY`) that a checkpointer keeps."""
        self._errors = ToolErrorMiddleware(on_error=self._contained)
        self._runs: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Apply the policy, then run the tool with its errors contained."""
        request, edit, plan = self._prepare(request)
        if isinstance(plan, ToolMessage):
            _emit(plan)
            return plan
        if plan is None:
            return handler(request)
        if self.contain_errors:
            result = self._errors.wrap_tool_call(request, handler)
        else:
            result = handler(request)
        result = self._finish(request, plan, result)
        _emit(result)
        return self._annotate_edited_result(result, request, edit)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async `wrap_tool_call`."""
        request, edit, plan = self._prepare(request)
        if isinstance(plan, ToolMessage):
            await _aemit(plan)
            return plan
        if plan is None:
            return await handler(request)
        if self.contain_errors:
            result = await self._errors.awrap_tool_call(request, handler)
        else:
            result = await handler(request)
        result = self._finish(request, plan, result)
        await _aemit(result)
        return self._annotate_edited_result(result, request, edit)

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Mark the thread once a tool's untrusted output or error is in its messages."""
        if not isinstance(state, Mapping) or state.get(UNTRUSTED_KEY):
            return None
        if any(_untrusted(m) for m in state.get("messages") or []):
            return {UNTRUSTED_KEY: True}
        return None

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Async `before_model`."""
        return self.before_model(state, runtime)

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """`HumanInTheLoopMiddleware.after_model`; a rejected call's message records the rejection."""
        update = super().after_model(state, runtime)
        if update and update.get("messages"):
            update["messages"] = [_rejected(m) for m in update["messages"]]
        return update

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Async `after_model`."""
        return self.after_model(state, runtime)

    def _review_wanted(self, request: ToolCallRequest) -> bool:
        """`HumanInTheLoopMiddleware` `when`: ask a person only about calls the guard would run."""
        policy = self.policies[request.tool_call["name"]]
        args = request.tool_call["args"]
        if not isinstance(args, Mapping) or not _has_checkpointer() or self._refusal(request, policy, args):
            return False
        if policy.confirm:
            return True
        key = policy.key_for(request.tool_call["name"], request.tool_call["args"])
        return self._tainted(request) and self._first_result(request, key) is None

    def _prepare(self, request: ToolCallRequest) -> tuple[ToolCallRequest, Any, ToolMessage | dict[str, Any] | None]:
        """The request to run (after a reviewer's edit), the edit, and the plan: a refusal or
        repeat message to return instead of running, the checked call to run, or None to pass."""
        edit = self._reviewer_edit(request)
        if edit is not None:
            request = self._apply_edit(request, edit)
        name = request.tool_call["name"]
        policy = self.policies.get(name)
        if policy is None or request.tool is None:
            return request, edit, None
        raw = request.tool_call["args"]
        refusal = permission_refusal(name, policy, self._permissions(request.runtime))
        if refusal is not None:
            return request, edit, _refusal_message(request, refusal, raw if isinstance(raw, Mapping) else {})
        args = _validated(request)
        if args is None:  # the tool's schema refuses them: LangChain answers, the tool does not run
            return request, edit, None
        refusal = _unknown_arguments(request) or limit_refusal(name, policy, args, request.runtime)
        if refusal is not None:
            if edit is not None:
                shown = json.dumps(args, default=str)
                note = f" (The call checked is a reviewer's edit of yours: {name} with {shown}.)"
                refusal = Refusal(refusal.kind, refusal.message + note)
            return request, edit, _refusal_message(request, refusal, args)
        key = policy.key_for(name, args)
        first = self._first_result(request, key) if policy.once else None
        if first is not None:
            return request, edit, _repeat_message(request, first, key)
        twin = _earlier_twin(request, policy, key) if policy.once else None
        if twin is not None:
            return request, edit, _twin_message(request, twin, key)
        needs_review = policy.confirm or (policy.once and self._tainted(request))
        if needs_review and not _has_checkpointer():
            reason = "it needs a person's approval" if policy.confirm else (
                "it has side effects and this run has read untrusted content"
            )
            refusal = Refusal(
                "confirmation",
                f"Refused by the tool guard: {name} was not run because {reason}, and this agent "
                "has no checkpointer to pause for a confirmation. Do not retry it; tell the user "
                "it needs their confirmation.",
            )
            return request, edit, _refusal_message(request, refusal, args)
        runtime = request.runtime
        if runtime is not None and isinstance(runtime.config, Mapping):
            metadata = {**(runtime.config.get("metadata") or {}), "idempotency_key": key}
            request = request.override(runtime=dataclasses.replace(runtime, config={**runtime.config,
                                                                                   "metadata": metadata}))
        return request, edit, {"policy": policy, "args": args, "key": key, "edited": edit is not None}

    def _refusal(self, request: ToolCallRequest, policy: ToolPolicy, args: Mapping[str, Any]) -> Refusal | None:
        name = request.tool_call["name"]
        return permission_refusal(name, policy, self._permissions(request.runtime)) or limit_refusal(
            name, policy, args, request.runtime
        )

    def _permissions(self, runtime: Any) -> Collection[str]:
        if self.permissions_from is not None:
            return frozenset(self.permissions_from(runtime) or ())
        context = getattr(runtime, "context", None)
        found = context.get("permissions") if isinstance(context, Mapping) else getattr(context, "permissions", None)
        return frozenset(found or ())

    def _finish(self, request: ToolCallRequest, plan: dict[str, Any], result: Any) -> Any:
        if not isinstance(result, ToolMessage):
            return result
        policy: ToolPolicy = plan["policy"]
        record: dict[str, Any] = {"idempotency_key": plan["key"], "args": plan["args"]}
        if plan["edited"]:
            record["event"] = {"event": "edited", "tool": result.name, "args": plan["args"]}
        ok = result.status != "error"
        if not ok and "event" not in record:
            record["event"] = {"event": "tool_error", "tool": result.name, "message": _text(result)}
        update: dict[str, Any] = {}
        if policy.untrusted_output:  # its errors too: an exception's text can carry the same injection
            original = result.content if isinstance(result.content, str) else as_text(result.content)
            flags = self.detector.find(original)
            record["original"] = original
            record["untrusted"] = True
            if flags:
                record["flags"] = [f.as_dict() for f in flags]
                record["event"] = {"event": "injection_flagged", "tool": result.name, "flags": record["flags"]}
            update["content"] = frame(result.name or "tool", neutralize(original, flags, self.neutralize_mode), flags)
            self._remember(request, "tainted", True)
        if ok and policy.once:
            self._remember(request, plan["key"], result)
        update["response_metadata"] = {**result.response_metadata, GUARD_KEY: record}
        return result.model_copy(update=update)

    def _contained(self, exc: Exception, request: ToolCallRequest) -> str:
        name = request.tool_call["name"]
        return f"{name} failed and did not complete: {type(exc).__name__}: {exc}"

    def _tainted(self, request: ToolCallRequest) -> bool:
        """Whether the thread has read untrusted content: the state's mark (kept across turns
        by a checkpointer), its messages, or this wrapped run's memory."""
        state = request.state if isinstance(request.state, Mapping) else {}
        if state.get(UNTRUSTED_KEY) or self._memory(request).get("tainted"):
            return True
        return any(_untrusted(m) for m in state.get("messages") or [])

    def _first_result(self, request: ToolCallRequest, key: str) -> ToolMessage | None:
        for m in _current_turn(request.state):
            record = m.response_metadata.get(GUARD_KEY) if isinstance(m, ToolMessage) else None
            if record and record.get("idempotency_key") == key and m.status != "error" and not record.get("repeat"):
                return m
        found = self._memory(request).get(key)
        return found if isinstance(found, ToolMessage) else None

    def _memory(self, request: ToolCallRequest) -> dict[str, Any]:
        run = _run_key(request)
        if run is None:
            return {}
        with self._lock:
            return dict(self._runs.get(run, {}))

    def _remember(self, request: ToolCallRequest, key: str, value: Any) -> None:
        run = _run_key(request)
        if run is None:
            return
        with self._lock:
            self._runs.setdefault(run, {})[key] = value
            self._runs.move_to_end(run)
            while len(self._runs) > _MAX_RUNS:
                self._runs.popitem(last=False)


def _untrusted(message: Any) -> bool:
    """Whether a message is an untrusted tool's output or error, as the guard recorded it."""
    return isinstance(message, ToolMessage) and bool((message.response_metadata.get(GUARD_KEY) or {}).get("untrusted"))


def _validated(request: ToolCallRequest) -> dict[str, Any] | None:
    """The call's arguments as the tool's schema reads them; None when the schema refuses them."""
    return _schema_args(request, request.tool_call["args"])


def _schema_args(request: ToolCallRequest, args: Any) -> dict[str, Any] | None:
    schema = request.tool.tool_call_schema if request.tool is not None else None
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)) or not isinstance(args, Mapping):
        return dict(args) if isinstance(args, Mapping) else None
    try:
        parsed = schema.model_validate(dict(args))
    except ValidationError:
        return None
    return {k: v for k, v in parsed.model_dump().items() if k in args or v is not None}


def _unknown_arguments(request: ToolCallRequest) -> Refusal | None:
    """Refuse argument names the tool does not declare (LangChain drops them and runs the tool)."""
    schema = request.tool.tool_call_schema if request.tool is not None else None
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        return None
    unknown = sorted(set(request.tool_call["args"]) - set(schema.model_fields))
    if not unknown:
        return None
    name = request.tool_call["name"]
    return Refusal(
        "limit",
        f"Refused by the tool guard: {name} was not run because it has no argument named "
        f"{', '.join(repr(u) for u in unknown)} (its arguments are {', '.join(sorted(schema.model_fields))}). "
        "Fix the arguments and try again.",
    )


def _refusal_message(request: ToolCallRequest, refusal: Refusal, args: Mapping[str, Any]) -> ToolMessage:
    name = request.tool_call["name"]
    event = {"event": "refused", "kind": refusal.kind, "tool": name, "message": refusal.message}
    return ToolMessage(
        content=refusal.message,
        tool_call_id=request.tool_call["id"] or "",
        name=name,
        status="error",
        response_metadata={GUARD_KEY: {"refused": refusal.kind, "args": dict(args), "event": event}},
    )


def _repeat_message(request: ToolCallRequest, first: ToolMessage, key: str) -> ToolMessage:
    name = request.tool_call["name"]
    content = (
        f"Not run again: {name} already ran with these arguments in this run (it runs once). "
        f"Its first result follows.\n{_text(first)}"
    )
    record = {**first.response_metadata.get(GUARD_KEY, {}), "repeat": True, "idempotency_key": key,
              "event": {"event": "repeat", "tool": name, "idempotency_key": key}}
    return ToolMessage(content=content, tool_call_id=request.tool_call["id"] or "", name=name,
                       status="success", response_metadata={GUARD_KEY: record})


def _rejected(message: Any) -> Any:
    if not isinstance(message, ToolMessage) or message.status != "error":
        return message
    event = {"event": "rejected", "tool": message.name, "message": _text(message)}
    return message.model_copy(
        update={"response_metadata": {**message.response_metadata, GUARD_KEY: {"rejected": True, "event": event}}}
    )


def _earlier_twin(request: ToolCallRequest, policy: ToolPolicy, key: str) -> str | None:
    """Id of an earlier call with the same key in the same model message (they run concurrently)."""
    messages = list(request.state.get("messages") or []) if isinstance(request.state, Mapping) else []
    own = request.tool_call.get("id")
    for message in reversed(messages):
        calls = getattr(message, "tool_calls", None) or []
        if not any(c.get("id") == own for c in calls):
            continue
        for other in calls:
            if other.get("id") == own:
                return None
            if other["name"] == request.tool_call["name"] and isinstance(other.get("args"), Mapping):
                if policy.key_for(other["name"], _schema_args(request, other["args"])) == key:
                    return str(other.get("id"))
        return None
    return None


def _twin_message(request: ToolCallRequest, twin: str, key: str) -> ToolMessage:
    name = request.tool_call["name"]
    content = (
        f"Not run again: {name} runs once per arguments, and call {twin} in the same message makes "
        "this very call; its result is that call's."
    )
    event = {"event": "repeat", "tool": name, "idempotency_key": key}
    return ToolMessage(content=content, tool_call_id=request.tool_call["id"] or "", name=name, status="success",
                       response_metadata={GUARD_KEY: {"repeat": True, "idempotency_key": key, "event": event}})


def _text(message: ToolMessage) -> str:
    return message.content if isinstance(message.content, str) else as_text(message.content)


def _has_checkpointer() -> bool:
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        return False
    return configurable.get(_CHECKPOINTER_KEY) is not None


def _run_key(request: ToolCallRequest) -> str | None:
    config = getattr(request.runtime, "config", None)
    metadata = config.get("metadata") if isinstance(config, Mapping) else None
    key = metadata.get(RUN_METADATA_KEY) if isinstance(metadata, Mapping) else None
    return str(key) if key is not None else None


def _current_turn(state: Any) -> Sequence[BaseMessage]:
    messages = list(state.get("messages") or []) if isinstance(state, Mapping) else []
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage) and not is_correction(messages[i]):
            return messages[i + 1 :]
    return messages


def guard_events(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """The guard's refusals, repairs and flags recorded on the `ToolMessage`s of a run.

    Args:
        messages: Messages of the run, in order.

    Returns:
        The events, in message order.
    """
    out = []
    for m in messages:
        if isinstance(m, ToolMessage):
            event = (m.response_metadata.get(GUARD_KEY) or {}).get("event")
            if event:
                out.append(event)
    return out


def _emit(result: Any) -> None:
    for event in guard_events([result]):
        try:
            dispatch_custom_event(GUARD_EVENT, event)
        except RuntimeError:  # no parent run (called outside a graph)
            pass


async def _aemit(result: Any) -> None:
    for event in guard_events([result]):
        try:
            await adispatch_custom_event(GUARD_EVENT, event)
        except RuntimeError:
            pass
