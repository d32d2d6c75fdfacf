"""Configuration for the fact checker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_MIN_CONFIDENCE = 0.7
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
    verifier: Any = None
    """A second opinion on the claims the checks are unsure of: a LangChain chat model (asked through
    `with_structured_output` for a verdict and a reason, given only the located evidence excerpts and the
    records the claim binds to), or a callable `(claim, evidence) -> (verdict, confidence)` (an NLI scorer).
    None (default): no model is ever called. See `factcheck.verify`."""
    verify_between: tuple[float, float] = (0.2, 0.7)
    """The verifier is asked only about flagged claims whose confidence is in `[low, high)`: by default the
    uncertain ones (below `min_confidence`) that are not near-certain false alarms."""
    verify_max_claims: int = Field(default=3, ge=0)
    """At most this many claims of one answer go to the verifier (the most confident first)."""
    verify_timeout: float = Field(default=20.0, gt=0)
    """Seconds to wait for the verifier's answers on one answer; a late answer keeps the checks' verdict."""

    @model_validator(mode="after")
    def _band_in_order(self) -> CheckerConfig:
        low, high = self.verify_between
        if not 0 <= low <= high <= 1:
            raise ValueError(f"verify_between must be (low, high), 0 <= low <= high <= 1, not {self.verify_between}")
        return self
