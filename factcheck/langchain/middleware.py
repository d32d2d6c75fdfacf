"""`FactCheckMiddleware`: check a `create_agent` agent's final answer inside its own loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any

from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config
from langchain.agents.middleware.types import OmitFromInput, PrivateStateAttr
from langchain_core.callbacks.manager import dispatch_custom_event
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
)
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.runtime import Runtime
from langgraph.types import Command
from typing_extensions import NotRequired, TypedDict

from factcheck.errors import CheckerFailure
from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import (
    CHECK_RUN_NAME,
    FactCheckOptions,
    enabled_from_env,
    finish,
    logger,
    run_check,
    unchecked,
)
from factcheck.langchain.extract import (
    context_from_input,
    correction_message,
    guard_record,
    is_correction,
    message_text,
    tool_calls_from_output,
)
from factcheck.langchain.run_report import DEFAULT_REPORT_KEY, RunReport
from factcheck.report import Report

ATTEMPTS_KEY = "factcheck_attempts"
"""Private state key: the reports of this turn's answers so far (JSON data)."""
CORRECTIONS_KEY = "factcheck_corrections"
"""Private state key: the corrections sent in this turn so far."""


def fact_check_state(report_key: str = DEFAULT_REPORT_KEY) -> type:
    """The state schema the middleware adds to the agent's state.

    Args:
        report_key: State key of the finished `RunReport` (JSON data); it is part
            of the agent's output, not of its input.

    Returns:
        A TypedDict with the report key and the middleware's private keys.
    """
    return TypedDict(  # type: ignore[operator]
        "FactCheckState",
        {
            report_key: NotRequired[Annotated[dict[str, Any] | None, OmitFromInput]],
            ATTEMPTS_KEY: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr]],
            CORRECTIONS_KEY: NotRequired[Annotated[list[str], PrivateStateAttr]],
        },
    )


class FactCheckMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """Check each final answer of a `create_agent` agent against the tool results in state.

    When the model answers without tool calls, the answer is checked against the
    ToolMessages in the state (user and system messages are context). If claims
    are flagged, a correction is added as a user message and the agent jumps back
    to the model, in the same loop and state, so it can call the tool it skipped.
    After `max_retries` corrections `on_fail` is applied to the last answer. The
    finished `RunReport` (JSON data) is in the final state under `report_key`, in
    the final AI message's `response_metadata`, and in the `fact_check` callback
    event. With `prune_history` (default) the flagged answers and the corrections
    are removed from `messages` once the turn ends; the report keeps them.

    While a correction is pending, an action tool that already ran successfully in
    this turn is not run again: the call gets an error ToolMessage instead. Each
    invocation (turn) starts with no attempts.

    Example:
        ```python
        agent = create_agent(model, tools, middleware=[FactCheckMiddleware(on_fail="raise")])
        ```
    """

    def __init__(self, **options: Any) -> None:
        """Configure the middleware.

        Args:
            **options: Fields of `FactCheckOptions` (`max_retries`, `on_fail`,
                `fallback`, `fail_open`, `report_key`, `config`, `action_tools`,
                `lang`, `block_repeated_actions`). `return_report`, `answer_key`
                and `input_key` only apply to the wrapper.
        """
        super().__init__()
        self.options = FactCheckOptions(**options)
        """How to check, correct and downgrade."""
        self.state_schema = fact_check_state(self.options.report_key)
        """Adds the report key and the private attempt keys to the agent state."""
        self.tools = []

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any]:
        """Start each invocation with no attempts and no report."""
        return {self.options.report_key: None, ATTEMPTS_KEY: [], CORRECTIONS_KEY: []}

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any]:
        """Async `before_agent`."""
        return self.before_agent(state, runtime)

    @hook_config(can_jump_to=["model"])
    def after_model(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Check a final answer; add a correction and jump back to the model if flagged.

        Raises:
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
            UnbackedActionError: the same, when a flagged claim is an unbacked action.
            CheckerFailure: the checker failed and `fail_open` is off.
        """
        if not enabled_from_env():
            return None
        messages: list[BaseMessage] = list(state.get("messages") or [])
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage) or last.tool_calls:
            return None
        answer = message_text(last)
        key = self.options.report_key
        attempts = [Report.model_validate(r) for r in state.get(ATTEMPTS_KEY) or []]
        corrections = list(state.get(CORRECTIONS_KEY) or [])
        evidence = [c.as_tool_call() for c in tool_calls_from_output({"messages": messages})]
        turn = _current_turn(messages)
        try:
            report = run_check(self.options, answer, evidence, context_from_input(messages))
        except CheckerFailure as exc:
            run = self._with_tools(unchecked(self.options, answer, exc, attempts), turn)
            return self._final(last, answer, run, turn)
        attempts.append(report)
        if not report.ok and len(attempts) <= self.options.resolved_max_retries():
            text = build_correction(report, _executed_actions(self.options, turn))
            return {
                "messages": [correction_message(text)],
                "jump_to": "model",
                ATTEMPTS_KEY: [a.model_dump(mode="json") for a in attempts],
                CORRECTIONS_KEY: [*corrections, text],
                key: None,
            }
        run = RunReport(outcome="passed", attempts=attempts, corrections=corrections)
        run, error = finish(self.options, self._with_tools(run, turn))
        if error is not None:
            raise error
        return self._final(last, answer, run, turn)

    @hook_config(can_jump_to=["model"])
    async def aafter_model(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async `after_model`."""
        return self.after_model(state, runtime)

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Refuse to re-run an action tool that already ran before the pending correction."""
        refusal = self._refusal(request)
        return refusal if refusal is not None else handler(request)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async `wrap_tool_call`."""
        refusal = self._refusal(request)
        return refusal if refusal is not None else await handler(request)

    def _refusal(self, request: ToolCallRequest) -> ToolMessage | None:
        if not self.options.block_repeated_actions or not enabled_from_env():
            return None
        name = request.tool_call["name"]
        if not self.options.is_action(name):
            return None
        state = request.state
        messages = state.get("messages") if isinstance(state, dict) else None
        turn = _current_turn(list(messages or []))
        last_correction = max((i for i, m in enumerate(turn) if is_correction(m)), default=-1)
        if last_correction < 0:
            return None
        already = any(
            isinstance(m, ToolMessage) and m.name == name and m.status != "error"
            for m in turn[:last_correction]
        )
        if not already:
            return None
        return ToolMessage(
            content=(
                f"Not run: {name} already ran successfully earlier in this turn, and a "
                "fact-check retry must not perform it twice. Use its earlier result."
            ),
            tool_call_id=request.tool_call["id"] or "",
            name=name,
            status="error",
        )

    def _final(
        self, last: AIMessage, answer: str, run: RunReport, turn: Sequence[BaseMessage]
    ) -> dict[str, Any]:
        data = run.model_dump(mode="json")
        key = self.options.report_key
        update: dict[str, Any] = {"response_metadata": {**last.response_metadata, key: data}}
        if run.final_text != answer:
            update["content"] = run.final_text
        _emit(data)
        removed: list[Any] = []
        if self.options.prune_history:
            removed = [RemoveMessage(id=m.id) for m in _superseded(turn) if m.id]
        return {
            "messages": [*removed, last.model_copy(update=update)],
            key: data,
            ATTEMPTS_KEY: [],
            CORRECTIONS_KEY: [],
        }

    def _with_tools(self, run: RunReport, turn: Sequence[BaseMessage]) -> RunReport:
        results = [m for m in turn if isinstance(m, ToolMessage)]
        return run.model_copy(
            update={
                "executed_tools": [m.name or "tool" for m in results if m.status != "error"],
                "failed_tools": [m.name or "tool" for m in results if m.status == "error"],
                "tool_guard": [e for m in results if (e := guard_record(m).get("event"))],
            }
        )


def _emit(data: dict[str, Any]) -> None:
    """Emit the finished report as the `fact_check` custom callback event, when in a run."""
    try:
        dispatch_custom_event(CHECK_RUN_NAME, data)
    except RuntimeError:  # no parent run to attach the event to (called outside a graph)
        logger.debug("fact_check event not emitted: no parent run")


def _current_turn(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The messages after the last user message that is not a correction."""
    for i in range(len(messages) - 1, -1, -1):
        message = messages[i]
        if isinstance(message, HumanMessage) and not is_correction(message):
            return list(messages[i + 1 :])
    return list(messages)


def _superseded(turn: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The corrections of a turn and the flagged answers each of them followed."""
    out: list[BaseMessage] = []
    for i, message in enumerate(turn):
        if is_correction(message):
            out.append(message)
            if i > 0 and isinstance(turn[i - 1], AIMessage) and not turn[i - 1].tool_calls:
                out.append(turn[i - 1])
    return out


def _executed_actions(options: FactCheckOptions, turn: Sequence[BaseMessage]) -> list[str]:
    names = [
        m.name
        for m in turn
        if isinstance(m, ToolMessage) and m.status != "error" and options.is_action(m.name or "")
    ]
    return list(dict.fromkeys(names))
