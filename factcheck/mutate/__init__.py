"""Mutation testing for the checker: realistic mistakes and meaning-preserving rewrites of real transcripts."""

from __future__ import annotations

from typing import Any

from factcheck.mutate.names import CLASSES, MISTAKE_NAMES, REWRITE_NAMES

__all__ = ["CLASSES", "MISTAKES", "MISTAKE_NAMES", "REWRITES", "REWRITE_NAMES", "MutateInputError", "mutate_cases",
           "read_inputs", "write_cases"]


def __getattr__(name: str) -> Any:
    """Import on first use, so that `factcheck --help` loads none of the classes."""
    if name in ("MISTAKES", "REWRITES", "mutate_cases"):
        from factcheck.mutate import driver

        return getattr(driver, name)
    if name in ("MutateInputError", "read_inputs", "write_cases"):
        from factcheck.mutate import inputs

        return getattr(inputs, name)
    raise AttributeError(f"module 'factcheck.mutate' has no attribute {name!r}")
