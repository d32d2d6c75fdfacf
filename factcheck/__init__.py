"""factcheck: check an agent's final answer against the tool outputs of its run."""

from factcheck.checker import FactChecker, check
from factcheck.config import CheckerConfig
from factcheck.errors import CheckerFailure, FactCheckError, UnbackedActionError
from factcheck.langchain import with_fact_check  # noqa: E402  registers Runnable.with_fact_check
from factcheck.policy import apply_on_fail
from factcheck.report import Claim, Evidence, Fact, FactKind, Report, Verdict

__all__ = [
    "CheckerConfig",
    "CheckerFailure",
    "Claim",
    "Evidence",
    "Fact",
    "FactCheckError",
    "FactChecker",
    "FactKind",
    "Report",
    "UnbackedActionError",
    "Verdict",
    "apply_on_fail",
    "check",
    "with_fact_check",
]
