"""Configuration for the fact checker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_MIN_CONFIDENCE = 0.6
"""The default `CheckerConfig.min_confidence`: the lowest threshold at which out-of-fold false alarms
on the 950-case suite stay under 5% (cross-validated on the fitting data; see docs/calibration.md)."""


class CheckerConfig(BaseModel):
    """Settings of a `FactChecker`; load once, reuse for every answer."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    lexicon_paths: tuple[Path, ...] = ()
    """Extra lexicon JSON files merged over the shipped `zh` and `en` ones (see `factcheck/data`)."""
    nlp: Any = None
    """A spaCy `Language` to segment with instead of the blank pipelines (e.g. a trained model)."""
    max_output_chars: int = Field(default=4_000_000, gt=0)
    """Tool outputs longer than this are cut; the report says so in `notes`."""
    max_answer_chars: int = Field(default=20_000, gt=0)
    """Answers longer than this are checked up to it (cut at a space); the rest is unchecked
    and `notes` says so. Check time grows linearly with the part checked."""
    max_json_depth: int = Field(default=64, gt=0)
    """JSON nested deeper than this is kept as text below that depth; the report notes it."""
    fuzzy_cutoff: float = Field(default=60.0, ge=0, le=100)
    """rapidfuzz score (0-100) below which no evidence span is located for a claim."""
    name_cutoff: float = Field(default=90.0, ge=0, le=100)
    """rapidfuzz score (0-100) at which a name in the answer counts as the tool's spelling of it."""
    action_tools: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Action concept -> tool-name substrings that perform it; merged over the lexicon's map."""
    calibration_path: Path | None = None
    """A calibration table from `factcheck calibrate` that gives each flag its confidence; the shipped
    table (`factcheck/data/calibration.json`) when None."""
    min_confidence: float = Field(default=DEFAULT_MIN_CONFIDENCE, ge=0, le=1)
    """A flag whose confidence is below this is kept in the report as uncertain: it does not flag its
    claim, fail `Report.ok`, or trigger a retry, a drop or an annotation. 0 acts on every flag."""
    derive_arithmetic: bool = True
    """Back a number when it equals a sum or product of numbers in one tool output, or a
    duration equals the days between two backed dates of its claim."""
