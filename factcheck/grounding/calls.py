"""Which call of a repeated tool a claim names: by the arguments it ran with, or the key it returned."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from factcheck.grounding.verdicts import evidence_of
from factcheck.report import Fact

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Located
    from factcheck.grounding.flat import Leaf

_SHORTEST_NAME = 2
"""Shortest argument string that names its call ("MSFT", "68"); one character names nothing."""


def _arg_values(args: Any) -> set[str]:
    """The strings and numbers a call ran with, lower case (nested lists and mappings read too)."""
    out: set[str] = set()
    stack = [args]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int | float | str):
            text = str(value).strip().lower()
            if len(text) >= _SHORTEST_NAME:
                out.add(text)
    return out


def _said(text: str, value: str) -> bool:
    """Whether `value` stands in `text` as a whole word or number (not "68" inside "168")."""
    return value in text and re.search(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", text) is not None


def named_calls(index: EvidenceIndex, text: str, name: str | None) -> tuple[set[int], set[int]]:
    """The calls of tool `name` whose own arguments or record key `text` (lower case) says, and the others.

    A value every call of the tool ran with ("tax_rate": 20 in each) names none of them.

    Returns:
        (calls named, calls of the same tool not named).
    """
    calls = [c for c in index.calls if c.name == name and c.status != "error"]
    values = {c.index: _arg_values(c.args) | set(index.record_keys(c.index)) for c in calls}
    named = set()
    for call, own in values.items():
        others = set().union(*(v for i, v in values.items() if i != call))
        if any(_said(text, v) for v in own - others):
            named.add(call)
    return named, {c.index for c in calls} - named


def other_call_value(index: EvidenceIndex, fact: Fact, matches: list[Located], text: str) -> list[Leaf] | None:
    """The value the named call gives for the field a match found in another call of the same tool.

    In "The price of Microsoft's stock (MSFT) is $150.75", 150.75 is the `price` of
    `get_stock_price(symbol="AAPL")`; the claim names the call with `symbol="MSFT"`, whose
    `price` is 216.25: the answer took the value from the wrong call.

    Args:
        index: The run's evidence.
        fact: The fact its matches back.
        matches: Where the fact's value was found.
        text: The claim's text (or the clause of the fact), lower case.

    Returns:
        (the named call's leaf, the match's leaf) when the fact's value is another call's; else None.
    """
    for loc in matches:
        leaf = loc.leaf
        if leaf.source != "tool" or leaf.path.startswith("args") or leaf.count or not leaf.numeric:
            return None  # a number inside a string ("476 Maple Drive") is part of a name, not a field's value
    tools = {index.calls[loc.leaf.index].name for loc in matches}
    if len(tools) != 1:
        return None
    named, _ = named_calls(index, text, next(iter(tools)))
    if len(named) != 1 or any(loc.leaf.index in named for loc in matches):
        return None
    call = next(iter(named))
    for loc in matches:
        own = index.leaf_at(call, loc.leaf.path)
        if own is not None and own.text != loc.leaf.text:
            return [own, loc.leaf]
    return None


def wrong_call_evidence(index: EvidenceIndex, leaves: list[Leaf]) -> tuple[str, list[Any]]:
    """The reason and evidence of a value taken from another call: the named call's value first."""
    own, other = leaves
    tool = index.calls[own.index].name
    reason = (f"{tool} call {own.index + 1}, the one the answer names, gives {own.text} for {own.path}; "
              f"{other.text} is call {other.index + 1}'s")
    return reason, [evidence_of(own, index), evidence_of(other, index)]
