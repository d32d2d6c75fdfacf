"""Every Runnable entry point goes through the check; config and tracing pass through."""

from __future__ import annotations

from conftest import Recorder, ScriptedChatModel, call, refund_responder, scripted
from langchain.agents import create_agent

from factcheck.langchain import RunnableFactCheck, get_run_report, with_fact_check

BAD = "已为您成功退款，订单号 88231。"
GOOD = "抱歉，订单号 88231 的退款失败了，目前未退款。"


def _question(order_id: str) -> dict:
    return {"messages": [("user", f"请帮我退款，订单号 {order_id}")]}


def _agent(tools):
    model = ScriptedChatModel(responder=refund_responder)
    return create_agent(model, [tools.refund_order]), model


def _assert_fixed(out, order_id="88231"):
    report = get_run_report(out)
    assert report.outcome == "retried", report
    assert out["messages"][-1].content == GOOD.replace("88231", order_id)
    assert all(BAD.replace("88231", order_id) != m.content for m in out["messages"])


def test_invoke(tools):
    agent, _ = _agent(tools)
    _assert_fixed(agent.with_fact_check().invoke(_question("88231")))
    assert tools.count["refund_order"] == 1


async def test_ainvoke(tools):
    agent, _ = _agent(tools)
    _assert_fixed(await agent.with_fact_check().ainvoke(_question("88231")))
    assert tools.count["refund_order"] == 1


def test_batch(tools):
    agent, _ = _agent(tools)
    outs = agent.with_fact_check().batch([_question("88231"), _question("88233")])
    for out, order_id in zip(outs, ["88231", "88233"], strict=True):
        _assert_fixed(out, order_id)
    assert tools.count["refund_order"] == 2


async def test_abatch(tools):
    agent, _ = _agent(tools)
    outs = await agent.with_fact_check().abatch([_question("88231"), _question("88233")])
    for out, order_id in zip(outs, ["88231", "88233"], strict=True):
        _assert_fixed(out, order_id)


def test_stream_values_ends_with_the_checked_state(tools):
    agent, _ = _agent(tools)
    chunks = list(agent.with_fact_check().stream(_question("88231"), stream_mode="values"))
    _assert_fixed(chunks[-1])
    assert not any(BAD in m.content for c in chunks for m in c["messages"])


async def test_astream_values_ends_with_the_checked_state(tools):
    agent, _ = _agent(tools)
    wrapped = agent.with_fact_check()
    chunks = [c async for c in wrapped.astream(_question("88231"), stream_mode="values")]
    _assert_fixed(chunks[-1])
    assert not any(BAD in m.content for c in chunks for m in c["messages"])


def test_stream_of_chat_model_never_shows_the_unchecked_answer():
    model = scripted(BAD, "我无法确认退款结果，请稍后再试。")
    chunks = list(model.with_fact_check().stream("我的退款怎么样了？"))
    text = "".join(str(c.content) for c in chunks)
    assert "成功退款" not in text
    assert get_run_report(chunks[-1]).outcome == "retried"


def test_batch_of_32_with_concurrency_matches_one_by_one(tools):
    agent, _ = _agent(tools)
    wrapped = agent.with_fact_check()
    questions = [_question(str(88200 + i)) for i in range(32)]

    def verdicts(out):
        report = get_run_report(out)
        return (
            report.outcome,
            [[c.verdict.value for c in a.claims] for a in report.attempts],
            out["messages"][-1].content,
        )

    one_by_one = [verdicts(wrapped.invoke(q)) for q in questions]
    batched = [verdicts(o) for o in wrapped.batch(questions, config={"max_concurrency": 8})]

    assert batched == one_by_one
    # odd order ids fail to refund (retry), even ones succeed (pass)
    assert {o[0] for o in one_by_one} == {"passed", "retried"}
    assert tools.count["refund_order"] == 64


def test_config_passes_through_and_check_is_its_own_run(tools):
    agent, _ = _agent(tools)
    rec = Recorder()
    config = {
        "callbacks": [rec],
        "tags": ["support"],
        "metadata": {"tenant": "t1"},
        "run_name": "support-bot",
    }

    agent.with_fact_check().invoke(_question("88231"), config=config)

    (wrapper,) = rec.named("FactCheck")
    attempts = rec.named("support-bot")
    assert len(attempts) == 2  # run_name names the wrapped runnable's runs
    for run in attempts:
        assert run["parent"] == wrapper["run_id"]
        assert "support" in run["tags"] and run["metadata"]["tenant"] == "t1"
    assert [r["metadata"]["factcheck_attempt"] for r in attempts] == [0, 1]
    checks = rec.named("fact_check")
    assert len(checks) == 2 and all(c["parent"] == wrapper["run_id"] for c in checks)
    # the user's own callbacks still see the tool runs inside the agent
    assert rec.tools == ["refund_order"]
    # the finished report is emitted as a custom callback event
    (event,) = [e for e in rec.events if e[0] == "fact_check"]
    assert event[1]["outcome"] == "retried"


async def test_astream_events_carries_the_report_event(tools):
    agent, _ = _agent(tools)
    events = [
        e async for e in agent.with_fact_check().astream_events(_question("88231"), version="v2")
    ]
    custom = [e for e in events if e["event"] == "on_custom_event" and e["name"] == "fact_check"]
    assert len(custom) == 1 and custom[0]["data"]["outcome"] == "retried"
    ends = [e for e in events if e["event"] == "on_chain_end" and e["name"] == "FactCheck"]
    assert ends and ends[-1]["data"]["output"]["messages"][-1].content == GOOD


def test_wrapper_keeps_input_and_output_types(tools):
    agent, _ = _agent(tools)
    wrapped = with_fact_check(agent)
    assert isinstance(wrapped, RunnableFactCheck)
    schema = wrapped.get_input_schema().model_json_schema()
    assert schema == agent.get_input_schema().model_json_schema()
    schema = wrapped.get_output_schema().model_json_schema()
    assert schema == agent.get_output_schema().model_json_schema()
    assert wrapped.InputType == agent.InputType


def test_with_config_and_composition_still_check(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD, GOOD)
    agent = create_agent(model, [tools.refund_order])
    chain = agent.with_fact_check().with_config(tags=["x"]) | (lambda s: s["messages"][-1].content)
    assert chain.invoke(_question("88231")) == GOOD
