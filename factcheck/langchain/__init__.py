"""LangChain integration: `.with_fact_check()`, `FactCheckMiddleware`, `ToolGuardMiddleware`, tool-chain histories."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import FactCheckOptions, ModelOutOfAnswers
from factcheck.langchain.ledger import RepeatedActionBlocked, ToolLedger
from factcheck.langchain.run_report import RunReport, get_run_report
from factcheck.langchain.wrapper import RunnableFactCheck, register, with_fact_check

if TYPE_CHECKING:
    from factcheck.langchain.guard_middleware import ToolGuardMiddleware
    from factcheck.langchain.history import ChatHistoryMiddleware, ToolChainHistory, with_tool_chain_history
    from factcheck.langchain.middleware import FactCheckMiddleware

register()

__all__ = [
    "ChatHistoryMiddleware",
    "FactCheckMiddleware",
    "FactCheckOptions",
    "ModelOutOfAnswers",
    "RepeatedActionBlocked",
    "RunReport",
    "RunnableFactCheck",
    "ToolChainHistory",
    "ToolGuardMiddleware",
    "ToolLedger",
    "build_correction",
    "get_run_report",
    "with_fact_check",
    "with_tool_chain_history",
]

_NEED_LANGCHAIN = {
    "FactCheckMiddleware": "factcheck.langchain.middleware",
    "ToolGuardMiddleware": "factcheck.langchain.guard_middleware",
    "ChatHistoryMiddleware": "factcheck.langchain.history",
    "ToolChainHistory": "factcheck.langchain.history",
    "with_tool_chain_history": "factcheck.langchain.history",
}
"""Names that need the optional `langchain` package, and the module each comes from (imported on first use)."""


def __getattr__(name: str) -> Any:
    module = _NEED_LANGCHAIN.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("langchain", "langgraph"):
            raise
        raise ImportError(
            f"{name} needs LangChain v1 and LangGraph ({exc.name} is missing): "
            'pip install "agent-factcheck[langchain]"'
        ) from exc
    return getattr(loaded, name)
