"""Tool outputs to evidence to verdicts."""
