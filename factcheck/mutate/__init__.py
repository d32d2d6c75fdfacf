"""Mutation testing for the checker: realistic mistakes and meaning-preserving rewrites of real transcripts."""

from __future__ import annotations

from factcheck.mutate.driver import CLASSES, MISTAKES, REWRITES, mutate_cases
from factcheck.mutate.inputs import MutateInputError, read_inputs, write_cases

__all__ = ["CLASSES", "MISTAKES", "REWRITES", "MutateInputError", "mutate_cases", "read_inputs", "write_cases"]
