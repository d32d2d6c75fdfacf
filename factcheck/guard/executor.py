"""`SafeToolExecutor`: the one checked way a plain agent loop runs the model's tool calls."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from factcheck.guard.policy import ToolPolicy, check_policies, limit_refusal, permission_refusal
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

OutcomeStatus = Literal["ok", "retry", "denied", "needs_confirmation", "failed"]
"""`ok`: ran (or a repeat got the first result); `retry`: the model should fix its call (unknown
tool, invalid arguments, a limit); `denied`: not permitted, do not retry; `needs_confirmation`:
waiting for a person (`confirm(preview)` runs it); `failed`: the tool raised, contained."""

RecordStatus = Literal["ok", "retry", "denied", "needs_confirmation", "failed", "rejected"]
"""An outcome status, or `rejected` when a person turned a confirmation down."""


@dataclass
class ToolSpec:
    """A tool the executor may run: its function, argument model and policy."""

    name: str
    """Name the model calls it by."""
    func: Callable[..., Any]
    """Called with the validated arguments as keywords."""
    args_model: type[BaseModel] | None = None
    """Pydantic model of the arguments; derived from the signature when None."""
    policy: ToolPolicy | None = None
    """Its policy; the executor's `policies[name]` when None."""

    def __post_init__(self) -> None:
        if not callable(self.func) or inspect.iscoroutinefunction(self.func):
            raise TypeError(f"tool {self.name!r} must be a plain (not async) callable")
        if self.args_model is None:
            self.args_model = args_model_of(self.func, self.name)


def args_model_of(func: Callable[..., Any], name: str) -> type[BaseModel]:
    """A pydantic model of a function's keyword arguments, from its type hints.

    Unknown argument names are refused (`extra="forbid"`): a field the model invented is
    an error it can fix, not a crash inside the tool.

    Args:
        func: The tool function.
        name: Tool name (names the model).

    Returns:
        The argument model.
    """
    hints = get_type_hints(func)
    fields: dict[str, Any] = {}
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (hints.get(param.name, Any), default)
    return create_model(f"{name}_args", __config__=ConfigDict(extra="forbid"), **fields)


@dataclass
class GuardRecord:
    """One call the executor saw, whatever became of it."""

    seq: int
    """Order of the call within the ledger."""
    name: str
    """Tool name, as the model gave it."""
    args: Any
    """Arguments as validated (or as the model gave them when they were invalid); after a
    confirmation with edits, the edited ones."""
    status: RecordStatus
    """What became of it; only `ok` counts as executed."""
    output: Any = None
    """The tool's original result (untrusted outputs unframed), or the refusal or error text."""
    idempotency_key: str | None = None
    """Key of a call that passed validation."""
    repeat: bool = False
    """A repeat that got the first result back instead of running again (a `once` tool's, or
    any action's under the default repeat guard)."""
    flags: list[dict[str, Any]] = field(default_factory=list)
    """Instruction-like text found in an untrusted output."""

    def as_tool_call(self) -> dict[str, Any]:
        """The call as a `check()` `tool_calls` mapping: only `ok` calls have status `ok`."""
        return {
            "name": self.name,
            "args": self.args,
            "output": self.output,
            "status": "ok" if self.status == "ok" else "error",
        }


class GuardLedger(Sequence[dict[str, Any]]):
    """The executor's record of every call; pass it to `check(answer, tool_calls=ledger)`.

    Iterating gives `check()` mappings: refused, rejected, failed and unconfirmed calls have
    status `error` and their refusal as output, so an answer that claims them is contradicted.
    """

    def __init__(self) -> None:
        self.records: list[GuardRecord] = []
        """Every call, in order."""

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [r.as_tool_call() for r in self.records[index]]
        return self.records[index].as_tool_call()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter([r.as_tool_call() for r in self.records])

    def executed(self) -> list[GuardRecord]:
        """The calls that really ran (repeats excluded)."""
        return [r for r in self.records if r.status == "ok" and not r.repeat]

    def add(self, **fields: Any) -> GuardRecord:
        """Append a record."""
        record = GuardRecord(seq=len(self.records), **fields)
        self.records.append(record)
        return record


class ToolOutcome(BaseModel):
    """What `SafeToolExecutor.execute` did with one call."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    status: OutcomeStatus
    """See `OutcomeStatus`."""
    name: str
    """Tool name."""
    args: Any = None
    """The validated (or, when invalid, the given) arguments."""
    result: Any = None
    """For `ok`: what the model should read (an untrusted output framed as data)."""
    error: str | None = None
    """For `retry`, `denied`, `needs_confirmation` and `failed`: the text for the model."""
    preview: dict[str, Any] | None = None
    """For `needs_confirmation`: `{"token", "tool", "args", "reason"}` to show a person."""
    idempotency_key: str | None = None
    """The call's key, for tools that pass it to an idempotent API."""
    repeat: bool = False
    """A repeat that got its first result back without running again (see `GuardRecord.repeat`)."""
    flags: list[dict[str, Any]] = []
    """Instruction-like text found in an untrusted output."""


class SafeToolExecutor:
    """Runs the model's tool calls through one boundary: allowlist, schema, permission, limits,
    confirmation, contained errors, untrusted-output framing; records all in a `GuardLedger`.

    One executor is one run: `once` tools run at most once per distinct arguments in it,
    and an untrusted read makes `once` tools wait for confirmation until `new_run()`. By
    default every tool that is not a read (`ToolPolicy(read=True)`, `read_tools`, or a name
    starting with one of the lexicon's read verbs) runs at most once per distinct arguments
    in a run too, a repeat getting the first result back; `repeat_guard=False` or
    `ToolPolicy(repeatable=True)` opts out.

    Example:
        ```python
        executor = SafeToolExecutor([query_user, delete_orders], policies={"delete_orders": ToolPolicy(
            permission="orders:delete", limits={"order_ids": 500}, confirm=True)}, permissions={"orders:read"})
        outcome = executor.execute("delete_orders", {"order_ids": ["1"]})
        report = check(answer, tool_calls=executor.ledger)
        ```
    """

    def __init__(
        self,
        tools: Sequence[Callable[..., Any] | ToolSpec] | Mapping[str, Callable[..., Any] | ToolSpec],
        policies: Mapping[str, ToolPolicy] | None = None,
        permissions: Collection[str] = (),
        *,
        read_tools: Collection[str] = (),
        repeat_guard: bool = True,
        detector: InjectionDetector | None = None,
        neutralize_mode: Neutralize = "redact",
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """Declare the tools.

        Args:
            tools: Functions (named by `__name__`), `ToolSpec`s, or a name -> either mapping.
            policies: Tool name -> policy; a `ToolSpec.policy` takes precedence.
            permissions: The caller's permissions, unless `execute`'s context gives its own.
            read_tools: Names of tools that only read (as `ToolPolicy(read=True)`).
            repeat_guard: Give an identical repeat of any tool that is not a read its first
                result instead of running it; False leaves that to `once`.
            detector: Instruction-like text detector; the shipped en + zh lexicon when None.
            neutralize_mode: What flagged spans become before the model reads them.
            on_event: Called with a JSON-ready dict for every refusal, repair and flag.

        Raises:
            ValueError: two tools share a name, a policy names no tool, or `neutralize_mode`
                is unknown.
            TypeError: a tool is not a plain callable, or a policy not a `ToolPolicy`.
        """
        items = tools.items() if isinstance(tools, Mapping) else ((None, t) for t in tools)
        self.tools: dict[str, ToolSpec] = {}
        """Declared tools by name."""
        for name, item in items:
            spec = item if isinstance(item, ToolSpec) else ToolSpec(name or item.__name__, item)
            if name is not None and spec.name != name:
                spec = ToolSpec(name, spec.func, spec.args_model, spec.policy)
            if spec.name in self.tools:
                raise ValueError(f"two tools are named {spec.name!r}")
            self.tools[spec.name] = spec
        policies = check_policies(policies or {})
        unknown = set(policies) - set(self.tools)
        if unknown:
            raise ValueError(f"policies name tools that are not declared: {sorted(unknown)}")
        self.policies = {n: s.policy or policies.get(n) or ToolPolicy() for n, s in self.tools.items()}
        """Effective policy of each tool."""
        self.permissions = frozenset(permissions)
        """Default caller permissions."""
        is_action = action_matcher(read_tools, default_read_verbs())
        self.repeat_guarded = frozenset(
            name for name, policy in self.policies.items()
            if repeat_guard and not policy.repeatable and (
                not policy.read if policy.read is not None else is_action(name)
            )
        )
        """Tools whose identical repeats in a run get the first result back (besides `once` ones)."""
        self.detector = detector or default_detector()
        self.neutralize_mode: Neutralize = check_mode(neutralize_mode)
        self.on_event = on_event
        self.ledger = GuardLedger()
        """Every call of this run."""
        self.events: list[dict[str, Any]] = []
        """Every refusal, repair and flag, as `on_event` got them."""
        self._tokens = itertools.count(1)
        self._pending: dict[str, GuardRecord] = {}
        self._done: dict[str, GuardRecord] = {}
        self.untrusted_read = False
        """Whether this run has read an untrusted output (side-effecting tools then need confirmation)."""

    def new_run(self) -> None:
        """Start a new run: a fresh ledger, no memory of what ran (repeats), no untrusted read."""
        self.ledger = GuardLedger()
        self.events = []
        self._pending.clear()
        self._done.clear()
        self.untrusted_read = False

    def execute(self, name: str, raw_args: Any, context: Any = None) -> ToolOutcome:
        """Check one tool call of the model and run it if it passes.

        Args:
            name: Tool name the model gave.
            raw_args: Arguments the model gave (a mapping; anything else is a `retry`).
            context: Passed to `validate` rules; its `permissions` (attribute or key)
                replace the executor's.

        Returns:
            The typed outcome; the call is in `ledger` whatever it is.
        """
        spec = self.tools.get(name)
        if spec is None:
            known = ", ".join(sorted(self.tools))
            return self._refuse(name, raw_args, "retry", f"Unknown tool {name!r}; use one of: {known}.", "unknown_tool")
        policy = self.policies[name]
        refusal = permission_refusal(name, policy, self._permissions(context))
        if refusal is not None:
            return self._refuse(name, raw_args, "denied", refusal.message, "permission")
        if not isinstance(raw_args, Mapping):
            message = f"Arguments of {name} must be a JSON object, not {type(raw_args).__name__}. Fix and try again."
            return self._refuse(name, raw_args, "retry", message, "invalid_args")
        try:
            args = spec.args_model.model_validate(dict(raw_args)).model_dump()  # type: ignore[union-attr]
        except ValidationError as exc:
            return self._refuse(name, raw_args, "retry", _validation_message(name, exc), "invalid_args")
        refusal = limit_refusal(name, policy, args, context)
        if refusal is not None:
            return self._refuse(name, args, "retry", refusal.message, "limit")
        key = policy.key_for(name, args)
        if self._guards(name) and key in self._done:
            return self._repeat(self._done[key], key)
        if policy.confirm or (policy.once and self.untrusted_read):
            return self._hold(name, args, key, policy)
        return self._run(spec, policy, args, key)

    def confirm(
        self, preview: Mapping[str, Any], args: Mapping[str, Any] | None = None, context: Any = None
    ) -> ToolOutcome:
        """Run a call a person approved, optionally with edited arguments (checked again).

        Args:
            preview: The `preview` of a `needs_confirmation` outcome of this run.
            args: Edited arguments; the previewed ones when None.
            context: As for `execute`.

        Returns:
            The outcome of running it (edited arguments that fail a check give `retry`).

        Raises:
            KeyError: the preview is not pending in this run (unknown, or already answered).
        """
        record = self._pending.pop(str(preview.get("token")), None)
        if record is None:
            raise KeyError(f"no pending confirmation {preview.get('token')!r} in this run")
        spec, policy = self.tools[record.name], self.policies[record.name]
        raw = dict(record.args if args is None else args)
        try:
            checked = spec.args_model.model_validate(raw).model_dump()  # type: ignore[union-attr]
        except ValidationError as exc:
            return self._settle(record, "retry", _validation_message(record.name, exc), raw)
        refusal = limit_refusal(record.name, policy, checked, context) or permission_refusal(
            record.name, policy, self._permissions(context)
        )
        if refusal is not None:
            return self._settle(record, "retry" if refusal.retryable else "denied", refusal.message, checked)
        key = policy.key_for(record.name, checked)
        if self._guards(record.name) and key in self._done:
            return self._repeat(self._done[key], key, record)
        return self._run(spec, policy, checked, key, record)

    def reject(self, preview: Mapping[str, Any], reason: str | None = None) -> ToolOutcome:
        """Turn a pending call down: it never runs and counts as not executed.

        Args:
            preview: The `preview` of a `needs_confirmation` outcome of this run.
            reason: The person's reason, told to the model.

        Returns:
            A `denied` outcome whose error says the user rejected the call.

        Raises:
            KeyError: the preview is not pending in this run.
        """
        record = self._pending.pop(str(preview.get("token")), None)
        if record is None:
            raise KeyError(f"no pending confirmation {preview.get('token')!r} in this run")
        message = f"Rejected by the user: {record.name} was not run."
        message += f" Reason: {reason}" if reason else " Do not retry it unless the user asks."
        record.status, record.output = "rejected", message
        self._emit("rejected", record.name, message)
        return ToolOutcome(status="denied", name=record.name, args=record.args, error=message)

    def _guards(self, name: str) -> bool:
        """Whether an identical repeat of this tool in the run gets the first result back."""
        return self.policies[name].once or name in self.repeat_guarded

    def _permissions(self, context: Any) -> Collection[str]:
        found = context.get("permissions") if isinstance(context, Mapping) else getattr(context, "permissions", None)
        return self.permissions if found is None else frozenset(found)

    def _refuse(self, name: str, args: Any, status: OutcomeStatus, message: str, code: str) -> ToolOutcome:
        self.ledger.add(name=name, args=args, status=status, output=message)
        self._emit(code, name, message)
        return ToolOutcome(status=status, name=name, args=args, error=message)

    def _settle(self, record: GuardRecord, status: RecordStatus, message: str, args: Any) -> ToolOutcome:
        record.status, record.output, record.args = status, message, args
        self._emit("confirmation_" + status, record.name, message)
        return ToolOutcome(status=status, name=record.name, args=args, error=message)  # type: ignore[arg-type]

    def _hold(self, name: str, args: dict[str, Any], key: str, policy: ToolPolicy) -> ToolOutcome:
        reason = (
            "it needs a person's approval"
            if policy.confirm
            else "it has side effects and this run has read untrusted content"
        )
        message = f"Not run yet: {name} waits for confirmation because {reason}."
        token = f"confirm-{next(self._tokens)}"
        record = self.ledger.add(name=name, args=args, status="needs_confirmation", output=message, idempotency_key=key)
        self._pending[token] = record
        self._emit("needs_confirmation", name, message)
        preview = {"token": token, "tool": name, "args": args, "reason": reason}
        return ToolOutcome(status="needs_confirmation", name=name, args=args, error=message, preview=preview,
                           idempotency_key=key)

    def _repeat(self, first: GuardRecord, key: str, held: GuardRecord | None = None) -> ToolOutcome:
        self._record(held, name=first.name, args=first.args, status="ok", output=first.output, idempotency_key=key,
                     repeat=True)
        self._emit("repeat", first.name, f"{first.name} already ran with these arguments; its first result reused")
        result = self._model_view(first.name, first.output, self.policies[first.name], record_flags=False)[0]
        return ToolOutcome(status="ok", name=first.name, args=first.args, result=result, idempotency_key=key,
                           repeat=True)

    def _run(
        self, spec: ToolSpec, policy: ToolPolicy, args: dict[str, Any], key: str, held: GuardRecord | None = None
    ) -> ToolOutcome:
        try:
            output = spec.func(**args)
        except Exception as exc:
            message = f"{spec.name} failed and did not complete: {type(exc).__name__}: {exc}"
            self._record(held, name=spec.name, args=args, status="failed", output=message, idempotency_key=key)
            self._emit("tool_error", spec.name, message)
            shown, flags = self._model_view(spec.name, message, policy)  # an error can carry an injection too
            return ToolOutcome(status="failed", name=spec.name, args=args, error=shown, idempotency_key=key,
                               flags=flags)
        result, flags = self._model_view(spec.name, output, policy)
        record = self._record(held, name=spec.name, args=args, status="ok", output=output, idempotency_key=key,
                              flags=flags)
        if self._guards(spec.name):
            self._done[key] = record
        return ToolOutcome(status="ok", name=spec.name, args=args, result=result, idempotency_key=key, flags=flags)

    def _record(self, held: GuardRecord | None, **fields: Any) -> GuardRecord:
        """A new ledger record, or the held (confirmed) one updated in its place."""
        if held is None:
            return self.ledger.add(**fields)
        for name, value in fields.items():
            setattr(held, name, value)
        return held

    def _model_view(self, name: str, output: Any, policy: ToolPolicy, record_flags: bool = True) -> tuple[Any, list]:
        if not policy.untrusted_output:
            return output, []
        text = as_text(output)
        found = self.detector.find(text)
        flags = [f.as_dict() for f in found]
        if record_flags:
            self.untrusted_read = True
            if flags:
                self._emit("injection_flagged", name, f"{len(flags)} instruction-like passage(s)", flags=flags)
        return frame(name, neutralize(text, found, self.neutralize_mode), found), flags

    def _emit(self, code: str, tool: str, message: str, **extra: Any) -> None:
        event = {"event": code, "tool": tool, "message": message, **extra}
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)


def _validation_message(name: str, exc: ValidationError) -> str:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors(include_url=False)
    )
    return f"Invalid arguments for {name}: {problems}. Fix the arguments and try again."
