"""The report's view of evidence, and setting a fact's verdict."""

from __future__ import annotations

from factcheck.grounding.evidence import EvidenceIndex, Leaf
from factcheck.report import Evidence, Fact, Verdict

_SHOW = 120
"""Longest evidence text shown in a report (longer text is cut with an ellipsis)."""


def evidence_of(leaf: Leaf, index: EvidenceIndex, note: str | None = None) -> Evidence:
    """The report's view of a leaf."""
    text = leaf.text if len(leaf.text) <= _SHOW else leaf.text[: _SHOW - 1] + "…"
    if leaf.source == "context":
        return Evidence(source="context", index=leaf.index, path=leaf.path, text=text, note=note)
    call = index.calls[leaf.index]
    return Evidence(
        source="tool", index=leaf.index, tool_name=call.name, tool_status=call.status,  # type: ignore[arg-type]
        path=leaf.path, text=text, note=note,
    )


Backing = tuple[str, str, list[Evidence]]
"""(code, reason, evidence) of a supported number."""


def set_verdict(fact: Fact, verdict: Verdict, code: str, reason: str, evidence: list[Evidence]) -> None:
    """Set a fact's verdict, its code, the reason a person reads and the evidence."""
    fact.verdict, fact.code, fact.reason, fact.evidence = verdict, code, reason, evidence
