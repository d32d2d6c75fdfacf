"""The state of one wrapped run, shared by the wrapper, its stream loop, its stream handlers and its tracing."""

from __future__ import annotations

from typing import Any, NoReturn
from uuid import uuid4

from langchain_core.callbacks import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.language_models import BaseLanguageModel
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.base import RunnableBindingBase
from langchain_core.runnables.config import patch_config

from factcheck.errors import CheckerFailure, FactCheckError
from factcheck.langchain.correction import build_correction
from factcheck.langchain.engine import (
    FactCheckOptions,
    attach_run,
    failed_closed,
    finish,
    out_of_answers,
    retry_wanted,
    run_check,
    unchecked,
)
from factcheck.langchain.extract import (
    MESSAGES_KEY,
    RUN_METADATA_KEY,
    AnswerLocation,
    OutputToolCall,
    context_from_input,
    find_answer,
    is_correction,
    put_answer,
    retry_input,
    tool_calls_from_output,
)
from factcheck.langchain.ledger import RepeatedActionBlocked, RepeatGuard, ToolLedger, plain_value
from factcheck.langchain.run_report import RunReport
from factcheck.report import Report


class RunState:
    """The attempts of one wrapped run: ledger, evidence, retry inputs, final output."""

    def __init__(self, options: FactCheckOptions, bound: Runnable[Any, Any], input: Any) -> None:
        """Start a run.

        Args:
            options: The wrapper's options.
            bound: The wrapped runnable.
            input: The run's input.
        """
        self.options = options
        self.accepts_messages = _accepts_messages(bound)
        self.original = input
        self.current = input
        self.context = context_from_input(input)
        self.max_retries = self.options.resolved_max_retries()
        self.ledger = ToolLedger()
        self.guard = (
            RepeatGuard(self.ledger, self.options.is_action)
            if self.options.block_repeated_actions
            else None
        )
        self.attempt = -1
        self.attempts: list[Report] = []
        self.corrections: list[str] = []
        self.notes: list[str] = []
        self.seen_outputs: list[OutputToolCall] = []
        self.last: tuple[Any, AnswerLocation] | None = None
        self.superseded: set[str] = set()
        self.releases: list[tuple[str, str | None]] = []
        self.run_key = uuid4().hex

    def attempt_config(
        self,
        config: RunnableConfig,
        run_manager: CallbackManagerForChainRun | AsyncCallbackManagerForChainRun,
        run_name: str | None,
    ) -> RunnableConfig:
        """The config of the next attempt: the caller's, plus the ledger (and guard)."""
        self.attempt += 1
        self.ledger.attempt = self.attempt
        callbacks = run_manager.get_child()
        callbacks.add_handler(self.ledger, inherit=True)
        if self.guard is not None and self.attempt > 0:
            callbacks.add_handler(self.guard, inherit=True)
        child = patch_config(config, callbacks=callbacks, run_name=run_name)
        child["metadata"] = {
            **child.get("metadata", {}),
            "factcheck_attempt": self.attempt,
            RUN_METADATA_KEY: self.run_key,  # ToolGuardMiddleware: once-only across attempts
        }
        return child

    def prepare(self, output: Any) -> tuple[AnswerLocation | None, list[dict[str, Any]]]:
        """Find the answer in an output and gather the evidence of all attempts so far."""
        where = find_answer(output, self.options.answer_key)
        for call in tool_calls_from_output(output):
            if call not in self.seen_outputs:
                self.seen_outputs.append(call)
        return where, self.evidence()

    def check_now(self, text: str, output: Any = None) -> Report:
        """Check a partial answer against the evidence held now (plus `output`'s results).

        Raises:
            CheckerFailure: the checker failed.
        """
        seen = list(self.seen_outputs)
        for call in tool_calls_from_output(output):
            if call not in seen:
                seen.append(call)
        return run_check(self.options, text, self.evidence(seen), self.context)

    def pruned(self, state: Any) -> Any:
        """A state without factcheck's corrections and the answers they superseded."""
        if not isinstance(state, dict) or not isinstance(state.get(MESSAGES_KEY), list):
            return state
        messages = state[MESSAGES_KEY]
        kept = [
            m for m in messages
            if not is_correction(m) and getattr(m, "id", None) not in self.superseded
        ]
        return state if len(kept) == len(messages) else {**state, MESSAGES_KEY: kept}

    def released(self, text: str, message_id: str | None) -> None:
        """Note answer text just released, for the `fact_check_release` run to stream."""
        if text:
            self.releases.append((text, message_id))

    def take_releases(self) -> list[tuple[str, str | None]]:
        """The released text not yet streamed by the release run."""
        out, self.releases = self.releases, []
        return out

    def paired(self, chunks: list[Any], run: RunReport | None = None) -> list[Any]:
        """Chunks as the consumer gets them: `(chunk, report)` pairs with `return_report`."""
        if not self.options.return_report:
            return chunks
        if run is None:
            return [(c, None) for c in chunks]
        if not chunks:
            return [(None, run)]
        return [*((c, None) for c in chunks[:-1]), (chunks[-1], run)]

    def output_only(self, result: Any) -> Any:
        """The output of a `result` (without the report of `return_report`)."""
        return result[0] if self.options.return_report else result

    def evidence(self, seen: list[OutputToolCall] | None = None) -> list[dict[str, Any]]:
        """Ledger runs merged with tool results found in outputs, without duplicates.

        Tool results in the outputs give the order (it is deterministic even when
        tools ran in parallel); the ledger gives the status of each run it saw.
        Runs only the ledger saw follow in start order; results only the output
        holds (e.g. from earlier turns of a conversation) keep their place.
        """
        runs = self.ledger.completed()
        by_call_id = {r.tool_call_id: r for r in runs if r.tool_call_id}
        used: set[Any] = set()
        out: list[dict[str, Any]] = []
        for call in self.seen_outputs if seen is None else seen:
            if call.repeat:  # a guard's notice, not a tool output
                continue
            run = by_call_id.get(call.tool_call_id) if call.tool_call_id else None
            if run is None and not call.tool_call_id:
                run = next(
                    (
                        r
                        for r in runs
                        if r.run_id not in used
                        and r.name == call.name
                        and r.output == plain_value(call.output)
                    ),
                    None,
                )
            if run is None:
                out.append(call.as_tool_call())
            elif run.run_id not in used:
                used.add(run.run_id)
                out.append({**run.as_tool_call(), "untrusted": True} if call.untrusted else run.as_tool_call())
        out.extend(r.as_tool_call() for r in runs if r.run_id not in used)
        return out

    def advance(self, output: Any, where: AnswerLocation, report: Report) -> bool:
        """Record an attempt; prepare the retry input and return True to retry."""
        self.attempts.append(report)
        self.last = (output, where)
        if not retry_wanted(report, len(self.attempts), self.max_retries):
            return False
        executed_actions = self.executed_actions()

        def correction(include_answer: bool) -> str:
            return build_correction(report, executed_actions, include_answer=include_answer)

        retry = retry_input(
            self.original,
            self.current,
            output,
            where.text,
            correction,
            accepts_messages=self.accepts_messages,
            input_key=self.options.input_key,
        )
        if retry is None:
            self.notes.append(
                f"no retry: a correction cannot be added to a {type(self.original).__name__} input"
                " (set input_key)"
            )
            return False
        if executed_actions and not retry.carries_history and self.guard is not None:
            self.notes.append(
                "no retry: it would re-run the runnable from its input, and these action "
                f"tools already ran: {', '.join(executed_actions)}"
            )
            return False
        self.corrections.append(retry.correction)
        self.current = retry.value
        if where.kind == "state" and output[MESSAGES_KEY][where.index].id:
            self.superseded.add(output[MESSAGES_KEY][where.index].id)
        return True

    def executed_actions(self) -> list[str]:
        """Names of action tools the ledger shows as executed, first run first."""
        names = [r.name for r in self.ledger.executed() if r.acts(self.options.is_action)]
        return list(dict.fromkeys(names))

    def blocked(self, exc: RepeatedActionBlocked) -> None:
        """A retry tried to run an action tool again; the guard stopped it."""
        self.notes.append(f"retry {self.attempt} stopped: {exc}")

    def no_answer(self, output: Any) -> CheckerFailure:
        """The error for an output with no recognisable final answer."""
        return CheckerFailure(
            f"no final answer found in a {type(output).__name__} output "
            "(expected an AI message, a `messages` state, an `output` key or a str; "
            "set answer_key)"
        )

    def checker_failed(self, where: AnswerLocation | None, error: CheckerFailure) -> RunReport:
        """The report of a checker failure: `unchecked` (fail open) or `failed` (fail closed)."""
        answer = where.text if where else ""
        run = unchecked(self.options, answer, error, self.attempts)
        return self._with_tools(run.model_copy(update={"notes": [*self.notes, *run.notes]}))

    def unchecked_result(
        self, output: Any, where: AnswerLocation | None, run: RunReport, error: CheckerFailure
    ) -> Any:
        """The output with the report put in: the answer (fail open) or the fallback.

        Raises:
            CheckerFailure: fail closed; it carries the answer, the report, and this
                output with the fallback in place of the answer.
        """
        if where is not None:
            output = put_answer(
                output, where, run.final_text, run.model_dump(mode="json"), self.options.report_key
            )
        result = self._returned(output, where, run)
        if run.outcome == "failed":
            raise failed_closed(error, run, self.output_only(result)) from error.__cause__
        return result

    def so_far(self) -> RunReport:
        """The report of the attempts so far, for an error raised out of the run."""
        run = RunReport(outcome="raised", attempts=self.attempts, corrections=self.corrections, notes=self.notes)
        return self._with_tools(run)

    def reraise(self, error: BaseException) -> NoReturn:
        """Raise the clear error for a scripted model out of answers, else `error`; it carries
        the report of the attempts so far."""
        clear = out_of_answers(error, self.attempt)
        attach_run(clear or error, self.so_far())
        if clear is not None:
            raise clear from error
        raise error

    def finish(self) -> tuple[RunReport, FactCheckError | None]:
        """Apply `on_fail` to the last attempt and build the run report."""
        run = RunReport(
            outcome="passed",
            attempts=self.attempts,
            corrections=self.corrections,
            notes=self.notes,
        )
        return finish(self.options, self._with_tools(run))

    def result(self, run: RunReport) -> Any:
        """The last attempt's output with the final text and the report put in."""
        assert self.last is not None
        output, where = self.last
        output = put_answer(
            output, where, run.final_text, run.model_dump(mode="json"), self.options.report_key
        )
        return self._returned(output, where, run)

    def _returned(self, output: Any, where: AnswerLocation | None, run: RunReport) -> Any:
        if where is not None and where.kind == "state" and self.options.prune_history:
            messages = output[MESSAGES_KEY]
            drop = self.superseded - {messages[where.index].id}
            output[MESSAGES_KEY] = [
                m
                for m in messages
                if not is_correction(m) and getattr(m, "id", None) not in drop
            ]
        return (output, run) if self.options.return_report else output

    def _with_tools(self, run: RunReport) -> RunReport:
        runs = self.ledger.completed()
        return run.model_copy(
            update={
                "executed_tools": [r.name for r in runs if r.status == "ok"],
                "failed_tools": [r.name for r in runs if r.status == "error"],
                "tool_guard": [c.guard_event for c in self.seen_outputs if c.guard_event],
            }
        )


def _accepts_messages(runnable: Runnable[Any, Any]) -> bool:
    for _ in range(16):
        if not isinstance(runnable, RunnableBindingBase):
            break
        runnable = runnable.bound
    return isinstance(runnable, BaseLanguageModel)
