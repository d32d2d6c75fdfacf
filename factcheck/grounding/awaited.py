"""A state the run's one record still awaits (`Pending manager approval`), against an answer that says it done."""

from __future__ import annotations

import re

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.lexicon import field_name
from factcheck.report import Fact

_STEM = 6
"""Letters of an English word that stand for its stem ("approv" of approved and approval)."""
_HAN = re.compile(r"[\u4e00-\u9fff]{2}")
"""Two Chinese characters: a word of a status said in Chinese (确认 of 已确认)."""
_LATIN_WORD = re.compile(r"[a-z]{5,}")
"""An English word long enough to have a stem worth comparing."""
_AWAITING = re.compile(r"(?<![a-z])(?:pending|awaiting|waiting)(?:[\s_-]+(?:for|on))?[\s_-]+(?=[a-z])|待|等待")
"""A status value that awaits the words right after it (`awaiting_manager_approval`, `pending_review`, 待审批); not
`pending (item modified)`, a record's state with a note of what was done."""
_NOT_STEMS = frozenset({"status"})
"""Stems that name no state ("Status: confirmed")."""


def awaited_state(index: EvidenceIndex, fact: Fact) -> Leaf | None:
    """The status field of the run's one record that states a status, when its value still awaits what the claim
    says done: `Pending manager approval` against "has been approved", `AWAITING_VENDOR_CONFIRMATION` against
    "confirmed by the vendor", 等待门店确认 against 已确认.

    The awaited word shares the claim's stem (its first `_STEM` letters; for Chinese, two characters). With several
    records, which one the claim speaks of the other checks tell.

    Args:
        index: The run's evidence.
        fact: A status or action said done.

    Returns:
        The status field's leaf, or None.
    """
    stated = {(s.call, s.leaf.path): s.leaf for s in index.record_statuses() if s.leaf.source == "tool"}
    if len(stated) != 1:
        return None
    leaf = next(iter(stated.values()))
    value = leaf.text.lower()
    if not index.lex.status_fields.search(field_name(leaf.path)) or (m := _AWAITING.search(value)) is None:
        return None  # a status field's value, not an error's text ("ERR_PENDING_ORDER: … until it is completed")
    awaited = value[m.end() :]
    stems = {w[:_STEM] for w in _LATIN_WORD.findall(awaited)}
    said = {w[:_STEM] for w in _LATIN_WORD.findall(fact.text.lower())} - _NOT_STEMS
    pairs = {fact.text[i : i + 2] for i in range(len(fact.text) - 1)}
    return leaf if said & stems or any(_HAN.fullmatch(p) and p in awaited for p in pairs) else None

