"""`ToolPolicy`: what a tool call must satisfy before it runs, and the checks that apply it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Limit = int | tuple[float | int | None, float | int | None] | frozenset[Any] | set[Any] | list[Any]
"""A bound on one argument: an int is the most items of a list (or characters of a string),
a 2-tuple `(low, high)` an inclusive numeric range (None: unbounded on that side), and a
set, frozenset or list the allowed values (every item of a list argument must be one)."""

Validator = Callable[[Mapping[str, Any], Any], "bool | str | None"]
"""A business rule `validate(args, runtime)`: None or True passes; a str is the error the
model is told; False refuses with a generic message. A raised `ValueError` counts as its
message."""

RefusalKind = Literal["permission", "limit", "confirmation"]
"""Why the guard stopped a call: a missing permission (the model must not retry), a broken
limit or business rule (the model may fix the arguments and retry), or a confirmation that
could not be asked for."""


class ToolPolicy(BaseModel):
    """The guard's rules for one tool, shared by `ToolGuardMiddleware` and `SafeToolExecutor`.

    Example:
        ```python
        ToolPolicy(permission="orders:delete", limits={"order_ids": 20}, once=True, confirm=True)
        ```
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, extra="forbid")

    permission: str | None = None
    """Permission string the caller must hold (from `runtime.context` or the executor's set)."""
    limits: dict[str, Limit] = Field(default_factory=dict)
    """Argument name -> bound (see `Limit`), checked before the call runs."""
    validate_args: Validator | None = Field(default=None, alias="validate")
    """Business rule needing state (`validate(args, runtime)`), checked after the limits."""
    read: bool | None = None
    """True: the tool only reads, so it may run again with the same arguments and a fact-check
    retry may re-run it. False: an action whatever its name. None: its name decides (a read
    only when it starts with one of the lexicon's read verbs: get, list, search, ...)."""
    repeatable: bool = False
    """An action that may run again with the same arguments (a reminder, a poll): it opts out
    of the default repeat guard, which answers an identical repeat of any tool that is not a
    read with its first result."""
    once: bool = False
    """Side-effecting tool: runs at most once per distinct arguments in a run; a repeat gets
    the first result back, marked as a repeat; after an untrusted read it needs a person."""
    untrusted_output: bool = False
    """The tool returns outside content: its output reaches the model framed as data, with
    instruction-like text flagged and neutralised; once read, a `once` tool needs confirmation."""
    confirm: bool = False
    """A person approves, edits or rejects each call before it runs."""
    idempotency_key: Callable[[str, Mapping[str, Any]], str] | None = None
    """`key(tool_name, args)`; the default hashes the name and the canonical arguments."""

    @field_validator("limits", mode="before")
    @classmethod
    def _no_bool_limits(cls, limits: Any) -> Any:
        for arg, bound in dict(limits or {}).items():
            if isinstance(bound, bool) or isinstance(bound, tuple) and len(bound) != 2:
                raise ValueError(
                    f"limit of {arg!r} must be an int (most items), a (low, high) tuple or a set of "
                    f"allowed values, not {bound!r}"
                )
        return limits

    @model_validator(mode="after")
    def _no_contradiction(self) -> ToolPolicy:
        if self.once and (self.read is True or self.repeatable):
            other = "read" if self.read else "repeatable"
            raise ValueError(f"once and {other} contradict each other: a once tool never runs twice in a run")
        return self

    def key_for(self, name: str, args: Mapping[str, Any]) -> str:
        """The idempotency key of a call to this tool.

        Args:
            name: Tool name.
            args: The call's arguments (after any edit).

        Returns:
            The user's key, or `idempotency_key(name, args)`.
        """
        if self.idempotency_key is not None:
            return str(self.idempotency_key(name, args))
        return idempotency_key(name, args)


@dataclass(frozen=True)
class Refusal:
    """Why the guard did not run a call."""

    kind: RefusalKind
    """`permission`, `limit` or `confirmation`."""
    message: str
    """The text the model (and the report) gets."""

    @property
    def retryable(self) -> bool:
        """Whether the model may fix its arguments and call again."""
        return self.kind == "limit"


def check_policies(policies: Mapping[str, Any]) -> dict[str, ToolPolicy]:
    """Validate a tool name -> `ToolPolicy` mapping.

    Raises:
        TypeError: a value is not a `ToolPolicy`.
    """
    for name, policy in policies.items():
        if not isinstance(policy, ToolPolicy):
            raise TypeError(f"policy of {name!r} must be a ToolPolicy, not {type(policy).__name__}")
    return dict(policies)


def idempotency_key(name: str, args: Mapping[str, Any]) -> str:
    """A stable key for a call: SHA-256 of the tool name and the canonical JSON arguments.

    Args:
        name: Tool name.
        args: Arguments; key order does not matter.

    Returns:
        `name:` followed by 24 hex digits.
    """
    canonical = json.dumps(dict(args), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    digest = hashlib.sha256(f"{name}\x00{canonical}".encode()).hexdigest()
    return f"{name}:{digest[:24]}"


def permission_refusal(name: str, policy: ToolPolicy, permissions: Collection[str]) -> Refusal | None:
    """Refuse a call whose caller lacks the policy's permission.

    Args:
        name: Tool name.
        policy: The tool's policy.
        permissions: The caller's permission strings.

    Returns:
        A `permission` refusal, or None when allowed.
    """
    if policy.permission is None or policy.permission in permissions:
        return None
    return Refusal(
        "permission",
        f"Refused by the tool guard: the user is not allowed to run {name} (it needs the "
        f"{policy.permission!r} permission). The tool did not run. Do not retry this call; "
        "tell the user it is not permitted.",
    )


def limit_refusal(name: str, policy: ToolPolicy, args: Mapping[str, Any], runtime: Any = None) -> Refusal | None:
    """Check the policy's limits and business rule against a call's arguments.

    Args:
        name: Tool name.
        policy: The tool's policy.
        args: The call's arguments, already valid for the tool's schema.
        runtime: Passed to `validate` (the LangChain `ToolRuntime`, or the executor's context).

    Returns:
        A `limit` refusal naming every broken bound, or None.
    """
    problems = [p for arg, bound in policy.limits.items() if (p := _bound_problem(arg, bound, args)) is not None]
    if not problems and policy.validate_args is not None:
        problems.extend(_rule_problems(policy.validate_args, args, runtime))
    if not problems:
        return None
    return Refusal(
        "limit",
        f"Refused by the tool guard: {name} was not run because its arguments break a limit: "
        + "; ".join(problems)
        + ". Fix the arguments and try again.",
    )


def _bound_problem(arg: str, bound: Limit, args: Mapping[str, Any]) -> str | None:
    if arg not in args or args[arg] is None:
        return None
    value = args[arg]
    if isinstance(bound, int):
        if isinstance(value, (str, list, tuple, set, frozenset, dict)) and len(value) > bound:
            unit = "characters" if isinstance(value, str) else "items"
            return f"{arg} has {len(value)} {unit}, at most {bound} allowed"
        return None
    if isinstance(bound, tuple):
        low, high = bound
        for number in _numbers(value):
            if not number.is_finite():
                return f"{arg} = {number} is not a finite number"
            if low is not None and number < Decimal(str(low)) or high is not None and number > Decimal(str(high)):
                return f"{arg} = {number} is outside [{_shown(low)}, {_shown(high)}]"
        return None
    allowed = list(bound)
    values = value if isinstance(value, (list, tuple)) else [value]
    bad = [v for v in values if v not in allowed]
    if bad:
        return f"{arg} value {', '.join(repr(v) for v in bad)} is not one of {', '.join(repr(v) for v in allowed)}"
    return None


def _numbers(value: Any) -> Iterable[Decimal]:
    items = value if isinstance(value, (list, tuple)) else [value]
    for item in items:
        if isinstance(item, bool):
            continue
        try:
            yield Decimal(str(item))
        except InvalidOperation:
            continue  # not a number: the tool's schema answers it


def _shown(bound: float | int | None) -> str:
    return "-inf" if bound is None else str(bound)


def _rule_problems(rule: Validator, args: Mapping[str, Any], runtime: Any) -> list[str]:
    try:
        verdict = rule(args, runtime)
    except ValueError as exc:
        return [str(exc) or "a business rule refused the arguments"]
    if verdict is None or verdict is True:
        return []
    if verdict is False:
        return ["a business rule refused the arguments"]
    return [str(verdict)]
