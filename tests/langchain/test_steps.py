"""One prepare -> check -> decide loop: its steps, and sync and async twins that decide alike."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import CountedTools, Recorder, call, token_model
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManager
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from factcheck import CheckerFailure, FactCheckError
from factcheck.langchain import FactCheckMiddleware, get_run_report
from factcheck.langchain.engine import CHECK_RUN_NAME, FactCheckOptions, ModelOutOfAnswers, run_check
from factcheck.langchain.extract import message_text
from factcheck.langchain.ledger import RepeatedActionBlocked
from factcheck.langchain.run_state import RunState
from factcheck.langchain.steps import CheckAnswer, EmitReport, RunAttempt, Steps

BAD = "I checked order 88231. Your refund of $45 has been processed. Thanks for waiting."
GOOD = "I checked order 88231. The refund of order 88231 failed. It was not refunded."
REFUND = call("refund_order", {"order_id": "88231"})
REFUND_Q = {"messages": [("user", "please refund order 88231")]}


class BrokenChecker:
    """A checker that fails the way a bug would."""

    def check(self, answer, tool_calls=(), context=(), lang=None):
        raise ValueError("checker bug")


# scenario -> (the model's script, options, the outcome or error each family ends in)
SCENARIOS: dict[str, tuple[list[Any], dict[str, Any], dict[str, str]]] = {
    "passed": ([REFUND, GOOD], {}, {"wrapper": "passed", "middleware": "passed"}),
    "retried": ([REFUND, BAD, GOOD], {}, {"wrapper": "retried", "middleware": "retried"}),
    "dropped": ([REFUND, BAD, BAD], {"max_retries": 1}, {"wrapper": "dropped", "middleware": "dropped"}),
    "annotated": ([REFUND, BAD], {"max_retries": 0, "on_fail": "annotate"},
                  {"wrapper": "annotated", "middleware": "annotated"}),
    "raised": ([REFUND, BAD], {"max_retries": 0, "on_fail": "raise"},
               {"wrapper": "FactCheckError", "middleware": "FactCheckError"}),
    "unchecked": ([REFUND, BAD], {"checker": BrokenChecker(), "fail_open": True},
                  {"wrapper": "unchecked", "middleware": "unchecked"}),
    "failed": ([REFUND, BAD], {"checker": BrokenChecker()},
               {"wrapper": "CheckerFailure", "middleware": "CheckerFailure"}),
    # a retry calls the refund again: the wrapper's guard stops the retry, the middleware refuses the call
    "repeat": ([REFUND, BAD, REFUND, GOOD], {"max_retries": 1}, {"wrapper": "dropped", "middleware": "retried"}),
    "out of answers": ([REFUND, BAD], {"max_retries": 1},
                       {"wrapper": "ModelOutOfAnswers", "middleware": "ModelOutOfAnswers"}),
}
# surface -> (family, how it is called)
SURFACES = {
    "wrapper invoke": ("wrapper", "invoke"),
    "wrapper stream values": ("wrapper", "stream"),
    "wrapper stream messages": ("wrapper", "stream messages"),
    "middleware invoke": ("middleware", "invoke"),
    "middleware stream messages": ("middleware", "stream messages"),
}


def _seen(item: Any) -> Any:
    """What a consumer sees of an output or a chunk, without the run's random message ids."""
    if isinstance(item, tuple):  # messages mode: (message chunk, metadata)
        message, meta = item
        return type(message).__name__, message_text(message), meta.get("langgraph_node")
    return [(type(m).__name__, message_text(m)) for m in item.get("messages", [])]


def _timeless(run: dict[str, Any]) -> dict[str, Any]:
    """A run report's JSON data without the checks' timings."""
    return {**run, "attempts": [{k: v for k, v in a.items() if k != "elapsed_ms"} for a in run["attempts"]]}


def _twin(surface: str, scenario: str, mode: str) -> dict[str, Any]:
    """Run one surface's sync or async twin on a scenario; what the consumer and the developer get."""
    family, how = SURFACES[surface]
    script, options, _ = SCENARIOS[scenario]
    tools, recorder = CountedTools(), Recorder()
    model = token_model(*script)
    if family == "middleware":
        agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(**options)])
    else:
        agent = create_agent(model, [tools.refund_order]).with_fact_check(**options)
    config = {"callbacks": [recorder]}
    kwargs = {"stream_mode": "messages"} if how == "stream messages" else {}
    got: dict[str, Any] = {"seen": []}

    async def run_async() -> None:
        if how == "invoke":
            got["seen"] = _seen(await agent.ainvoke(REFUND_Q, config))
        else:
            async for chunk in agent.astream(REFUND_Q, config, **kwargs):
                got["seen"].append(_seen(chunk))

    try:
        if mode == "async":
            asyncio.run(run_async())
        elif how == "invoke":
            got["seen"] = _seen(agent.invoke(REFUND_Q, config))
        else:
            for chunk in agent.stream(REFUND_Q, config, **kwargs):
                got["seen"].append(_seen(chunk))
    except (FactCheckError, RuntimeError) as exc:
        report = get_run_report(exc)
        got["error"] = (type(exc).__name__, str(exc), _timeless(report.model_dump(mode="json")) if report else None)
    got["reports"] = [_timeless(data) for name, data in recorder.events if name == CHECK_RUN_NAME]
    got["tool runs"] = dict(tools.count)
    return got


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("surface", list(SURFACES))
def test_sync_and_async_twins_decide_alike(surface, scenario):
    sync, async_ = _twin(surface, scenario, "sync"), _twin(surface, scenario, "async")
    assert async_ == sync
    family = SURFACES[surface][0]
    expected = SCENARIOS[scenario][2][family]
    if "error" in sync:
        assert sync["error"][0] == expected
        assert sync["error"][2] is not None  # the error carries the report, with the answer
        assert sync["error"][2]["attempts"] or sync["error"][2]["unchecked_answer"] == BAD
    else:
        assert [r["outcome"] for r in sync["reports"]] == [expected]
    assert sync["tool runs"] == {"refund_order": 1}  # a retry never runs the action again
    if expected not in ("annotated", "unchecked"):  # annotate shows the claim marked, fail open unchecked
        assert "$45" not in repr(sync["seen"])  # the flagged claim never reaches the consumer


# --- the steps themselves, driven by hand ---------------------------------------------------------


class Bound(GenericFakeChatModel):
    """The wrapped runnable of the hand-driven runs (only its type matters: outputs are scripted)."""


def _state(output_answer: str) -> dict[str, Any]:
    return {"messages": [
        HumanMessage("please refund order 88231"),
        AIMessage("", tool_calls=[{"name": "refund_order", "args": {"order_id": "88231"}, "id": "c1"}]),
        ToolMessage("refund result: failed, order 88231 was not refunded", tool_call_id="c1", name="refund_order"),
        AIMessage(output_answer),
    ]}


def _drive(options: FactCheckOptions, replies: list[Any]) -> tuple[list[str], Steps]:
    """Carry out a run's steps: each attempt gets the next reply (an answer, or an error to throw)."""
    state = RunState(options, Bound(messages=iter(())), {"messages": [("user", "please refund order 88231")]})
    run_manager = CallbackManager(handlers=[]).on_chain_start(None, {}, name="FactCheck")
    steps = Steps(state, {}, run_manager, None)
    kinds: list[str] = []
    answers = iter(replies)
    for step in steps:
        kinds.append(type(step).__name__)
        if isinstance(step, RunAttempt):
            reply = next(answers)
            if isinstance(reply, BaseException):
                steps.throw(reply)
            else:
                steps.send(_state(reply))
        elif isinstance(step, CheckAnswer):
            steps.answer(lambda s=step: run_check(options, s.answer, s.tool_calls, state.context))
        else:
            assert isinstance(step, EmitReport)
    return kinds, steps


R, C, E = "RunAttempt", "CheckAnswer", "EmitReport"


@pytest.mark.parametrize(
    ("options", "replies", "kinds", "outcome"),
    [
        ({}, [GOOD], [R, C, E], "passed"),
        ({}, [BAD, GOOD], [R, C, R, C, E], "retried"),
        ({"max_retries": 2}, [BAD, BAD, BAD], [R, C, R, C, R, C, E], "dropped"),
        ({"max_retries": 0, "on_fail": "annotate"}, [BAD], [R, C, E], "annotated"),
        ({"max_retries": 3}, [BAD, RepeatedActionBlocked("refund_order already ran")], [R, C, R, E], "dropped"),
        ({"checker": BrokenChecker(), "fail_open": True}, [BAD], [R, C, E], "unchecked"),
    ],
)
def test_steps_bound_the_retries_and_end_with_one_report(options, replies, kinds, outcome):
    got, steps = _drive(FactCheckOptions(**options), replies)
    assert got == kinds
    assert steps.ending is not None and steps.ending.run.outcome == outcome
    result = steps.ending.result()
    assert get_run_report(result).outcome == outcome
    if outcome == "dropped" and isinstance(replies[-1], BaseException):
        assert any("stopped" in note for note in steps.ending.run.notes)


@pytest.mark.parametrize(
    ("options", "replies", "error"),
    [
        ({"max_retries": 0, "on_fail": "raise"}, [BAD], FactCheckError),
        ({"checker": BrokenChecker()}, [BAD], CheckerFailure),
    ],
)
def test_steps_raise_only_once_the_report_is_out(options, replies, error):
    kinds, steps = _drive(FactCheckOptions(**options), replies)
    assert kinds == [R, C, E]
    with pytest.raises(error) as info:
        steps.ending.result()
    assert info.value.run_report == steps.ending.run
    assert info.value.answer == BAD


@pytest.mark.parametrize(
    ("thrown", "raised"),
    [
        (StopIteration(), ModelOutOfAnswers),  # a scripted model with no message left
        (KeyError("boom"), KeyError),  # any other error of the wrapped runnable
    ],
)
def test_an_attempts_error_leaves_the_steps_carrying_the_answers_so_far(thrown, raised):
    with pytest.raises(raised) as info:
        _drive(FactCheckOptions(max_retries=1), [BAD, thrown])
    report = info.value.run_report
    assert report.outcome == "raised"
    assert [a.answer for a in report.attempts] == [BAD]
