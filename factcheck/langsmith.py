"""A LangSmith evaluator: an agent run's final answer checked against the tool and retriever runs of its trace."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core._api import LangChainBetaWarning
from langchain_core.load import load
from langchain_core.messages import ToolMessage, convert_to_messages

from factcheck.config import CheckerConfig
from factcheck.errors import CheckerFailure
from factcheck.grounding.records import documents_as_values
from factcheck.langchain.engine import FactCheckOptions, run_check
from factcheck.langchain.extract import context_from_input, find_answer, tool_calls_from_output, tool_message_value
from factcheck.report import Report

FEEDBACK_KEY = "fact_check"
"""Key of the feedback the evaluator returns: score 1 when no claim is flagged, 0 otherwise."""
_EVIDENCE_RUNS = ("tool", "retriever")


class FactCheckEvaluator:
    """Checks the final answer of a traced run against the tools and retrievers it ran.

    Give it to `langsmith.evaluate()` / `aevaluate()` as an evaluator (it takes `run` and `example`), or
    call `evaluate_outputs` in a `@pytest.mark.langsmith` test (`log_feedback` logs the result there).
    The answer comes from the run's outputs (a `messages` state, an `AIMessage`, a dict with `answer_key`,
    a str); the evidence from the `ToolMessage`s in those outputs, else from the run's child tool runs,
    plus its child retriever runs. Each call returns one feedback: `{"key": "fact_check", "score": 1 | 0,
    "value": <flagged claims>, "comment": <each flagged claim, its reason and evidence>}`.
    """

    def __init__(
        self,
        *,
        checker: Any = None,
        config: CheckerConfig | None = None,
        answer_key: str | None = None,
        lang: str | None = None,
        key: str = FEEDBACK_KEY,
    ) -> None:
        """Build an evaluator.

        Args:
            checker: A ready `FactChecker` to reuse; built from `config` when None.
            config: Checker settings (thresholds, lexicons, `verifier`); the defaults when None.
            answer_key: Output key of the answer when it is neither a `messages` state nor `output`.
            lang: Answer language (`zh`, `en`, `mixed`); detected when None.
            key: The feedback key.
        """
        self.options = FactCheckOptions(checker=checker, config=config, answer_key=answer_key, lang=lang)
        """Checker and answer settings, as `.with_fact_check()` takes them."""
        self.key = key
        """The feedback key."""
        self.__name__ = key  # langsmith names an evaluator after its function

    def __call__(self, run: Any, example: Any = None) -> dict[str, Any]:
        """Evaluate one run of `langsmith.evaluate()` (a `Run`, or a local `RunTree`); `example` is not read."""
        outputs = revive(run.outputs or {})
        calls = [c.as_tool_call() for c in tool_calls_from_output(outputs)]
        calls += child_evidence(run, tools=not calls)
        return self.evaluate_outputs(outputs, revive(run.inputs or {}), calls)

    def evaluate_outputs(
        self, outputs: Any, inputs: Any = None, tool_calls: Sequence[Any] | None = None
    ) -> dict[str, Any]:
        """The feedback for one output: its answer checked against its tool results.

        Args:
            outputs: What the agent returned (LangChain objects, or their JSON as LangSmith stores it).
            inputs: What it was given; its user and system text is context the answer may repeat.
            tool_calls: The evidence; the `ToolMessage`s and intermediate steps of `outputs` when None.

        Returns:
            `{"key", "score", "value", "comment"}`; score None when no answer was found or the checker failed.
        """
        outputs = revive(outputs)
        if tool_calls is None:
            tool_calls = [c.as_tool_call() for c in tool_calls_from_output(outputs)]
        where = find_answer(outputs, self.options.answer_key)
        if where is None:
            return self._feedback(None, 0, f"no final answer found in a {type(outputs).__name__} output")
        try:
            report = run_check(self.options, where.text, tool_calls, context_from_input(revive(inputs)))
        except CheckerFailure as exc:
            return self._feedback(None, 0, str(exc))
        return self._feedback(int(report.ok), len(report.flagged), comment(report))

    def log_feedback(self, outputs: Any, inputs: Any = None) -> dict[str, Any]:
        """Inside a `@pytest.mark.langsmith` test: evaluate `outputs` and log the feedback; returns it."""
        from langsmith import testing

        feedback = self.evaluate_outputs(outputs, inputs)
        testing.log_feedback(**feedback)
        return feedback

    def _feedback(self, score: int | None, flagged: int, text: str) -> dict[str, Any]:
        return {"key": self.key, "score": score, "value": flagged, "comment": text}


def comment(report: Report) -> str:
    """The feedback comment: a head line, then each flagged claim with its reason and evidence."""
    checked = len(report.claims)
    if report.ok:
        return f"no claim flagged ({checked} claims, {report.tool_call_count} tool results)"
    lines = [f"{len(report.flagged)} of {checked} claims flagged ({report.tool_call_count} tool results)"]
    for claim in report.flagged:
        confidence = f" (confidence {claim.confidence:.2f})" if claim.confidence is not None else ""
        lines.append(f"- [{claim.verdict.value}] {claim.text!r}: {claim.reason}{confidence}")
        lines.extend(f"    <- {ev.describe()}" for ev in claim.evidence[:2])
        if claim.second_opinion is not None:
            lines.append(f"    verifier {claim.second_opinion.source}: {claim.second_opinion.verdict.value}; "
                         f"{claim.second_opinion.reason}")
    return "\n".join(lines)


def child_evidence(run: Any, *, tools: bool = True) -> list[dict[str, Any]]:
    """The tool runs (when `tools`) and retriever runs below `run`, in start order, as checker tool calls."""
    out: list[dict[str, Any]] = []
    for child in sorted(run.child_runs or (), key=_start):
        kind = getattr(child, "run_type", None)
        if kind in _EVIDENCE_RUNS and (tools or kind == "retriever"):
            out.append(_as_tool_call(child, kind))
        out.extend(child_evidence(child, tools=tools))
    return out


def _start(run: Any) -> Any:
    return getattr(run, "dotted_order", None) or str(getattr(run, "start_time", ""))


def _as_tool_call(run: Any, kind: str) -> dict[str, Any]:
    outputs = revive(run.outputs or {})
    inputs = revive(run.inputs or {})
    status = "error" if getattr(run, "error", None) else "ok"
    if kind == "retriever":
        output: Any = documents_as_values(outputs.get("documents", []))
        output = [_document_fields(d) for d in output] if isinstance(output, list) else output
    else:
        output = outputs.get("output", outputs) if isinstance(outputs, Mapping) else outputs
        if isinstance(output, ToolMessage):
            status = "error" if output.status == "error" else status
            output = tool_message_value(output)
    if status == "error" and not output:
        output = run.error
    args = inputs.get("input", inputs) if isinstance(inputs, Mapping) and len(inputs) == 1 else inputs
    if kind == "retriever":  # a query is the user's or the model's text, no record
        args = {}
    return {"name": run.name, "args": args if isinstance(args, Mapping) else {"input": args},
            "output": output, "status": status}


def _document_fields(doc: Any) -> Any:
    """A document as LangSmith stores it (with `type`, `id`) read as its text and metadata."""
    if isinstance(doc, Mapping) and isinstance(doc.get("page_content"), str):
        return {"page_content": doc["page_content"], "metadata": dict(doc.get("metadata") or {})}
    return doc


def revive(value: Any) -> Any:
    """Messages as LangSmith stores them (LangChain-serialized, or `{"type"/"role", "content"}`) as messages.

    Args:
        value: Run inputs or outputs, as objects or as their JSON.

    Returns:
        The same structure with every stored message turned back into a LangChain message.
    """
    if isinstance(value, Mapping):
        if value.get("lc") == 1 and value.get("type") == "constructor":
            kwargs = value.get("kwargs") or {}
            if list(value.get("id") or [])[-1:] == ["Document"]:
                return {"page_content": kwargs.get("page_content", ""), "metadata": kwargs.get("metadata") or {}}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", LangChainBetaWarning)
                    return load(dict(value), allowed_objects="messages")
            except (ValueError, TypeError, KeyError, NotImplementedError):  # no message: its fields
                return revive(kwargs)
        if _looks_like_message(value):
            return convert_to_messages([dict(value)])[0]
        return {k: revive(v) for k, v in value.items()}
    if isinstance(value, list):
        return [revive(v) for v in value]
    return value


def _looks_like_message(value: Mapping[str, Any]) -> bool:
    kind = value.get("type", value.get("role"))
    return kind in ("human", "user", "ai", "assistant", "system", "tool") and "content" in value


__all__ = ["FEEDBACK_KEY", "FactCheckEvaluator", "child_evidence", "comment", "revive"]
