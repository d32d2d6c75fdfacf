"""Which stated statuses may back a status claim: structured fields outrank prose and untrusted text."""

from __future__ import annotations

import re
from collections.abc import Sequence

from factcheck.grounding.flat import record_path
from factcheck.grounding.records import ToolRecord
from factcheck.grounding.status_evidence import StatusEvidence

_FIELD_VALUE = re.compile(r"[^\s.。!！?？,，;；:：]+(?:[ _-][^\s.。!！?？,，;；:：]+){0,2}")
"""A field value that is the status itself: up to three words, no sentence marks ("failed",
"not refunded", "已退款", "false")."""


def backing_statuses(pool: Sequence[StatusEvidence], calls: Sequence[ToolRecord]) -> list[StatusEvidence]:
    """The statuses of `pool` that may back or contradict a claim about their concept.

    A status read from prose (a free-text field such as a customer note, a whole text
    output) is dropped when a structured field (a value that is the status alone:
    `refund_status: "failed"`, `ok: false`) of the same record, or inside it, states the
    opposite. Everything an untrusted tool returned (`untrusted` calls: the guard framed
    it as outside data) counts as prose, and any structured field of a trusted call in
    the run outranks it. When no structured field disagrees, the pool stays as it is.

    Args:
        pool: Statuses stated about one concept, in call order.
        calls: The run's tool calls (their `untrusted` marks).

    Returns:
        The statuses that may decide, in the same order.
    """
    structured = [s for s in pool if _structured(s, calls)]
    if not structured:
        return list(pool)
    kept = []
    for status in pool:
        if status in structured:
            kept.append(status)
            continue
        untrusted = calls[status.call].untrusted if status.call < len(calls) else False
        record = record_path(status.leaf.path)
        outranked = any(
            s.polarity != status.polarity
            and (untrusted or s.call == status.call and _inside(record_path(s.leaf.path), record))
            for s in structured
        )
        if not outranked:
            kept.append(status)
    return kept


def _structured(status: StatusEvidence, calls: Sequence[ToolRecord]) -> bool:
    if status.call < len(calls) and calls[status.call].untrusted:
        return False
    leaf = status.leaf
    return bool(leaf.path) and (leaf.numeric or _FIELD_VALUE.fullmatch(leaf.text.strip()) is not None)


def _inside(path: str, record: str) -> bool:
    return not record or path == record or path.startswith(record + ".") or path.startswith(record + "[")
