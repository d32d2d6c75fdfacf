"""Test settings: Hypothesis draws the same examples on every run, so a check's verdicts (and CI) are reproducible."""

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True)
settings.load_profile("deterministic")
