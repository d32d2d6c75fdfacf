"""factcheck: check an agent's final answer against the tool outputs of its run."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from factcheck import runnable_hook

if TYPE_CHECKING:
    from factcheck.checker import FactChecker, check
    from factcheck.config import CheckerConfig
    from factcheck.errors import CheckerFailure, FactCheckError, UnbackedActionError
    from factcheck.langchain import with_fact_check
    from factcheck.policy import apply_on_fail
    from factcheck.report import Claim, Evidence, Fact, FactKind, Report, Verdict

_HOMES = {
    "CheckerConfig": "factcheck.config",
    "CheckerFailure": "factcheck.errors",
    "Claim": "factcheck.report",
    "Evidence": "factcheck.report",
    "Fact": "factcheck.report",
    "FactCheckError": "factcheck.errors",
    "FactChecker": "factcheck.checker",
    "FactKind": "factcheck.report",
    "Report": "factcheck.report",
    "UnbackedActionError": "factcheck.errors",
    "Verdict": "factcheck.report",
    "apply_on_fail": "factcheck.policy",
    "check": "factcheck.checker",
    "with_fact_check": "factcheck.langchain",
}
"""Where each public name lives: imported on first use, so `import factcheck` (and the CLI's `--help`)
loads neither spaCy nor LangChain."""

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

runnable_hook.install()  # `.with_fact_check()` on every LangChain Runnable, once LangChain is imported


_SUBMODULES = frozenset({
    "calibration", "checker", "cli", "config", "errors", "eval", "extractors", "grounding", "langchain",
    "lexicon", "phrases", "policy", "report", "testing",
})
"""Modules reached as attributes (`factcheck.langchain`), as they were when `import factcheck` loaded them."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(import_module(home), name)
    elif name in _SUBMODULES:
        value = import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
