"""LangChain integration: `.with_fact_check()` on every Runnable, `FactCheckMiddleware`, `ToolGuardMiddleware`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import FactCheckOptions, ModelOutOfAnswers
from factcheck.langchain.ledger import RepeatedActionBlocked, ToolLedger
from factcheck.langchain.run_report import RunReport, get_run_report
from factcheck.langchain.wrapper import RunnableFactCheck, register, with_fact_check

if TYPE_CHECKING:
    from factcheck.langchain.guard_middleware import ToolGuardMiddleware
    from factcheck.langchain.middleware import FactCheckMiddleware

register()

__all__ = [
    "FactCheckMiddleware",
    "FactCheckOptions",
    "ModelOutOfAnswers",
    "RepeatedActionBlocked",
    "RunReport",
    "RunnableFactCheck",
    "ToolGuardMiddleware",
    "ToolLedger",
    "build_correction",
    "get_run_report",
    "with_fact_check",
]


def __getattr__(name: str) -> Any:
    # The middleware needs the optional `langchain` package; import it on first use.
    if name == "FactCheckMiddleware":
        try:
            from factcheck.langchain.middleware import FactCheckMiddleware
        except ImportError as exc:
            if (exc.name or "").split(".")[0] not in ("langchain", "langgraph"):
                raise
            raise ImportError(
                f"FactCheckMiddleware needs LangChain v1 and LangGraph ({exc.name} is missing): "
                'pip install "agent-factcheck[langchain]"'
            ) from exc
        return FactCheckMiddleware
    if name == "ToolGuardMiddleware":
        from factcheck.langchain.guard_middleware import ToolGuardMiddleware

        return ToolGuardMiddleware
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
