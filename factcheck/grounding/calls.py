"""Which call of a repeated tool a claim names: by the arguments it ran with, or the key it returned."""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from factcheck.grounding.flat import scalars_of, shape_of
from factcheck.grounding.verdicts import evidence_of, set_verdict
from factcheck.report import Fact, Verdict

if TYPE_CHECKING:
    from factcheck.grounding.evidence import EvidenceIndex, Located
    from factcheck.grounding.flat import Leaf

_SHORTEST_NAME = 2
"""Shortest argument string that names its call ("MSFT", "68"); one character names nothing."""


def _arg_values(args: Any) -> set[str]:
    """The strings and numbers a call ran with, lower case (nested lists and mappings read too)."""
    texts = (str(v).strip().lower() for v in scalars_of(args)
             if isinstance(v, int | float | str) and not isinstance(v, bool))
    return {text for text in texts if len(text) >= _SHORTEST_NAME}


def said_whole(text: str, value: str) -> bool:
    """Whether `value` stands in `text` as a whole word or number (not "68" inside "168")."""
    return value in text and _whole(value).search(text) is not None


@lru_cache(maxsize=4096)
def _whole(value: str) -> re.Pattern[str]:
    """The regex of `said_whole` for one value (argument values repeat from claim to claim and run to run)."""
    return re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)")


def named_calls(index: EvidenceIndex, text: str, name: str | None) -> frozenset[int]:
    """The calls of tool `name` whose own arguments or record key `text` (lower case) says.

    A value every call of the tool ran with ("tax_rate": 20 in each) names none of them.
    """
    said = _NAMED.get(index)  # every number of a claim asks again, with the same clause or claim
    if said is None:
        said = _NAMED.setdefault(index, {})
    named = said.get((name, text))
    if named is None:
        named = said[(name, text)] = frozenset(
            call for call, own in _own_values(index, name).items() if any(said_whole(text, v) for v in own if v in text)
        )
    return named


_OWN_VALUES: weakref.WeakKeyDictionary[EvidenceIndex, dict[str | None, dict[int, tuple[str, ...]]]] = (
    weakref.WeakKeyDictionary()
)
"""Per run (its index, while it lives): tool name -> call -> the values only that call ran with or returned."""
_NAMED: weakref.WeakKeyDictionary[EvidenceIndex, dict[tuple[str | None, str], frozenset[int]]] = (
    weakref.WeakKeyDictionary()
)
"""Per run: (tool name, text) -> `named_calls`."""


def _own_values(index: EvidenceIndex, name: str | None) -> dict[int, tuple[str, ...]]:
    """Each successful call of tool `name`, with the argument values and record keys no other call of it has
    (worked out once per run and tool: every claim asks again)."""
    by_name = _OWN_VALUES.get(index)
    if by_name is None:
        by_name = _OWN_VALUES.setdefault(index, {})
    found = by_name.get(name)
    if found is None:
        calls = [c for c in index.calls if c.name == name and c.status != "error"]
        values = {c.index: _arg_values(c.args) | set(index.record_keys(c.index)) for c in calls}
        calls_with = Counter(v for own in values.values() for v in own)  # a value of one call only is its own
        found = by_name[name] = {call: tuple(v for v in own if calls_with[v] == 1) for call, own in values.items()}
    return found


def other_call_value(
    index: EvidenceIndex, matches: list[Located], clause: Callable[[], str], claim: Callable[[], str]
) -> list[Leaf] | None:
    """The value the named call gives for the field a match found in another call of the same tool.

    In "The price of Microsoft's stock (MSFT) is $150.75", 150.75 is the `price` of
    `get_stock_price(symbol="AAPL")`; the claim names the call with `symbol="MSFT"`, whose
    `price` is 216.25: the answer took the value from the wrong call.

    Args:
        index: The run's evidence.
        matches: Where the fact's value was found.
        clause: Gives the fact's clause, lower case (it decides when it names a call); read only when needed.
        claim: Gives the whole claim, lower case.

    Returns:
        (the named call's leaf, the match's leaf) when the fact's value is another call's; else None.
    """
    for loc in matches:
        leaf = loc.leaf
        if leaf.source != "tool" or leaf.path.startswith("args") or leaf.count or not leaf.numeric:
            return None  # a number inside a string ("476 Maple Drive") is part of a name, not a field's value
    tools = {index.calls[loc.leaf.index].name for loc in matches}
    calls = {loc.leaf.index for loc in matches}
    if len(tools) != 1 or _only_call(index, next(iter(tools)), calls) \
            or calls >= _own_values(index, next(iter(tools))).keys():
        return None  # one call of the tool, or every successful one holds the value: none gives it alone
    named = _named(index, clause, claim, next(iter(tools)))
    if len(named) != 1 or any(loc.leaf.index in named for loc in matches):
        return None
    call = next(iter(named))
    for loc in matches:
        own = index.leaf_at(call, loc.leaf.path) or _null_at(index, call, loc.leaf.path)
        if own is not None and own.text != loc.leaf.text:
            return [own, loc.leaf]
    return None


def _null_at(index: EvidenceIndex, call: int, path: str) -> Leaf | None:
    """A leaf saying `null` when the call's record has the field and it is null (`"approved_amount": null`: the
    claim under review has no approved amount; another claim's is not its)."""
    parent, _, field = path.rpartition(".")
    record = index.value_at(call, parent) if parent else index.value_at(call, "")
    if not isinstance(record, dict) or field not in record or record[field] is not None:
        return None
    return index.leaf(call, path, shape_of(path), "null")


def repeated_tool(index: EvidenceIndex) -> bool:
    """Whether some tool was called twice or more: else no value or token is another call's of its tool (the
    tool's one call is `_only_call`, or it failed and no call of the tool is named)."""
    names = [c.name for c in index.calls]
    return len(set(names)) < len(names)


def _only_call(index: EvidenceIndex, name: str | None, calls: set[int]) -> bool:
    """Whether `calls` are the one successful call of tool `name`: then no other call of it can be the one named."""
    ok = _own_values(index, name)  # the tool's successful calls (read once per run and tool)
    return len(ok) == 1 and calls <= ok.keys()


def _named(index: EvidenceIndex, clause: Callable[[], str], claim: Callable[[], str], name: str | None
           ) -> frozenset[int]:
    """The calls of tool `name` the clause names, else those the whole claim names (none, and neither is read,
    when no call of the tool has a value of its own)."""
    if not any(_own_values(index, name).values()):
        return frozenset()
    return named_calls(index, clause(), name) or named_calls(index, claim(), name)


def value_of_another_call(
    fact: Fact, matches: list[Located], index: EvidenceIndex, clause: Callable[[], str], claim: Callable[[], str]
) -> bool:
    """Contradict a number, date or time only another call of the same tool gives than the one named.

    Args:
        fact: The fact its matches would back.
        matches: Where its value was found.
        index: The run's evidence.
        clause: Gives the fact's clause, lower case (it decides when it names a call); read only when needed.
        claim: Gives the whole claim, lower case.

    Returns:
        Whether the fact was contradicted.
    """
    found = other_call_value(index, matches, clause, claim)
    if found is None:
        return False
    text = clause()
    at = text.rfind((fact.text or "").lower())
    if at > 0 and index.lex.comparison_markers.search(text, 0, at):
        return False  # "INV-2511 comes to $135.87, $21.67 more than October's $114.20": the compared record's value
    own, other = found
    tool = index.calls[own.index].name
    set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                f"{tool} call {own.index + 1}, the one the answer names, gives {own.text} for {own.path}; "
                f"{other.text} is call {other.index + 1}'s", [evidence_of(own, index), evidence_of(other, index)])
    return True


def token_of_another_call(
    fact: Fact, index: EvidenceIndex, clause: Callable[[], str], claim: Callable[[], str]
) -> bool:
    """Contradict an identifier or name found only in another call of the same tool than the one the clause
    names: "Your headphones (order #W7710233) … tracking 772015398644" where that number is in the output of
    `get_order_details("#W7710961")`.

    Args:
        fact: A backed identifier or name.
        index: The run's evidence.
        clause: Gives the fact's clause, lower case; read only when needed.
        claim: Gives the whole claim, lower case.

    Returns:
        Whether the fact was contradicted.
    """
    if fact.verdict != Verdict.SUPPORTED or not fact.evidence or fact.evidence[0].source != "tool":
        return False
    ev = fact.evidence[0]
    if ev.note is not None or index.is_record_key(ev.path) or ev.path.startswith("args"):
        return False
    name = index.calls[ev.index].name
    if _only_call(index, name, {ev.index}):
        return False
    named = _named(index, clause, claim, name)
    if len(named) != 1 or ev.index in named:
        return False
    call = next(iter(named))
    if (fact.value or fact.text).lower() in str(index.flats[call].value).lower():
        return False  # the named call holds it too
    keys = [leaf for k in sorted(index.record_keys(call)) if (leaf := index.find_token(k)) is not None]
    set_verdict(fact, Verdict.CONTRADICTED, "wrong_record",
                f"{fact.text} is in call {ev.index + 1}'s output, not in that of call {call + 1} ({name}), "
                f"the one the answer names", [ev, *(evidence_of(k, index) for k in keys[:1])])
    return True
