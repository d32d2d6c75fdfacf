"""The class names of `factcheck mutate`, importable without the classes (for the CLI's help and checks)."""

from __future__ import annotations

MISTAKE_NAMES: tuple[str, ...] = (
    "status_flip", "digit_change", "per_unit_as_total", "wrong_subset_total", "wrong_direction", "wrong_record",
    "wrong_selection", "wrong_count", "incomplete_coverage", "unbacked_action", "fabricated_reference",
    "user_claim_over_record",
)
"""Mistake classes, in the order of `factcheck.mutate.driver.MISTAKES`."""
REWRITE_NAMES: tuple[str, ...] = (
    "reorder", "number_format", "date_format", "status_synonym", "derived_value", "hedge", "numerals", "typography",
)
"""Meaning-preserving rewrite classes, in the order of `factcheck.mutate.driver.REWRITES`."""
CLASSES: tuple[str, ...] = (*MISTAKE_NAMES, *REWRITE_NAMES)
"""Every class name, mistakes first."""
