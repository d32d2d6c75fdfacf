"""Audit stored conversations: every assistant turn against the tool results stored before it."""

from __future__ import annotations

from typing import Any

__all__ = ["audit_conversation", "audit_dataset", "audit_line", "read_conversation"]


def __getattr__(name: str) -> Any:
    """Import on first use, so that `factcheck audit --help` loads neither the checker nor Ray."""
    if name == "audit_dataset":
        from factcheck.audit.ray_engine import audit_dataset

        return audit_dataset
    if name == "audit_line":
        from factcheck.audit.lines import audit_line

        return audit_line
    if name == "audit_conversation":
        from factcheck.audit.turns import audit_conversation

        return audit_conversation
    if name == "read_conversation":
        from factcheck.audit.messages import read_conversation

        return read_conversation
    raise AttributeError(f"module 'factcheck.audit' has no attribute {name!r}")
