"""`FactCheckMiddleware` inside real `create_agent` loops."""

from __future__ import annotations

import logging

import pytest
from conftest import (
    FIXED,
    REAL_URL,
    REFUND_FAIL,
    Recorder,
    call,
    corrections_in,
    pipeline_script,
    scripted,
)
from langchain.agents import create_agent
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from factcheck import CheckerFailure, UnbackedActionError, Verdict
from factcheck.langchain import FactCheckMiddleware, RunReport, get_run_report
from factcheck.langchain.extract import is_correction

BAD = "已为您成功退款，订单号 88231。"
GOOD = "抱歉，订单号 88231 的退款失败了，目前未退款。"
REFUND_Q = {"messages": [("user", "请帮我退款，订单号 88231")]}
PIPELINE_Q = {"messages": [("user", "按流程生成并发布今天的文章")]}
STUBBORN = "文章已生成，拟人化评分 82 分。已发布至平台，链接 https://domain/item/fake-id。"


class BrokenChecker:
    def check(self, answer, tool_calls=(), context=(), lang=None):
        raise RuntimeError("checker bug")


def test_refund_retry_inside_the_loop(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD, GOOD)
    agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware()])

    out = agent.invoke(REFUND_Q)

    report = RunReport.model_validate(out["fact_check"])
    assert report.outcome == "retried"
    assert report.attempts[0].claims[0].verdict is Verdict.CONTRADICTED
    assert out["messages"][-1].content == GOOD
    assert tools.count["refund_order"] == 1
    sent = corrections_in(model.seen[-1])
    assert sent == report.corrections and REFUND_FAIL in sent[0]
    # the flagged answer and the correction are pruned from the final state
    assert [m.content for m in out["messages"]].count(BAD) == 0
    assert not any(is_correction(m) for m in out["messages"])
    assert "factcheck_attempts" not in out  # private state stays private


def test_pipeline_model_calls_the_tools_it_narrated(tools):
    model = scripted(*pipeline_script())
    agent = create_agent(model, tools.pipeline, middleware=[FactCheckMiddleware()])

    out = agent.invoke(PIPELINE_Q)

    report = get_run_report(out)
    assert report.outcome == "retried"
    assert "并没有真正执行" in report.corrections[0]
    assert out["messages"][-1].content == FIXED
    assert tools.count["publish_article"] == 1 and tools.count["register_ledger"] == 1
    assert report.executed_tools == [
        "generate_article", "humanize_article", "publish_article", "register_ledger"
    ]


def test_stubborn_model_drop(tools):
    model = scripted(*pipeline_script(STUBBORN, STUBBORN, STUBBORN, fix=False))
    agent = create_agent(model, tools.pipeline, middleware=[FactCheckMiddleware()])

    out = agent.invoke(PIPELINE_Q)

    assert out["messages"][-1].content == "文章已生成，拟人化评分 82 分。"
    report = get_run_report(out)
    assert report.outcome == "dropped" and len(report.attempts) == 3
    assert model.calls == 5


def test_stubborn_model_raise(tools):
    model = scripted(*pipeline_script(STUBBORN, STUBBORN, fix=False))
    agent = create_agent(
        model, tools.pipeline, middleware=[FactCheckMiddleware(on_fail="raise", max_retries=1)]
    )

    with pytest.raises(UnbackedActionError) as info:
        agent.invoke(PIPELINE_Q)

    assert len(info.value.run_report.attempts) == 2
    assert tools.count["publish_article"] == 0


def test_executed_publish_is_refused_not_rerun(tools):
    model = scripted(
        call("publish_article", {"article_id": "A-17"}, "c1"),
        "文章已发布至平台。链接 https://domain/item/wrong-id。",
        call("publish_article", {"article_id": "A-17"}, "c2"),
        f"文章已发布至平台。链接 {REAL_URL}。",
    )
    agent = create_agent(model, tools.pipeline, middleware=[FactCheckMiddleware()])

    out = agent.invoke({"messages": [("user", "发布文章 A-17")]})

    assert tools.count["publish_article"] == 1
    refused = [m for m in out["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(refused) == 1 and "already ran" in refused[0].content
    report = get_run_report(out)
    assert report.outcome == "retried"
    assert out["messages"][-1].content == f"文章已发布至平台。链接 {REAL_URL}。"


async def test_async_agent(tools):
    model = scripted(
        call("publish_article", {"article_id": "A-17"}, "c1"),
        "文章已发布至平台。链接 https://domain/item/wrong-id。",
        call("publish_article", {"article_id": "A-17"}, "c2"),
        f"文章已发布至平台。链接 {REAL_URL}。",
    )
    agent = create_agent(model, tools.pipeline, middleware=[FactCheckMiddleware()])

    out = await agent.ainvoke({"messages": [("user", "发布文章 A-17")]})

    assert tools.count["publish_article"] == 1
    assert get_run_report(out).outcome == "retried"


def test_each_turn_starts_fresh_with_a_checkpointer(tools):
    model = scripted(
        call("refund_order", {"order_id": "88231"}, "r1"), BAD, GOOD,
        call("refund_order", {"order_id": "88232"}, "r2"), "订单号 88232 已退款成功。",
    )
    agent = create_agent(
        model, [tools.refund_order], middleware=[FactCheckMiddleware()],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t1"}}

    first = agent.invoke(REFUND_Q, config)
    second = agent.invoke({"messages": [("user", "再退一单，订单号 88232")]}, config)

    assert get_run_report(first).outcome == "retried"
    report = get_run_report(second)
    assert report.outcome == "passed" and len(report.attempts) == 1
    # a new turn may run the action again: the repeat guard is per turn
    assert tools.count["refund_order"] == 2


def test_env_disabled_skips_the_check(tools, monkeypatch):
    monkeypatch.setenv("FACTCHECK_ENABLED", "off")
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD)
    agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware()])

    out = agent.invoke(REFUND_Q)

    assert out["messages"][-1].content == BAD and out.get("fact_check") is None


def test_checker_failure_fails_closed(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD)
    agent = create_agent(
        model, [tools.refund_order], middleware=[FactCheckMiddleware(checker=BrokenChecker())]
    )
    with pytest.raises(CheckerFailure):
        agent.invoke(REFUND_Q)


def test_checker_failure_fail_open(tools, caplog):
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD)
    middleware = FactCheckMiddleware(checker=BrokenChecker(), fail_open=True)
    agent = create_agent(model, [tools.refund_order], middleware=[middleware])

    with caplog.at_level(logging.WARNING, logger="factcheck.langchain"):
        out = agent.invoke(REFUND_Q)

    assert out["messages"][-1].content == BAD
    assert get_run_report(out).outcome == "unchecked"
    assert caplog.records


def test_report_is_emitted_as_a_callback_event(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), BAD, GOOD)
    agent = create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware()])
    rec = Recorder()

    agent.invoke(REFUND_Q, {"callbacks": [rec]})

    (event,) = [data for name, data in rec.events if name == "fact_check"]
    assert event["outcome"] == "retried" and len(event["attempts"]) == 2


def test_custom_report_key(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), GOOD)
    agent = create_agent(
        model, [tools.refund_order], middleware=[FactCheckMiddleware(report_key="grounding")]
    )
    out = agent.invoke(REFUND_Q)
    assert out["grounding"]["outcome"] == "passed"
    assert get_run_report(out, report_key="grounding").ok
