"""Offline evaluation of the checker on case-format suites (`factcheck eval`)."""

from factcheck.eval.suite import Case, SuiteError, ToolCall, load_suite

__all__ = ["Case", "SuiteError", "ToolCall", "load_suite"]
