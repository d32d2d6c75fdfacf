"""`factcheck eval --agent module:factory`: a user's LangChain agent over the suite's questions."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from factcheck.eval.suite import Case, ToolCall

AgentFactory = Callable[[list[Any]], Any]
"""Given the stubbed tools of one case, returns a LangChain `Runnable` agent."""


REPLAY_OPTIONS: dict[str, Any] = {"max_retries": 1, "on_fail": "drop"}
"""`.with_fact_check()` settings of the live run: the same pass the replay models."""


class AgentLoadError(ValueError):
    """The `module:factory` spec cannot be imported or does not name a callable."""


def load_factory(spec: str) -> AgentFactory:
    """Import the agent factory named by `module:factory` (`module:obj.attr` works too).

    Args:
        spec: `package.module:function`.

    Returns:
        The factory.

    Raises:
        AgentLoadError: when the spec is malformed, the import fails or the name is missing.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise AgentLoadError(f"--agent expects module:factory, got {spec!r}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as err:
        raise AgentLoadError(f"--agent {spec}: cannot import {module_name!r}: {err}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AgentLoadError(f"--agent {spec}: {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentLoadError(f"--agent {spec}: {attr!r} is not callable")
    return obj


@dataclass
class ToolRecorder:
    """Serves one case's recorded tool outputs and logs every call the agent makes."""

    recorded: list[ToolCall]
    """The case's tool calls, in order."""
    calls: list[dict[str, Any]] = field(default_factory=list)
    """Case-format mappings of the calls that really ran in this live run."""
    _used: set[int] = field(default_factory=set)

    def serve(self, name: str, args: dict[str, Any]) -> ToolCall:
        """Pick the recorded call to replay: same name and arguments first, else the next
        unused call of that name, else the last call of that name.

        Args:
            name: Tool name.
            args: Arguments the agent passed (`None` values ignored).

        Returns:
            The recorded call whose output is returned.
        """
        args = {k: v for k, v in args.items() if v is not None}
        same = [i for i, tc in enumerate(self.recorded) if tc.name == name]
        pick = next((i for i in same if i not in self._used and self.recorded[i].args == args),
                    None)
        if pick is None:
            pick = next((i for i in same if i not in self._used), same[-1])
        self._used.add(pick)
        return self.recorded[pick]


def _output_text(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def stub_tools(case: Case, recorder: ToolRecorder) -> list[Any]:
    """LangChain tools, one per tool name in the case, returning the recorded outputs.

    A recorded `error` call raises `ToolException`, so the agent sees an error `ToolMessage`.

    Args:
        case: The case whose tool calls are replayed.
        recorder: Serves outputs and logs the calls.

    Returns:
        `StructuredTool`s whose argument schemas follow the recorded arguments.
    """
    from langchain_core.tools import StructuredTool, ToolException
    from pydantic import ConfigDict, create_model

    tools = []
    for name in dict.fromkeys(tc.name for tc in case.tool_calls):
        fields: dict[str, Any] = {}
        for tc in case.tool_calls:
            if tc.name == name:
                for key, value in tc.args.items():
                    if key.isidentifier() and not key.startswith(("_", "model_")):
                        fields.setdefault(key, (type(value) | None, None))
        # other argument names are still accepted (extra="allow"), just not advertised
        schema = create_model(f"{name}_args", __config__=ConfigDict(extra="allow"), **fields)
        args_list = ", ".join(fields) or "no arguments"
        tools.append(StructuredTool.from_function(
            func=_bind(recorder, name, ToolException), name=name, args_schema=schema,
            handle_tool_error=True,
            description=f"{name} ({args_list}); returns the output recorded for this case",
        ))
    return tools


def _bind(recorder: ToolRecorder, name: str, error: type[Exception]) -> Callable[..., str]:
    def call(**kwargs: Any) -> str:
        tc = recorder.serve(name, kwargs)
        text = _output_text(tc.output)
        recorder.calls.append({"name": name, "args": kwargs, "output": tc.output,
                               "status": tc.status})
        if tc.status == "error":
            raise error(text)
        return text

    return call


def agent_input(case: Case) -> dict[str, Any]:
    """The agent's input for a case: its context as a system message, then the question.

    Args:
        case: The case.

    Returns:
        `{"messages": [...]}` for a `create_agent` graph.
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    messages: list[Any] = []
    if case.context:
        messages.append(SystemMessage("\n\n".join(case.context)))
    messages.append(HumanMessage(case.question))
    return {"messages": messages}


def final_text(output: Any) -> str:
    """The final answer text of an agent's output.

    Args:
        output: A graph state with `messages`, a message, or a string.

    Returns:
        The text of the last AI message (or the string itself).
    """
    from langchain_core.messages import AIMessage, BaseMessage

    if isinstance(output, dict) and "messages" in output:
        ai = [m for m in output["messages"] if isinstance(m, AIMessage)]
        return _message_text(ai[-1]) if ai else ""
    if isinstance(output, BaseMessage):
        return _message_text(output)
    return str(output)


def _message_text(message: Any) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def judge(case: Case, text: str) -> bool:
    """Whether a live answer repeats a known hallucination of the case.

    The case's answer is judged by its own gold spans, its retry answer by the retry spans;
    any other text (a downgrade, or a new answer of a real model) by both.

    Args:
        case: The case.
        text: The live final answer.

    Returns:
        True when the text holds a gold span.
    """
    if text == case.answer:
        spans = case.hallucinated_spans
    elif text == case.retry_answer:
        spans = case.retry_spans
    else:
        spans = [*case.hallucinated_spans, *case.retry_spans]
    return any(s in text for s in spans)


@dataclass
class LiveRun:
    """One live run of the agent on one case."""

    case_id: str
    """The case."""
    text: str
    """The final answer (or the error raised)."""
    hallucinated: bool
    """Whether `text` holds a gold span of the case."""
    flagged: bool
    """Whether the checker flags `text` against the tool calls of this run."""
    error: str | None = None
    """The exception raised by the agent, if any."""


def _run_one(make: Callable[[list[Any]], Any], case: Case, checker: Any) -> LiveRun:
    recorder = ToolRecorder(list(case.tool_calls))
    agent = make(stub_tools(case, recorder))
    try:
        text = final_text(agent.invoke(agent_input(case)))
    except Exception as err:  # the agent's own failure is a result, not an eval crash
        return LiveRun(case.id, f"{type(err).__name__}: {err}", False, False, repr(err))
    report = checker.check(text, recorder.calls, case.checker_context())
    return LiveRun(case.id, text, judge(case, text), not report.ok)


def _rates(runs: Sequence[LiveRun]) -> dict[str, Any]:
    n = len(runs)
    halluc = sum(r.hallucinated for r in runs)
    flagged = sum(r.flagged for r in runs)
    return {
        "hallucination_rate": round(halluc / n, 4) if n else None,
        "hallucinated": halluc,
        "flagged_rate": round(flagged / n, 4) if n else None,
        "flagged": flagged,
        "errors": sum(r.error is not None for r in runs),
    }


def run_agent_eval(
    cases: Sequence[Case],
    spec: str | AgentFactory,
    progress: Callable[[str], Callable[[int, int], None] | None] | None = None,
    fact_check_kwargs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the agent over every case's question, with and without `.with_fact_check()`.

    Tools are stubbed with the case's recorded outputs. A live answer counts as
    hallucinated when it holds a gold span of the case (see `judge`); `flagged_rate`
    is the checker's own verdict on the live answer against the calls that ran.

    Args:
        cases: The suite.
        spec: `module:factory`, or the factory itself.
        progress: Given a run name, returns its progress callback.
        fact_check_kwargs: Keyword arguments for `.with_fact_check()`, over
            `REPLAY_OPTIONS` (one retry, then drop, as the replay does).

    Returns:
        `{"factory", "cases", "plain": {...}, "checked": {...}, "runs": [...]}`.
    """
    try:
        import factcheck.langchain  # noqa: F401  registers Runnable.with_fact_check
    except ImportError as err:
        raise AgentLoadError(f"--agent needs the LangChain integration: {err}") from None
    from factcheck.eval.runner import FactcheckSystem

    factory = load_factory(spec) if isinstance(spec, str) else spec
    checker = FactcheckSystem()
    kwargs = {**REPLAY_OPTIONS, "checker": checker.checker, **(fact_check_kwargs or {})}

    def checked(tools: list[Any]) -> Any:
        return factory(tools).with_fact_check(**kwargs)

    out: dict[str, Any] = {"factory": spec if isinstance(spec, str) else repr(spec),
                           "cases": len(cases)}
    runs: dict[str, list[LiveRun]] = {}
    for label, make in (("plain", factory), ("checked", checked)):
        bar = progress(f"agent:{label}") if progress else None
        runs[label] = []
        for i, case in enumerate(cases, start=1):
            runs[label].append(_run_one(make, case, checker))
            if bar:
                bar(i, len(cases))
        out[label] = _rates(runs[label])
    out["runs"] = [
        {"id": p.case_id, "plain": p.text, "plain_hallucinated": p.hallucinated,
         "checked": c.text, "checked_hallucinated": c.hallucinated,
         **({"error": p.error or c.error} if p.error or c.error else {})}
        for p, c in zip(runs["plain"], runs["checked"], strict=True)
    ]
    return out


def agent_text(summary: dict[str, Any]) -> str:
    """The live-run result as text.

    Args:
        summary: The output of `run_agent_eval`.

    Returns:
        A few lines comparing the plain and the checked agent.
    """
    from factcheck.eval.tables import fmt, render_text

    header = ["live agent", "hallucination rate", "flagged by checker", "errors"]
    rows = [[label, fmt(summary[label]["hallucination_rate"]), fmt(summary[label]["flagged_rate"]),
             str(summary[label]["errors"])] for label in ("plain", "checked")]
    return (f"live agent {summary['factory']} over {summary['cases']} questions "
            "(tools stubbed with the recorded outputs):\n" + render_text(header, rows))
