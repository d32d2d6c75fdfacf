"""Options and the check/correct/downgrade steps shared by the wrapper and the middleware."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from factcheck.config import CheckerConfig
from factcheck.errors import CheckerFailure, FactCheckError
from factcheck.extractors.segment import mostly_zh_or_en
from factcheck.guard.reads import action_matcher
from factcheck.langchain.release import StreamRelease
from factcheck.langchain.run_report import DEFAULT_REPORT_KEY, Outcome, RunReport
from factcheck.policy import DEFAULT_FALLBACK, OnFail, apply_on_fail
from factcheck.report import Report

if TYPE_CHECKING:
    from factcheck.checker import FactChecker

logger = logging.getLogger("factcheck.langchain")

ENV_ENABLED = "FACTCHECK_ENABLED"
"""Set to `false` (or `0`, `no`, `off`) to turn every fact check into a pass-through."""
ENV_MAX_RETRIES = "FACTCHECK_MAX_RETRIES"
"""Overrides the default number of retries (2) where none is given in code."""
DEFAULT_MAX_RETRIES = 2
"""Retries when neither the code nor `FACTCHECK_MAX_RETRIES` says otherwise."""
CHECK_RUN_NAME = "fact_check"
"""Name of the traced run that checks one answer, and of the custom callback event
that carries the finished `RunReport` (as JSON data)."""

_FALSE = {"false", "0", "no", "off"}
_TRUE = {"true", "1", "yes", "on", ""}
_default_checker: FactChecker | None = None
_default_lock = threading.Lock()


def enabled_from_env() -> bool:
    """Read `FACTCHECK_ENABLED`; unset or unrecognised means enabled (with a warning)."""
    raw = os.environ.get(ENV_ENABLED)
    if raw is None:
        return True
    value = raw.strip().lower()
    if value in _FALSE:
        return False
    if value not in _TRUE:
        logger.warning("%s=%r is not true/false; fact checking stays on", ENV_ENABLED, raw)
    return True


def max_retries_from_env(default: int = DEFAULT_MAX_RETRIES) -> int:
    """Read `FACTCHECK_MAX_RETRIES`; unset or invalid gives `default` (with a warning)."""
    raw = os.environ.get(ENV_MAX_RETRIES)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = -1
    if value < 0:
        logger.warning("%s=%r is not a count >= 0; using %d", ENV_MAX_RETRIES, raw, default)
        return default
    return value


class FactCheckOptions(BaseModel):
    """Settings of `.with_fact_check()` and `FactCheckMiddleware`."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, extra="forbid")

    checker: Any = None
    """A ready `FactChecker` to reuse; built from `config` when None."""
    config: CheckerConfig | None = None
    """Checker settings; the defaults when None. Ignored when `checker` is given."""
    action_tools: dict[str, tuple[str, ...]] | None = None
    """Action concept -> tool-name fragments (`{"publish": ("publish", "post_to")}`),
    merged over `config.action_tools`. Decides which claimed actions need a tool call."""
    read_tools: tuple[str, ...] = ()
    """Names of tools that only read, which a retry may run again. Every other tool is
    an action and never runs twice, unless its name starts with one of the lexicon's
    read verbs (`read_only_tool_prefixes`: get, list, search, find, lookup, check,
    read, fetch, query, view, show, ...), the documented default. Where `ToolGuardMiddleware`
    declares a tool (`ToolPolicy(read=...)`, its `read_tools`), its declaration decides."""
    max_retries: int | None = Field(default=None, ge=0)
    """Retries after the first answer; None reads `FACTCHECK_MAX_RETRIES`, else 2."""
    on_fail: OnFail = "drop"
    """`drop`, `annotate`, `raise` or a callable `(Report) -> str`, applied to the last
    answer when it is still flagged after the retries (see `factcheck.policy`)."""
    fallback: str | None = None
    """Safe message for `drop` when nothing is left; a default in the answer's language."""
    fail_open: bool = False
    """When the checker itself fails: False raises `CheckerFailure` (fail closed); True
    passes the answer through unchecked and logs a warning."""
    return_report: bool = False
    """Wrapper only: return `(output, RunReport)` instead of the output."""
    report_key: str = DEFAULT_REPORT_KEY
    """Key of the report in `AIMessage.response_metadata`, dict outputs and agent state."""
    answer_key: str | None = None
    """Dict output key holding the answer; default: last AI message of `messages`,
    else `output`."""
    input_key: str | None = None
    """Dict input key (without `messages`) a correction is appended to on retry;
    default: the first of `input`, `question`, `query` holding a str."""
    lang: str | None = None
    """Answer language (`zh`, `en`, `mixed`) for the checker; detected when None."""
    min_confidence: float | None = Field(default=None, ge=0, le=1)
    """Flags below this confidence are uncertain: reported, never retried, dropped or
    annotated. Overrides `config.min_confidence` (default 0.7) when given."""
    verifier: Any = None
    """A chat model or a callable `(claim, evidence) -> (verdict, confidence)` asked about the claims the
    checks are unsure of; overrides `config.verifier` (see `CheckerConfig.verifier`, `factcheck.verify`)."""
    verify_between: tuple[float, float] | None = None
    """The confidence band of the claims the verifier is asked about; overrides `config.verify_between`
    (default (0.2, 0.7))."""
    block_repeated_actions: bool = True
    """Never let a retry run an action tool that an earlier attempt already ran."""
    stream_release: StreamRelease = "sentence"
    """When streamed answer text reaches the consumer: `sentence` (each sentence once
    it is checked against the evidence the run holds) or `final` (once the whole answer
    is checked and, if need be, retried)."""
    prune_history: bool = True
    """Remove the superseded flagged answers and the corrections from the returned
    `messages` (the report keeps them), so no unchecked answer stays in the
    conversation the user sees or the model learns from."""

    _checker: Any = PrivateAttr(default=None)
    _is_action: Callable[[str], bool] | None = PrivateAttr(default=None)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    def resolved_max_retries(self) -> int:
        """`max_retries` if given, else `FACTCHECK_MAX_RETRIES`, else 2."""
        return self.max_retries if self.max_retries is not None else max_retries_from_env()

    def get_checker(self) -> FactChecker:
        """The checker to use, built once (the default one is shared process-wide)."""
        if self.checker is not None:
            return self.checker
        with self._lock:
            if self._checker is None:
                self._checker = _build_checker(self._checker_config())
            return self._checker

    def is_action(self, tool_name: str) -> bool:
        """Whether a tool may perform an action: every tool not declared a read (fail safe)."""
        if self._is_action is None:
            self._is_action = action_matcher(self.read_tools, self._lexicon().read_only_tools)
        return self._is_action(tool_name)

    @model_validator(mode="after")
    def _one_place_for_the_threshold(self) -> FactCheckOptions:
        for name in ("min_confidence", "verifier", "verify_between"):
            if self.checker is not None and getattr(self, name) is not None:
                raise ValueError(f"{name} cannot be combined with a ready `checker`: "
                                 f"build it with FactChecker(CheckerConfig({name}=...))")
        return self

    def _checker_config(self) -> CheckerConfig | None:
        overrides = {name: getattr(self, name) for name in ("min_confidence", "verifier", "verify_between")}
        if self.action_tools is None and all(v is None for v in overrides.values()):
            return self.config
        base = self.config or CheckerConfig()
        update: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        if self.action_tools is not None:
            update["action_tools"] = {**base.action_tools, **{k: tuple(v) for k, v in self.action_tools.items()}}
        return CheckerConfig.model_validate({**dict(base), **update})

    def _lexicon(self) -> Any:
        checker = self.get_checker()
        lexicon = getattr(checker, "lexicon", None)
        if lexicon is not None:
            return lexicon
        from factcheck.lexicon import load_lexicon

        config = getattr(checker, "config", None) or self._checker_config() or CheckerConfig()
        return load_lexicon(config.lexicon_paths)


def _build_checker(config: CheckerConfig | None) -> FactChecker:
    global _default_checker
    from factcheck.checker import FactChecker

    if config is not None:
        return FactChecker(config)
    with _default_lock:
        if _default_checker is None:
            _default_checker = FactChecker(CheckerConfig())
        return _default_checker


class ModelOutOfAnswers(RuntimeError):
    """A scripted chat model (`GenericFakeChatModel`) had no message left for an attempt."""


def out_of_answers(error: BaseException, attempt: int) -> ModelOutOfAnswers | None:
    """The clear error for a scripted model whose message iterator ran dry, else None.

    `GenericFakeChatModel` calls `next()` on its `messages`; inside its generator that
    surfaces as `RuntimeError: generator raised StopIteration` (or StopIteration).

    Args:
        error: What the wrapped runnable or the model call raised.
        attempt: 0 for the first answer, N for the N-th retry.
    """
    stop = error if isinstance(error, StopIteration) else error.__cause__
    if not isinstance(stop, StopIteration):
        return None
    which = "its first answer" if attempt == 0 else f"fact-check retry {attempt}"
    return ModelOutOfAnswers(
        f"the chat model ran out of scripted messages during {which}: a scripted model "
        "(GenericFakeChatModel) gives one message per model call, and each fact-check "
        "retry calls the model again, so script the retries' messages too"
    )


def run_check(
    options: FactCheckOptions,
    answer: str,
    tool_calls: Sequence[dict[str, Any]],
    context: Sequence[str],
) -> Report:
    """Check an answer; any failure of the checker becomes `CheckerFailure`.

    Raises:
        CheckerFailure: the checker could not be built or raised.
    """
    try:
        return options.get_checker().check(
            answer, tool_calls=list(tool_calls), context=list(context), lang=options.lang
        )
    except CheckerFailure:
        raise
    except Exception as exc:
        raise CheckerFailure(f"fact checker failed: {type(exc).__name__}: {exc}") from exc


def retry_wanted(report: Report, answers: int, max_retries: int) -> bool:
    """Whether a flagged answer is sent back for another try: the one bound on retries.

    Args:
        report: The report of the answer just checked.
        answers: Answers checked so far in this run (or agent turn), this one included.
        max_retries: The retries allowed after the first answer.
    """
    return not report.ok and answers <= max_retries


def unchecked(
    options: FactCheckOptions, answer: str, error: CheckerFailure, attempts: list[Report]
) -> RunReport:
    """The report of a checker failure: `unchecked` (fail open) or `failed` (fail closed).

    With `fail_open` the answer passes through (a warning is logged); without it the user
    gets the fallback and the report keeps the answer as `unchecked_answer`. Raise the
    error with `failed_closed` after emitting the report.
    """
    notes = [str(error)]
    if options.fail_open:
        logger.warning("fact check failed; passing the answer through unchecked: %s", error)
        return RunReport(outcome="unchecked", attempts=list(attempts), final_text=answer,
                         unchecked_answer=answer, notes=notes)
    fallback = options.fallback if options.fallback is not None else DEFAULT_FALLBACK[mostly_zh_or_en(answer)]
    return RunReport(outcome="failed", attempts=list(attempts), final_text=fallback,
                     unchecked_answer=answer, notes=notes)


def failed_closed(error: FactCheckError, run: RunReport, output: Any = None) -> FactCheckError:
    """`error` carrying the run: its report, the answer and, for the user, the fallback.

    Args:
        error: The error about to be raised.
        run: The finished report (outcome `failed` or `raised`).
        output: The output with the fallback put in, when there is one.
    """
    error.run_report = run
    error.output = output
    if run.unchecked_answer is not None:
        error.answer = run.unchecked_answer
    elif run.attempts:
        error.answer = run.attempts[-1].answer
    if isinstance(error, CheckerFailure):
        error.fallback = run.final_text
    return error


def attach_run(error: BaseException, run: RunReport) -> None:
    """Let any error raised out of a run carry the report of what it did so far."""
    try:
        if getattr(error, "run_report", None) is None:
            error.run_report = run  # type: ignore[attr-defined]
    except AttributeError:  # a built-in error type without a __dict__
        logger.debug("run report not attached to %s", type(error).__name__)


def finish(options: FactCheckOptions, run: RunReport) -> tuple[RunReport, FactCheckError | None]:
    """Set the outcome and final text from the last attempt, applying `on_fail`.

    Returns:
        The finished report, and the error to raise after emitting it when
        `on_fail="raise"` (`UnbackedActionError` for unbacked actions); the error
        carries the finished report as `run_report`.
    """
    last = run.attempts[-1]
    if last.ok:
        outcome: Outcome = "passed" if len(run.attempts) == 1 else "retried"
        return run.model_copy(update={"outcome": outcome, "final_text": last.answer}), None
    try:
        text = apply_on_fail(last, options.on_fail, options.fallback)
    except FactCheckError as exc:
        run = run.model_copy(update={"outcome": "raised", "final_text": ""})
        return run, failed_closed(exc, run)
    outcome = "custom" if callable(options.on_fail) else _OUTCOME[options.on_fail]
    return run.model_copy(update={"outcome": outcome, "final_text": text}), None


_OUTCOME: dict[str, Outcome] = {"drop": "dropped", "annotate": "annotated"}
