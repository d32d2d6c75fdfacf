"""`FactCheckMiddleware`: check a `create_agent` agent's final answer inside its own loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, NoReturn

from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config
from langchain.agents.middleware.types import (
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    OmitFromInput,
    PrivateStateAttr,
)
from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager, CallbackManager
from langchain_core.callbacks.manager import dispatch_custom_event
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import (
    ensure_config,
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
    var_child_runnable_config,
)
from langgraph.constants import TAG_NOSTREAM
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.runtime import Runtime
from langgraph.types import Command
from typing_extensions import NotRequired, TypedDict

from factcheck.errors import CheckerFailure
from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import (
    CHECK_RUN_NAME,
    FactCheckOptions,
    attach_run,
    enabled_from_env,
    failed_closed,
    finish,
    logger,
    out_of_answers,
    retry_wanted,
    run_check,
    unchecked,
)
from factcheck.langchain.extract import (
    GUARD_KEY,
    context_from_input,
    correction_message,
    evidence_calls,
    guard_record,
    is_correction,
    message_text,
    tool_calls_from_output,
)
from factcheck.langchain.ledger import declaration
from factcheck.langchain.release import AsyncReleaseRun, ReleaseRun, SentenceReleaser
from factcheck.langchain.run_report import DEFAULT_REPORT_KEY, RunReport
from factcheck.langchain.tap import AsyncTap, SyncTap, Tap
from factcheck.report import Report

ATTEMPTS_KEY = "factcheck_attempts"
"""Private state key: the reports of this turn's answers so far (JSON data)."""
CORRECTIONS_KEY = "factcheck_corrections"
"""Private state key: the corrections sent in this turn so far."""
ANCHORS_KEY = "factcheck_anchors"
"""Private state key: for each correction, the id of the last state message before it.

Flagged answers and corrections never enter `messages`; the model is shown them at
these places in its request only."""
SHOWN_KEY = "factcheck_shown"
"""Private state key: `{"id", "text"}` of the verified answer text streamed this turn."""
RETRY_KEY = "factcheck_retry"
"""Private state key: True when `after_model` must send the agent back to the model."""
FAILED_KEY = "factcheck_failed"
"""Private state key: the checker failure `after_model` raises, once the fallback and the
report (holding the answer) are in the state a checkpointer keeps."""


def fact_check_state(report_key: str = DEFAULT_REPORT_KEY) -> type:
    """The state schema the middleware adds to the agent's state.

    Args:
        report_key: State key of the finished `RunReport` (JSON data); it is part
            of the agent's output, not of its input.

    Returns:
        A TypedDict with the report key and the middleware's private keys.
    """
    private = NotRequired[Annotated[Any, PrivateStateAttr]]
    return TypedDict(  # type: ignore[operator]
        "FactCheckState",
        {
            report_key: NotRequired[Annotated[dict[str, Any] | None, OmitFromInput]],
            ATTEMPTS_KEY: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr]],
            CORRECTIONS_KEY: NotRequired[Annotated[list[str], PrivateStateAttr]],
            ANCHORS_KEY: NotRequired[Annotated[list[str | None], PrivateStateAttr]],
            SHOWN_KEY: private,
            RETRY_KEY: private,
            FAILED_KEY: private,
        },
    )


class FactCheckMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """Check each final answer of a `create_agent` agent against the tool results in state.

    When the model answers without tool calls, the answer is checked against the
    ToolMessages in the state (user and system messages are context). If claims
    are flagged, the agent goes back to the model with a correction, in the same
    loop and state, so it can call the tool it skipped. After `max_retries`
    corrections `on_fail` is applied to the last answer. The finished `RunReport`
    (JSON data) is in the final state under `report_key`, in the final AI message's
    `response_metadata`, and in the `fact_check` callback event.

    Flagged answers and corrections never enter `messages`, so no `stream_mode`
    (`values`, `updates`, `messages`) shows them: the model sees them in its
    request only, and the report keeps them. In `messages` mode the model's own
    tokens are kept out of the stream (its run is tagged `nostream`) and the
    checked answer is streamed instead, sentence by sentence with
    `stream_release="sentence"`, as `AIMessageChunk`s with the answer's message id.

    While a correction is pending, a tool that already ran successfully in this turn
    is not run again unless it is a read (see `FactCheckOptions.read_tools`; a
    `ToolPolicy(read=...)` of `ToolGuardMiddleware` decides for its tool): the call
    gets an error ToolMessage instead. Each
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
                `read_tools`, `lang`, `min_confidence`, `block_repeated_actions`, `stream_release`). `return_report`,
                `answer_key`, `input_key` and `prune_history` only apply to the wrapper.
        """
        super().__init__()
        self.options = FactCheckOptions(**options)
        """How to check, correct and downgrade."""
        self.state_schema = fact_check_state(self.options.report_key)
        """Adds the report key and the private attempt keys to the agent state."""
        self.tools = []

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any]:
        """Start each invocation with no attempts and no report."""
        return {self.options.report_key: None, **_CLEARED}

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any]:
        """Async `before_agent`."""
        return self.before_agent(state, runtime)

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], ModelResponse],
    ) -> ModelResponse | ExtendedModelResponse:
        """Call the model with the pending corrections shown, then check a final answer.

        Raises:
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
            UnbackedActionError: the same, when a flagged claim is an unbacked action.
            CheckerFailure: the checker failed and `fail_open` is off.
        """
        if not enabled_from_env():
            return handler(request)
        turn = _Turn(self.options, request)
        config = ensure_config()
        tap = Tap(turn.releaser(), ReleaseRun(get_callback_manager_for_config(config)), turn.slot_id)
        with _ModelCall(turn, config, SyncTap(tap)):
            response = handler(turn.corrected_request())
        try:
            decision = turn.decide(response, tap.shown_text())
            for chunk in tap.closing(decision.final_text, decision.metadata):
                tap.release.emit_message(chunk)
        finally:  # the release run ends, also when on_fail="raise" raises
            tap.release.close()
        return decision.result()

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse | ExtendedModelResponse:
        """Async `wrap_model_call`."""
        if not enabled_from_env():
            return await handler(request)
        turn = _Turn(self.options, request)
        config = ensure_config()
        release = AsyncReleaseRun(get_async_callback_manager_for_config(config))
        tap = Tap(turn.releaser(), release, turn.slot_id)
        with _ModelCall(turn, config, AsyncTap(tap)):
            response = await handler(turn.corrected_request())
        try:
            decision = turn.decide(response, tap.shown_text())
            for chunk in tap.closing(decision.final_text, decision.metadata):
                await release.emit_message(chunk)
        finally:  # the release run ends, also when on_fail="raise" raises
            await release.close()
        return decision.result()

    @hook_config(can_jump_to=["model"])
    def after_model(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Send the agent back to the model when a correction is pending.

        Raises:
            CheckerFailure: the checker failed and `fail_open` is off; the state (and a
                checkpointer) already holds the fallback and the report with the answer.
        """
        if not enabled_from_env():
            return None
        if state.get(FAILED_KEY):
            run = RunReport.model_validate(state[self.options.report_key])
            raise failed_closed(CheckerFailure(state[FAILED_KEY]), run)
        if not state.get(RETRY_KEY):
            return None
        return {"jump_to": "model", RETRY_KEY: False}

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
        state = request.state if isinstance(request.state, dict) else {}
        anchors = state.get(ANCHORS_KEY) or []
        if not anchors:
            return None
        turn = _current_turn(list(state.get("messages") or []))
        ids = [getattr(m, "id", None) for m in turn]
        upto = ids.index(anchors[-1]) + 1 if anchors[-1] in ids else len(turn)
        earlier = [m for m in turn[:upto] if isinstance(m, ToolMessage) and m.name == name and m.status != "error"]
        declared = declaration(name)  # ToolGuardMiddleware's, when it wraps this middleware
        if not earlier or not (_acts(self.options, earlier[0]) if declared is None else not declared):
            return None
        event = {"event": "repeat", "tool": name, "by": "fact_check"}
        return ToolMessage(
            content=(
                f"Not run: {name} already ran successfully earlier in this turn, and a "
                "fact-check retry must not perform it twice. Use its earlier result."
            ),
            tool_call_id=request.tool_call["id"] or "",
            name=name,
            status="error",
            response_metadata={GUARD_KEY: {"repeat": True, "event": event}},
        )


_CLEARED: dict[str, Any] = {
    ATTEMPTS_KEY: [], CORRECTIONS_KEY: [], ANCHORS_KEY: [], SHOWN_KEY: None, RETRY_KEY: False,
    FAILED_KEY: None,
}


def _quiet(config: RunnableConfig, tap: BaseCallbackHandler) -> RunnableConfig:
    """The model call's config: tagged `nostream`, with the token tap attached.

    LangGraph's `StreamMessagesHandler.on_chat_model_start` (langgraph/pregel/_messages.py)
    registers a chat model run for the `messages` stream only when its tags do not hold
    `TAG_NOSTREAM` ("nostream"); the model's unchecked tokens are therefore never put on
    the stream, and the `fact_check_release` run streams the checked text instead.
    """
    callbacks = config.get("callbacks")
    manager = callbacks.copy() if isinstance(callbacks, BaseCallbackManager) else CallbackManager(
        handlers=list(callbacks or []), inheritable_handlers=list(callbacks or [])
    )
    manager.add_handler(tap, inherit=True)
    return {**config, "tags": [*config.get("tags", []), TAG_NOSTREAM], "callbacks": manager}


class _ModelCall:
    """Around one model call: its config is `_quiet` (tagged `nostream`, the tap attached), and
    what it raises carries the report of the turn's answers so far (see `_Turn.reraise`)."""

    def __init__(self, turn: _Turn, config: RunnableConfig, tap: BaseCallbackHandler) -> None:
        self.turn = turn
        self.config = _quiet(config, tap)

    def __enter__(self) -> None:
        self.token = var_child_runnable_config.set(self.config)

    def __exit__(self, kind: Any, error: BaseException | None, traceback: Any) -> None:
        var_child_runnable_config.reset(self.token)
        if isinstance(error, Exception):
            self.turn.reraise(error)


class _Decision:
    """What one model call ends in: the model's response, a retry, or the final answer.

    `update` None passes the model's response on (tool calls); otherwise the response
    becomes `messages` (none for a retry) plus `update` as a state update.
    """

    def __init__(self, response: Any, final_text: str | None, update: dict[str, Any] | None,
                 messages: list[BaseMessage] | None = None) -> None:
        self.response = response
        self.final_text = final_text
        self.update = update
        self.messages = messages
        final = next((m for m in reversed(messages or []) if isinstance(m, AIMessage)), None)
        self.metadata: dict[str, Any] = dict(final.response_metadata) if final is not None else {}
        """The final message's response metadata (the run report), for its last chunk."""

    def result(self) -> Any:
        """What `wrap_model_call` returns."""
        if self.update is None:
            return self.response
        model_response = ModelResponse(
            result=self.messages if self.messages is not None else [],
            structured_response=getattr(self.response, "structured_response", None),
        )
        return ExtendedModelResponse(model_response=model_response, command=Command(update=self.update))


class _Turn:
    """The state of this turn as one model call sees it: attempts, corrections, evidence."""

    def __init__(self, options: FactCheckOptions, request: ModelRequest) -> None:
        self.options = options
        self.request = request
        state = request.state if isinstance(request.state, dict) else {}
        self.state_messages: list[BaseMessage] = list(state.get("messages") or [])
        self.turn = _current_turn(self.state_messages)
        self.attempts = [Report.model_validate(r) for r in state.get(ATTEMPTS_KEY) or []]
        self.corrections: list[str] = list(state.get(CORRECTIONS_KEY) or [])
        self.anchors: list[str | None] = list(state.get(ANCHORS_KEY) or [])
        shown = state.get(SHOWN_KEY) or {}
        self.shown: str = shown.get("text", "")
        self.slot_id: str | None = shown.get("id")
        self.evidence = evidence_calls(tool_calls_from_output({"messages": self.state_messages}))
        self.context = context_from_input(self.state_messages)

    def reraise(self, error: Exception) -> NoReturn:
        """Raise the model call's error (or the clear one for a scripted model out of answers),
        carrying the report of this turn's answers so far."""
        clear = out_of_answers(error, len(self.attempts)) if isinstance(error, (RuntimeError, StopIteration)) else None
        attach_run(clear or error, RunReport(outcome="raised", attempts=self.attempts, corrections=self.corrections))
        if clear is not None:
            raise clear from error
        raise error

    def releaser(self) -> SentenceReleaser:
        """A releaser checking streamed text against this turn's evidence."""

        def check(text: str) -> Report:
            return run_check(self.options, text, self.evidence, self.context)

        return SentenceReleaser(check, self.options.stream_release, self.shown)

    def corrected_request(self) -> ModelRequest:
        """The request with each flagged answer and its correction where they were made."""
        if not self.corrections:
            return self.request
        messages = list(self.request.messages)
        inserted: set[int] = set()
        for report, text, anchor in zip(self.attempts, self.corrections, self.anchors, strict=False):
            pair = [AIMessage(report.answer), correction_message(text)]
            ids = [getattr(m, "id", None) for m in messages]
            at = ids.index(anchor) + 1 if anchor is not None and anchor in ids else len(messages)
            while at < len(messages) and id(messages[at]) in inserted:  # after earlier pairs
                at += 1
            messages[at:at] = pair
            inserted.update(id(m) for m in pair)
        return self.request.override(messages=messages)

    def decide(self, response: Any, shown: str) -> _Decision:
        """Check a final answer: pass it, ask for a retry, or apply `on_fail`.

        Args:
            response: The model call's response.
            shown: The verified answer text streamed so far this turn.

        Raises:
            FactCheckError: `on_fail="raise"` and the last answer is still flagged.
            CheckerFailure: the checker failed and `fail_open` is off.
        """
        messages = list(getattr(response, "result", None) or [response])
        last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if last is None or last.tool_calls:
            return _Decision(response, None, None)
        answer = message_text(last)
        try:
            report = run_check(self.options, answer, self.evidence, self.context)
        except CheckerFailure as exc:
            run = self._with_tools(unchecked(self.options, answer, exc, self.attempts))
            decision = self._final(response, messages, last, answer, run)
            if run.outcome == "failed":  # raised by after_model, once the state holds it
                decision.update = {**(decision.update or {}), FAILED_KEY: str(exc)}
            return decision
        attempts = [*self.attempts, report]
        if retry_wanted(report, len(attempts), self.options.resolved_max_retries()):
            text = build_correction(report, _executed_actions(self.options, self.turn))
            anchor = self.state_messages[-1].id if self.state_messages else None
            update = {
                ATTEMPTS_KEY: [a.model_dump(mode="json") for a in attempts],
                CORRECTIONS_KEY: [*self.corrections, text],
                ANCHORS_KEY: [*self.anchors, anchor],
                SHOWN_KEY: {"id": self.slot_id or last.id, "text": shown},
                RETRY_KEY: True,
                self.options.report_key: None,
            }
            return _Decision(response, None, update)
        run = RunReport(outcome="passed", attempts=attempts, corrections=self.corrections)
        run, error = finish(self.options, self._with_tools(run))
        if error is not None:
            _emit(run.model_dump(mode="json"))
            raise error
        return self._final(response, messages, last, answer, run)

    def _final(self, response: Any, messages: list[BaseMessage], last: AIMessage, answer: str,
               run: RunReport) -> _Decision:
        data = run.model_dump(mode="json")
        key = self.options.report_key
        update: dict[str, Any] = {"response_metadata": {**last.response_metadata, key: data}}
        if run.final_text != answer:
            update["content"] = run.final_text
        if self.slot_id:
            update["id"] = self.slot_id  # one message id for the whole streamed answer
        _emit(data)
        final = last.model_copy(update=update)
        out = [final if m is last else m for m in messages]
        return _Decision(response, run.final_text, {key: data, **_CLEARED}, out)

    def _with_tools(self, run: RunReport) -> RunReport:
        results = [m for m in self.turn if isinstance(m, ToolMessage)]
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


def _executed_actions(options: FactCheckOptions, turn: Sequence[BaseMessage]) -> list[str]:
    names = [m.name for m in turn if isinstance(m, ToolMessage) and m.status != "error" and _acts(options, m)]
    return list(dict.fromkeys(names))


def _acts(options: FactCheckOptions, message: ToolMessage) -> bool:
    """Whether a tool result comes from an action: the tool guard's declaration on it
    (`ToolPolicy(read=...)`, the guard's `read_tools`), else `options.is_action`."""
    declared = guard_record(message).get("read")
    return not declared if isinstance(declared, bool) else options.is_action(message.name or "")
