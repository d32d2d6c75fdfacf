"""Which tools only read: the one fail-safe rule the guard and the fact-check retries share."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from factcheck.lexicon import load_lexicon


def action_matcher(
    read_tools: Iterable[str] = (), read_only: re.Pattern[str] | None = None
) -> Callable[[str], bool]:
    """Build a predicate telling whether a tool name may perform an action (fail safe).

    A tool is a read only when it is declared one: named in `read_tools`, or (the documented
    default) its name starts with one of the lexicon's read verbs (`read_only_tool_prefixes`:
    get, list, search, find, lookup, check, read, fetch, query, view, show, ...). Every other
    tool, known to the lexicon or not (`wire_money`, `drop_table`, `post_tweet`), is an
    action: it never runs twice. A `ToolPolicy(read=...)` overrides this for its tool (the
    guard asks it first).

    Args:
        read_tools: Exact names of tools declared to only read.
        read_only: Matches, at the start of a name, the read verbs; None: no default reads.

    Returns:
        A predicate on tool names: True for actions.
    """
    reads = frozenset(read_tools)

    def is_action(name: str) -> bool:
        if name in reads:
            return False
        return read_only is None or read_only.match(name) is None

    return is_action


@lru_cache(maxsize=1)
def default_read_verbs() -> re.Pattern[str]:
    """The shipped lexicons' read verbs (`read_only_tool_prefixes`) as a name-prefix pattern.

    Returns:
        The compiled pattern of `load_lexicon().read_only_tools`, loaded once.
    """
    return load_lexicon().read_only_tools
