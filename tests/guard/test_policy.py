"""ToolPolicy limits, permissions and idempotency keys."""

from __future__ import annotations

from typing import Any

import pytest

from factcheck.guard import ToolPolicy, idempotency_key, limit_refusal, permission_refusal


@pytest.mark.parametrize(
    ("limits", "args", "problem"),
    [
        ({"order_ids": 20}, {"order_ids": list(range(21))}, "order_ids has 21 items, at most 20 allowed"),
        ({"order_ids": 20}, {"order_ids": list(range(20))}, None),
        ({"note": 5}, {"note": "abcdef"}, "note has 6 characters, at most 5 allowed"),
        ({"amount": (0, 500)}, {"amount": 500}, None),
        ({"amount": (0, 500)}, {"amount": 500.01}, "amount = 500.01 is outside [0, 500]"),
        ({"amount": (0, 500)}, {"amount": -1}, "amount = -1 is outside [0, 500]"),
        ({"amount": (None, 10)}, {"amount": -1000}, None),
        ({"amount": (0, 500)}, {"amount": "lots"}, None),  # not a number: the schema's to answer
        ({"amounts": (0, 5)}, {"amounts": [1, 9]}, "amounts = 9 is outside [0, 5]"),
        ({"amount": (0, 500)}, {"amount": float("nan")}, "amount = NaN is not a finite number"),
        ({"amount": (0, 500)}, {"amount": float("inf")}, "amount = Infinity is not a finite number"),
        ({"fields": {"name", "email"}}, {"fields": ["name", "password"]}, "fields value 'password' is not one of"),
        ({"fields": ["name", "email"]}, {"fields": ["name"]}, None),
        ({"region": frozenset({"eu"})}, {"region": "us"}, "region value 'us' is not one of 'eu'"),
        ({"order_ids": 2}, {}, None),  # an absent argument breaks no bound
    ],
)
def test_limits(limits: dict, args: dict, problem: str | None) -> None:
    refusal = limit_refusal("tool", ToolPolicy(limits=limits), args)
    if problem is None:
        assert refusal is None
    else:
        assert refusal is not None and refusal.kind == "limit" and refusal.retryable
        assert problem in refusal.message and "try again" in refusal.message


def own_orders(args: Any, runtime: Any) -> Any:
    mine = set(runtime["orders"])
    foreign = [o for o in args["order_ids"] if o not in mine]
    return f"orders {foreign} are not the caller's" if foreign else None


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (own_orders, "orders ['9'] are not the caller's"),
        (lambda args, runtime: True, None),
        (lambda args, runtime: False, "a business rule refused the arguments"),
        (lambda args, runtime: (_ for _ in ()).throw(ValueError("closed account")), "closed account"),
    ],
)
def test_validate_rule_sees_args_and_runtime(rule: Any, problem: str | None) -> None:
    policy = ToolPolicy(validate=rule)
    refusal = limit_refusal("delete_orders", policy, {"order_ids": ["1", "9"]}, {"orders": ["1", "2"]})
    assert (refusal is None) == (problem is None)
    if problem:
        assert problem in refusal.message


@pytest.mark.parametrize(
    ("permission", "held", "allowed"),
    [(None, [], True), ("orders:delete", ["orders:delete"], True), ("orders:delete", ["orders:read"], False)],
)
def test_permission(permission: str | None, held: list[str], allowed: bool) -> None:
    refusal = permission_refusal("delete_orders", ToolPolicy(permission=permission), held)
    assert (refusal is None) == allowed
    if not allowed:
        assert refusal.kind == "permission" and not refusal.retryable and "Do not retry" in refusal.message


def test_idempotency_key_is_canonical_and_distinct() -> None:
    assert idempotency_key("pay", {"a": 1, "b": [1, 2]}) == idempotency_key("pay", {"b": [1, 2], "a": 1})
    assert idempotency_key("pay", {"a": 1}) != idempotency_key("pay", {"a": 2})
    assert idempotency_key("pay", {"a": 1}) != idempotency_key("refund", {"a": 1})
    custom = ToolPolicy(idempotency_key=lambda name, args: f"{name}-{args['order']}")
    assert custom.key_for("pay", {"order": 7, "note": "x"}) == "pay-7"


@pytest.mark.parametrize("bound", [True, (1, 2, 3)])
def test_a_malformed_limit_is_a_clear_error(bound: object) -> None:
    with pytest.raises(ValueError, match="limit of 'flag' must be"):
        ToolPolicy(limits={"flag": bound})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"once": True, "read": True}, "once and read contradict"),
        ({"once": True, "repeatable": True}, "once and repeatable contradict"),
    ],
)
def test_a_contradictory_declaration_is_a_clear_error(fields: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ToolPolicy(**fields)


@pytest.mark.parametrize(
    "fields", [{"read": True}, {"read": False, "once": True}, {"repeatable": True}, {"read": True, "repeatable": True}]
)
def test_declarations_that_agree_are_accepted(fields: dict) -> None:
    policy = ToolPolicy(**fields)
    assert {name: getattr(policy, name) for name in fields} == fields
