"""Bad input and operator switches: agent errors, checker failures, env variables."""

from __future__ import annotations

import logging

import pytest
from conftest import call, scripted
from langchain.agents import create_agent
from langchain_core.runnables import RunnableLambda

from factcheck import CheckerFailure
from factcheck.langchain import get_run_report

BAD = "已为您成功退款，订单号 88231。"
REFUND_Q = {"messages": [("user", "请帮我退款，订单号 88231")]}


class BrokenChecker:
    """A checker that fails the way a bug or a resource limit would."""

    def __init__(self) -> None:
        self.calls = 0

    def check(self, answer, tool_calls=(), context=(), lang=None):
        self.calls += 1
        raise MemoryError("lexicon exhausted")


def _agent(tools, *replies):
    model = scripted(call("refund_order", {"order_id": "88231"}), *replies)
    return create_agent(model, [tools.refund_order]), model


def test_exception_from_the_wrapped_runnable_propagates_unchanged():
    error = ValueError("upstream 502")

    def boom(_):
        raise error

    with pytest.raises(ValueError) as info:
        RunnableLambda(boom).with_fact_check().invoke("hi")
    assert info.value is error


async def test_async_exception_propagates_unchanged():
    error = KeyError("missing")

    async def boom(_):
        raise error

    with pytest.raises(KeyError) as info:
        await RunnableLambda(boom).with_fact_check().ainvoke("hi")
    assert info.value is error


def test_checker_failure_fails_closed_by_default(tools):
    agent, _ = _agent(tools, BAD)
    checker = BrokenChecker()

    with pytest.raises(CheckerFailure) as info:
        agent.with_fact_check(checker=checker).invoke(REFUND_Q)

    assert isinstance(info.value.__cause__, MemoryError)
    assert checker.calls == 1


async def test_checker_failure_fails_closed_async(tools):
    agent, _ = _agent(tools, BAD)
    with pytest.raises(CheckerFailure):
        await agent.with_fact_check(checker=BrokenChecker()).ainvoke(REFUND_Q)


def test_fail_open_passes_the_answer_through_with_a_warning(tools, caplog):
    agent, model = _agent(tools, BAD)

    with caplog.at_level(logging.WARNING, logger="factcheck.langchain"):
        out = agent.with_fact_check(checker=BrokenChecker(), fail_open=True).invoke(REFUND_Q)

    assert out["messages"][-1].content == BAD
    report = get_run_report(out)
    assert report.outcome == "unchecked" and "MemoryError" in report.notes[0]
    assert any("unchecked" in r.getMessage() for r in caplog.records)
    assert model.calls == 2


def test_output_without_an_answer_is_a_checker_failure():
    with pytest.raises(CheckerFailure, match="no final answer"):
        RunnableLambda(lambda _: 42).with_fact_check().invoke("hi")
    assert RunnableLambda(lambda _: 42).with_fact_check(fail_open=True).invoke("hi") == 42


def test_answer_key_points_at_a_custom_field():
    chain = RunnableLambda(lambda _: {"reply": "订单号 88231 已退款。"})
    with pytest.raises(CheckerFailure):
        chain.with_fact_check().invoke("hi")
    out = chain.with_fact_check(answer_key="reply", max_retries=0).invoke("hi")
    assert get_run_report(out).attempts[0].answer == "订单号 88231 已退款。"


def test_unknown_on_fail_is_rejected_at_wrap_time():
    with pytest.raises(ValueError, match="on_fail"):
        RunnableLambda(lambda x: x).with_fact_check(on_fail="ignore")


def test_env_disabled_makes_the_wrapper_a_pass_through(tools, monkeypatch):
    agent, model = _agent(tools, BAD, "unused")
    wrapped = agent.with_fact_check(checker=BrokenChecker())
    monkeypatch.setenv("FACTCHECK_ENABLED", "false")

    out = wrapped.invoke(REFUND_Q)

    assert out["messages"][-1].content == BAD
    assert "fact_check" not in out and get_run_report(out) is None
    assert model.calls == 2


async def test_env_disabled_async_and_return_report_shape(tools, monkeypatch):
    agent, _ = _agent(tools, BAD)
    monkeypatch.setenv("FACTCHECK_ENABLED", "0")
    out, report = await agent.with_fact_check(return_report=True).ainvoke(REFUND_Q)
    assert report is None and out["messages"][-1].content == BAD


def test_env_max_retries_overrides_the_default(tools, monkeypatch):
    monkeypatch.setenv("FACTCHECK_MAX_RETRIES", "0")
    agent, model = _agent(tools, BAD, "unused")

    out = agent.with_fact_check().invoke(REFUND_Q)

    report = get_run_report(out)
    assert len(report.attempts) == 1 and report.corrections == []
    assert model.calls == 2


def test_explicit_max_retries_wins_over_env(tools, monkeypatch):
    monkeypatch.setenv("FACTCHECK_MAX_RETRIES", "0")
    agent, model = _agent(tools, BAD, "订单号 88231 的退款失败了，未退款。")
    out = agent.with_fact_check(max_retries=1).invoke(REFUND_Q)
    assert get_run_report(out).outcome == "retried"


@pytest.mark.parametrize("value", ["many", "-1"])
def test_invalid_env_max_retries_uses_default_with_warning(tools, monkeypatch, caplog, value):
    monkeypatch.setenv("FACTCHECK_MAX_RETRIES", value)
    agent, _ = _agent(tools, BAD, BAD, BAD)
    with caplog.at_level(logging.WARNING, logger="factcheck.langchain"):
        out = agent.with_fact_check().invoke(REFUND_Q)
    assert len(get_run_report(out).attempts) == 3
    assert any("FACTCHECK_MAX_RETRIES" in r.getMessage() for r in caplog.records)


def test_unrecognised_env_enabled_keeps_checking(tools, monkeypatch, caplog):
    monkeypatch.setenv("FACTCHECK_ENABLED", "flase")
    agent, _ = _agent(tools, BAD)
    with caplog.at_level(logging.WARNING, logger="factcheck.langchain"):
        out = agent.with_fact_check(max_retries=0).invoke(REFUND_Q)
    assert get_run_report(out) is not None
    assert any("FACTCHECK_ENABLED" in r.getMessage() for r in caplog.records)


def test_same_input_gives_the_same_report(tools):
    def run():
        agent, _ = _agent(tools, BAD, BAD, BAD)
        report = get_run_report(agent.with_fact_check().invoke(REFUND_Q))
        return report.model_dump(exclude={"attempts": {"__all__": {"elapsed_ms"}}})

    assert run() == run()
