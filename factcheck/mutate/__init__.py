"""Mutation testing for the checker: realistic mistakes and meaning-preserving rewrites of real transcripts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factcheck.mutate.driver import CLASSES, MISTAKES, REWRITES, mutate_cases

if TYPE_CHECKING:
    from factcheck.mutate.inputs import MutateInputError, read_inputs, write_cases

__all__ = ["CLASSES", "MISTAKES", "REWRITES", "MutateInputError", "mutate_cases", "read_inputs", "write_cases"]

_INPUTS = ("MutateInputError", "read_inputs", "write_cases")


def __getattr__(name: str) -> Any:
    """The readers and writer, imported on first use: they read histories as `audit` does (with the checker),
    which `factcheck mutate --help` need not load."""
    if name in _INPUTS:
        from factcheck.mutate import inputs

        return getattr(inputs, name)
    raise AttributeError(f"module 'factcheck.mutate' has no attribute {name!r}")
