"""The trust boundary for tool calls: policies, the plain-loop executor and untrusted-output handling."""

from factcheck.guard.executor import GuardLedger, GuardRecord, SafeToolExecutor, ToolOutcome, ToolSpec, args_model_of
from factcheck.guard.policy import Refusal, ToolPolicy, idempotency_key, limit_refusal, permission_refusal
from factcheck.guard.untrusted import InjectionDetector, InjectionFlag, frame, neutralize

__all__ = [
    "GuardLedger",
    "GuardRecord",
    "InjectionDetector",
    "InjectionFlag",
    "Refusal",
    "SafeToolExecutor",
    "ToolOutcome",
    "ToolPolicy",
    "ToolSpec",
    "args_model_of",
    "frame",
    "idempotency_key",
    "limit_refusal",
    "neutralize",
    "permission_refusal",
]
