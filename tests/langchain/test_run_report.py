"""The run report: readable text, found in every output shape, and clear set-up errors."""

from __future__ import annotations

import importlib
import sys

import pytest
from conftest import CountedTools, call, scripted, token_model
from langchain.agents import create_agent

from factcheck import FactCheckError
from factcheck.langchain import FactCheckMiddleware, get_run_report
from factcheck.langchain.engine import ModelOutOfAnswers

LIE = "Your refund of $45 has been processed."
GOOD = "The refund of order 88231 failed."
Q = {"messages": [("user", "please refund order 88231")]}


def _agent(*answers, middleware=False, **options):
    tools = CountedTools()
    model = token_model(call("refund_order", {"order_id": "88231"}), *answers)
    if middleware:
        return create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(**options)])
    return create_agent(model, [tools.refund_order]).with_fact_check(**options)


@pytest.mark.parametrize(
    ("answers", "options", "head", "given"),
    [
        ((GOOD,), {}, "fact-checked run: passed", GOOD),
        ((LIE, GOOD), {}, "fact-checked run: fixed after 1 retry", GOOD),
        ((LIE, LIE, LIE), {}, "fact-checked run: flagged claims dropped after 2 retries", "Sorry"),
        ((LIE,), {"max_retries": 0, "on_fail": "annotate"}, "flagged claims annotated", LIE),
    ],
)
def test_str_says_outcome_flagged_claims_evidence_and_tools(answers, options, head, given):
    text = str(get_run_report(_agent(*answers, **options).invoke(Q)))
    lines = text.splitlines()
    assert lines[0] == head or lines[0].startswith(f"fact-checked run: {head}")
    assert lines[1] == "tools run: refund_order"
    assert lines[-1].startswith("answer given: ") and given in lines[-1]
    if LIE in answers:
        assert f"[contradicted] {LIE!r}" in text
        assert "<- refund_order: 'refund result: 失败，订单号 88231 未退款'" in text
    assert len(text) < 1500


def test_str_of_a_raised_run():
    with pytest.raises(FactCheckError) as info:
        _agent(LIE, on_fail="raise", max_retries=0).invoke(Q)
    text = str(get_run_report(info.value))
    assert text.startswith("fact-checked run: raised (on_fail='raise')")
    assert "answer given" not in text


def _shapes():
    yield "invoke state", lambda: _agent(GOOD).invoke(Q)
    yield "middleware state", lambda: _agent(GOOD, middleware=True).invoke(Q)
    yield "middleware final message", lambda: _agent(GOOD, middleware=True).invoke(Q)["messages"][-1]
    yield "return_report pair", lambda: _agent(GOOD, return_report=True).invoke(Q)
    yield "chat model message", lambda: scripted("Hello there.").with_fact_check().invoke("hi")
    yield "messages chunks", lambda: list(_agent(GOOD).stream(Q, stream_mode="messages"))
    yield "updates chunks", lambda: list(_agent(GOOD).stream(Q, stream_mode="updates"))
    yield "middleware messages chunks", lambda: list(
        _agent(GOOD, middleware=True).stream(Q, stream_mode="messages")
    )
    yield "chat model chunks added up", lambda: _sum(scripted("Hello there.").with_fact_check().stream("hi"))


def _sum(chunks):
    chunks = list(chunks)
    return sum(chunks[1:], chunks[0])


@pytest.mark.parametrize(("name", "make"), list(_shapes()), ids=[n for n, _ in _shapes()])
def test_get_run_report_finds_it_in_every_shape(name, make):
    report = get_run_report(make())
    assert report is not None and report.outcome == "passed"


def test_a_str_output_carries_no_report():
    assert get_run_report("plain text") is None


@pytest.mark.parametrize("name", ["FactCheckMiddleware", "ToolGuardMiddleware", "ChatHistoryMiddleware",
                                  "ToolChainHistory", "with_tool_chain_history"])
def test_names_that_need_langchain_name_the_extra_without_it(monkeypatch, name):
    for module in ("middleware", "guard_middleware", "history"):
        monkeypatch.delitem(sys.modules, f"factcheck.langchain.{module}", raising=False)
    monkeypatch.setitem(sys.modules, "langchain.agents", None)
    monkeypatch.setitem(sys.modules, "langchain.agents.middleware", None)
    package = importlib.import_module("factcheck.langchain")
    with pytest.raises(ImportError, match=r'pip install "agent-factcheck\[langchain\]"'):
        getattr(package, name)


def test_an_unknown_name_is_an_attribute_error():
    import factcheck.langchain as package

    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        package.NoSuchThing  # noqa: B018


@pytest.mark.parametrize("middleware", [False, True], ids=["wrapper", "middleware"])
def test_scripted_model_out_of_answers_is_a_clear_error(middleware):
    agent = _agent(LIE, middleware=middleware)  # the retry finds no scripted message
    with pytest.raises(ModelOutOfAnswers, match="ran out of scripted messages during fact-check retry 1"):
        agent.invoke(Q)
