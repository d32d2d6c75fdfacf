"""`ToolGuardMiddleware`: the trust boundary for a `create_agent` agent's tool calls."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
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
from factcheck.guard.reads import action_matcher, default_read_verbs
from factcheck.guard.untrusted import (
    InjectionDetector,
    Neutralize,
    as_text,
    check_mode,
    default_detector,
    frame,
    neutralize,
)
from factcheck.langchain.extract import GUARD_KEY, RUN_METADATA_KEY, guard_record, is_correction
from factcheck.langchain.ledger import declared_read

GUARD_EVENT = "tool_guard"
"""Name of the custom callback event sent for every refusal, repair and flag."""
_CHECKPOINTER_KEY = "__pregel_checkpointer"
"""Where LangGraph keeps the graph's checkpointer in the run config."""
_MAX_RUNS = 256
"""Wrapped runs whose once-only results are remembered (oldest forgotten first)."""
UNTRUSTED_KEY = "factcheck_untrusted_read"
"""Private state key: True once the thread has read an untrusted output (or error). It lives
in graph state, so a checkpointer keeps it across turns; clear it with `update_state`."""
RAN_KEY = "factcheck_ran"
"""Private state key: idempotency key -> the first successful result of that call in the
thread (`tool`, `tool_call_id`, `content`, `record`). A checkpointer keeps it across turns,
also once the messages holding the results are trimmed; clear it with `update_state`."""
_MAX_RAN = 1000
"""Calls `RAN_KEY` remembers per thread (oldest forgotten first)."""


class ToolGuardState(_HumanInTheLoopState):
    """The agent state the guard adds to the review's: the thread's untrusted-read mark and
    the ledger of the calls that ran."""

    factcheck_untrusted_read: NotRequired[Annotated[bool, PrivateStateAttr]]
    factcheck_ran: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


@dataclass(frozen=True)
class _Plan:
    """A call the guard lets run, and what to do with its result."""

    policy: ToolPolicy | None
    """The tool's own policy; None when only the defaults apply (no contained errors)."""
    read: bool | None
    """Declared a read (True) or an action (False) by the policy or `read_tools`; None: its name decides."""
    args: dict[str, Any] | None = None
    """The checked arguments; None when the guard only passes the declaration on."""
    key: str | None = None
    """The call's idempotency key."""
    edited: bool = False
    """The call is a reviewer's edit."""
    remember: bool = False
    """Keep its successful result: a repeat gets it back (`once`, or the default repeat guard)."""


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

    Every tool that is not a read (declared by `ToolPolicy(read=True)` or `read_tools`,
    else a name starting with one of the lexicon's read verbs: get, list, search, ...)
    gets the repeat guard by default: a call whose idempotency key already ran
    successfully in this thread (this run, earlier steps, earlier turns kept by a
    checkpointer) is not run again; the model gets the first result back under a notice
    the fact checker never reads as a tool output. Opt out with `repeat_guard=False`, or
    per tool with `ToolPolicy(repeatable=True)`. Apart from that, tools without a policy
    pass untouched; unknown tool names are answered by `create_agent` itself. Review
    requests and decisions are `HumanInTheLoopMiddleware`'s (batched mode): resume with
    `Command(resume={"decisions": [...]})`.

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
        policies: Mapping[str, ToolPolicy] | None = None,
        *,
        read_tools: Collection[str] = (),
        repeat_guard: bool = True,
        permissions_from: Callable[[Any], Collection[str] | None] | None = None,
        contain_errors: bool = True,
        neutralize_mode: Neutralize = "redact",
        detector: InjectionDetector | None = None,
        description_prefix: str = "Tool execution requires approval",
    ) -> None:
        """Configure the guard.

        Args:
            policies: Tool name -> policy; None or {} guards only against repeats.
            read_tools: Names of tools that only read (as `ToolPolicy(read=True)`); with
                the lexicon's read verbs they are the tools the repeat guard lets run again.
            repeat_guard: Answer an identical repeat of any tool that is not a read with
                its first result; False leaves that to `once`.
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
        self.policies = check_policies(policies or {})
        """Tool name -> policy."""
        self.read_tools = frozenset(read_tools)
        """Tools declared reads besides those of a `ToolPolicy(read=True)`."""
        self.repeat_guard = repeat_guard
        """Whether identical repeats of tools that are not reads are answered, not run."""
        self._is_action = action_matcher(self.read_tools, default_read_verbs())
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
        """Adds the untrusted-read mark (`UNTRUSTED_KEY`) and the ledger of what ran (`RAN_KEY`)."""
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
        with declared_read(request.tool_call["name"], plan.read):
            if self.contain_errors and plan.policy is not None:
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
        with declared_read(request.tool_call["name"], plan.read):
            if self.contain_errors and plan.policy is not None:
                result = await self._errors.awrap_tool_call(request, handler)
            else:
                result = await handler(request)
        result = self._finish(request, plan, result)
        await _aemit(result)
        return self._annotate_edited_result(result, request, edit)

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Mark the thread once a tool's untrusted output or error is in its messages, and
        keep the first result of each call that ran (`RAN_KEY`)."""
        if not isinstance(state, Mapping):
            return None
        update: dict[str, Any] = {}
        if not state.get(UNTRUSTED_KEY) and any(_untrusted(m) for m in state.get("messages") or []):
            update[UNTRUSTED_KEY] = True
        ran = _ran(state)
        if ran is not None:
            update[RAN_KEY] = ran
        return update or None

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
        name = request.tool_call["name"]
        repeats = self._guards_repeats(name)
        key = policy.key_for(name, args)
        if (policy.once or repeats) and self._first_result(request, key, repeats) is not None:
            return False  # answered with the first result: nothing runs
        return policy.confirm or self._tainted(request)

    def _prepare(self, request: ToolCallRequest) -> tuple[ToolCallRequest, Any, ToolMessage | _Plan | None]:
        """The request to run (after a reviewer's edit), the edit, and the plan: a refusal or
        repeat message to return instead of running, the checked call to run, or None to pass."""
        edit = self._reviewer_edit(request)
        if edit is not None:
            request = self._apply_edit(request, edit)
        name = request.tool_call["name"]
        policy = self.policies.get(name)
        read, repeats = self._declared_read(name), self._guards_repeats(name)
        if request.tool is None:
            return request, edit, None
        if policy is None and not repeats:  # pass, with the declaration of a read of `read_tools`
            return request, edit, None if read is None else _Plan(None, read)
        raw = request.tool_call["args"]
        refusal = None if policy is None else permission_refusal(name, policy, self._permissions(request.runtime))
        if refusal is not None:
            return request, edit, _refusal_message(request, refusal, raw if isinstance(raw, Mapping) else {})
        args = _validated(request)
        if args is None:  # the tool's schema refuses them: LangChain answers, the tool does not run
            return request, edit, None
        if policy is not None:
            refusal = _unknown_arguments(request) or limit_refusal(name, policy, args, request.runtime)
        if refusal is not None:
            if edit is not None:
                shown = json.dumps(args, default=str)
                note = f" (The call checked is a reviewer's edit of yours: {name} with {shown}.)"
                refusal = Refusal(refusal.kind, refusal.message + note)
            return request, edit, _refusal_message(request, refusal, args)
        checked = policy or ToolPolicy()
        key = checked.key_for(name, args)
        if checked.once or repeats:
            first = self._first_result(request, key, repeats)
            if first is not None:
                return request, edit, _repeat_message(request, first, key)
            twin = _earlier_twin(request, checked, key)
            if twin is not None:
                return request, edit, _twin_message(request, twin, key)
        if policy is not None and (policy.confirm or policy.once and self._tainted(request)):
            if not _has_checkpointer():
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
        return request, edit, _Plan(policy, read, args, key, edit is not None, checked.once or repeats)

    def _declared_read(self, name: str) -> bool | None:
        """The tool declared a read (True) or an action (False) by its policy or `read_tools`; else None."""
        policy = self.policies.get(name)
        if policy is not None and policy.read is not None:
            return policy.read
        return True if name in self.read_tools else None

    def _guards_repeats(self, name: str) -> bool:
        """Whether the default repeat guard answers an identical repeat of this tool."""
        policy = self.policies.get(name)
        if not self.repeat_guard or policy is not None and policy.repeatable:
            return False
        read = self._declared_read(name)
        return not read if read is not None else self._is_action(name)

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

    def _finish(self, request: ToolCallRequest, plan: _Plan, result: Any) -> Any:
        if not isinstance(result, ToolMessage):
            return result
        record: dict[str, Any] = {} if plan.read is None else {"read": plan.read}
        if plan.key is not None:
            record.update(idempotency_key=plan.key, args=plan.args)
        if plan.remember:
            record["runs_once"] = True  # its first result answers its repeats, also in later turns
        if plan.edited:
            record["event"] = {"event": "edited", "tool": result.name, "args": plan.args}
        ok = result.status != "error"
        if not ok and plan.policy is not None and "event" not in record:
            record["event"] = {"event": "tool_error", "tool": result.name, "message": _text(result)}
        update: dict[str, Any] = {}
        if plan.policy is not None and plan.policy.untrusted_output:  # errors too: they can carry the injection
            original = result.content if isinstance(result.content, str) else as_text(result.content)
            flags = self.detector.find(original)
            record["original"] = original
            record["untrusted"] = True
            if flags:
                record["flags"] = [f.as_dict() for f in flags]
                record["event"] = {"event": "injection_flagged", "tool": result.name, "flags": record["flags"]}
            update["content"] = frame(result.name or "tool", neutralize(original, flags, self.neutralize_mode), flags)
            self._remember(request, "tainted", True)
        if ok and plan.remember and plan.key is not None:
            self._remember(request, plan.key, result)
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

    def _first_result(self, request: ToolCallRequest, key: str, thread: bool) -> ToolMessage | None:
        """The first successful result of the call with this key: in this run (a `once` tool's
        reach), or with `thread` anywhere in the thread, its trimmed messages included."""
        state = request.state if isinstance(request.state, Mapping) else {}
        for m in list(state.get("messages") or []) if thread else _current_turn(state):
            if isinstance(m, ToolMessage) and _first_of(m) == key:
                return m
        ran = (state.get(RAN_KEY) or {}).get(key) if thread else None
        if isinstance(ran, Mapping):
            return ToolMessage(content=ran["content"], tool_call_id=ran["tool_call_id"], name=ran["tool"],
                               response_metadata={GUARD_KEY: ran["record"]})
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


def _first_of(message: ToolMessage) -> str | None:
    """The idempotency key of a call this message is the successful first result of, else None."""
    record = guard_record(message)
    return record.get("idempotency_key") if message.status != "error" and not record.get("repeat") else None


def _ran(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The thread's ledger (`RAN_KEY`) with the first results its messages add, or None if none."""
    ran = dict(state.get(RAN_KEY) or {})
    size = len(ran)
    for m in state.get("messages") or []:
        key = _first_of(m) if isinstance(m, ToolMessage) and guard_record(m).get("runs_once") else None
        if key is not None and key not in ran:
            ran[key] = {"tool": m.name, "tool_call_id": m.tool_call_id, "content": _text(m),
                        "record": guard_record(m)}
    if len(ran) == size:
        return None
    return dict(list(ran.items())[-_MAX_RAN:])


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
        f"Not run again: {name} already ran with these arguments in this conversation (the tool guard "
        f"runs an action once per arguments). Its first result follows.\n{_text(first)}"
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
