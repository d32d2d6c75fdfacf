"""`--agent`: a real create_agent graph driven by a scripted model over stubbed tools."""

from __future__ import annotations

import json

import pytest
import scripted_agent
from eval_helpers import MINI, make_case
from langchain_core.messages import ToolMessage

from factcheck.cli import main
from factcheck.eval.agent import (
    AgentLoadError,
    ToolRecorder,
    agent_input,
    judge,
    load_factory,
    run_agent_eval,
    stub_tools,
)
from factcheck.eval.runner import evaluate
from factcheck.eval.suite import load_suite


@pytest.fixture
def cases():
    cases = load_suite([MINI])
    scripted_agent.use_cases(cases)
    return cases


def _call(tool, args, call_id="c1"):
    return tool.invoke({"name": tool.name, "args": args, "id": call_id, "type": "tool_call"})


def test_stub_tools_replay_recorded_outputs_by_arguments():
    case = make_case("Order 2 shipped.", tool_calls=[
        {"name": "get_order", "args": {"order_id": "1"}, "output": {"status": "pending"},
         "status": "ok"},
        {"name": "get_order", "args": {"order_id": "2"}, "output": "shipped", "status": "ok"},
        {"name": "cancel", "args": {"order_id": "1"}, "output": "Timeout", "status": "error"},
    ])
    rec = ToolRecorder(list(case.tool_calls))
    tools = {t.name: t for t in stub_tools(case, rec)}
    assert sorted(tools) == ["cancel", "get_order"]
    assert "order_id" in tools["get_order"].tool_call_schema.model_json_schema()["properties"]
    second = _call(tools["get_order"], {"order_id": "2"})
    first = _call(tools["get_order"], {"order_id": "9"})  # unknown args: next unused call
    again = _call(tools["get_order"], {"order_id": "2"})  # all used: the last call
    assert (second.content, json.loads(first.content), again.content) == (
        "shipped", {"status": "pending"}, "shipped")
    err = _call(tools["cancel"], {"order_id": "1"})
    assert isinstance(err, ToolMessage) and err.status == "error" and err.content == "Timeout"
    assert [c["status"] for c in rec.calls] == ["ok", "ok", "ok", "error"]
    assert rec.calls[0] == {"name": "get_order", "args": {"order_id": "2"}, "output": "shipped",
                            "status": "ok"}


def test_agent_input_puts_context_first():
    case = make_case("Refund failed.", context=["policy: be brief"])
    msgs = agent_input(case)["messages"]
    assert [m.type for m in msgs] == ["system", "human"]
    assert msgs[0].content == "policy: be brief" and msgs[1].content == case.question


def test_judge_uses_the_spans_of_the_text_it_sees():
    case = make_case("Refund succeeded.", ["succeeded"], retry_answer="Refund failed; succeeded "
                     "next week.", retry_hallucinated_spans=["next week"])
    assert judge(case, case.answer)
    assert judge(case, case.retry_answer)
    assert not judge(case, "Refund failed.")
    assert judge(case, "It succeeded.")  # any other text: both span sets


def test_load_factory_errors():
    assert load_factory("scripted_agent:make_agent") is scripted_agent.make_agent
    for spec, msg in [("nocolon", "module:factory"), ("no_such_mod_x:f", "cannot import"),
                      ("scripted_agent:nope", "no attribute"), ("scripted_agent:SCRIPTS", None)]:
        with pytest.raises(AgentLoadError, match=msg or "not callable"):
            load_factory(spec)


def test_live_run_with_and_without_fact_check_matches_the_replay(cases):
    live = run_agent_eval(cases, scripted_agent.make_agent)
    summary, _ = evaluate(cases)
    assert live["cases"] == len(cases)
    assert live["plain"]["errors"] == live["checked"]["errors"] == 0
    # the scripted model repeats the recorded answers, so the plain agent is as bad as the gold
    assert live["plain"]["hallucination_rate"] == summary["end_to_end"]["before"]
    assert [r["plain"] for r in live["runs"]] == [c.answer for c in cases]
    # with the wrapper: one retry with the recorded retry answer, then drop, as the replay does
    assert live["checked"]["hallucination_rate"] == summary["end_to_end"]["after"]
    assert live["checked"]["hallucination_rate"] < live["plain"]["hallucination_rate"]


def test_cli_agent_option(cases, capsys, monkeypatch):
    code = main(["eval", "--suite", str(MINI), "--json", "--quiet",
                 "--agent", "scripted_agent:make_agent"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agent"]["factory"] == "scripted_agent:make_agent"
    assert out["agent"]["plain"]["hallucination_rate"] == out["end_to_end"]["before"]
    code = main(["eval", "--suite", str(MINI), "--quiet", "--agent", "scripted_agent:make_agent"])
    text = capsys.readouterr().out
    assert code == 0 and "live agent scripted_agent:make_agent" in text
    assert main(["eval", "--suite", str(MINI), "--quiet", "--agent", "nope"]) == 2
    assert "module:factory" in capsys.readouterr().err


def test_live_run_on_the_bundled_suite_matches_the_replay():
    from factcheck.eval.suite import SuiteError

    try:
        cases = load_suite()
    except SuiteError:
        pytest.skip("bundled suite not present")
    scripted_agent.use_cases(cases)
    live = run_agent_eval(cases, scripted_agent.make_agent)
    summary, _ = evaluate(cases)
    assert live["plain"]["errors"] == live["checked"]["errors"] == 0
    assert live["plain"]["hallucination_rate"] == summary["end_to_end"]["before"]
    assert live["checked"]["hallucination_rate"] == summary["end_to_end"]["after"]
