"""Seed incidents through a real `create_agent` loop wrapped with `.with_fact_check()`."""

from __future__ import annotations

import pytest
from conftest import (
    FIXED,
    NARRATED,
    REAL_URL,
    REFUND_FAIL,
    call,
    corrections_in,
    pipeline_script,
    scripted,
)
from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from factcheck import FactCheckError, UnbackedActionError, Verdict
from factcheck.langchain import RunReport, get_run_report
from factcheck.langchain.extract import is_correction

REFUND_Q = {"messages": [("user", "请帮我退款，订单号 88231")]}
PIPELINE_Q = {"messages": [("user", "按流程生成并发布今天的文章")]}
STUBBORN = "文章已生成，拟人化评分 82 分。已发布至平台，链接 https://domain/item/fake-id。"


def test_refund_failed_answer_says_refunded_retry_fixes_it(tools):
    model = scripted(
        call("refund_order", {"order_id": "88231"}),
        "已为您成功退款，订单号 88231。",
        "抱歉，订单号 88231 的退款失败了，目前未退款。",
    )
    agent = create_agent(model, [tools.refund_order])

    out = agent.with_fact_check().invoke(REFUND_Q)

    report = get_run_report(out)
    assert report.outcome == "retried"
    assert [a.ok for a in report.attempts] == [False, True]
    first = report.attempts[0]
    assert first.answer == "已为您成功退款，订单号 88231。"
    assert first.claims[0].verdict is Verdict.CONTRADICTED
    assert out["messages"][-1].content == "抱歉，订单号 88231 的退款失败了，目前未退款。"
    assert out["messages"][-1].response_metadata["fact_check"]["outcome"] == "retried"
    # the correction reached the model, in Chinese, quoting what the tool returned
    sent = corrections_in(model.seen[-1])
    assert len(sent) == 1 and sent == report.corrections
    assert "矛盾" in sent[0] and REFUND_FAIL in sent[0]
    # the retry continued the conversation: refund ran once, the model saw its result
    assert tools.count["refund_order"] == 1
    assert any(REFUND_FAIL in str(m.content) for m in model.seen[-1])
    # the superseded answer and the correction are gone from the returned conversation
    texts = [m.content for m in out["messages"]]
    assert "已为您成功退款，订单号 88231。" not in texts
    assert not any(is_correction(m) for m in out["messages"])


def test_narrated_publish_and_register_get_called_after_correction(tools):
    model = scripted(*pipeline_script())
    agent = create_agent(model, tools.pipeline)

    out = agent.with_fact_check().invoke(PIPELINE_Q)

    report = get_run_report(out)
    assert report.outcome == "retried"
    first = report.attempts[0]
    unbacked = {f.concept for c in first.flagged for f in c.facts if f.unbacked_action}
    assert unbacked == {"publish", "register"}
    correction = report.corrections[0]
    assert "并没有真正执行" in correction and "publish" in correction and "register" in correction
    assert report.attempts[1].ok
    assert out["messages"][-1].content == FIXED
    assert tools.count == {
        "generate_article": 1, "humanize_article": 1, "publish_article": 1, "register_ledger": 1
    }
    assert report.executed_tools == [
        "generate_article", "humanize_article", "publish_article", "register_ledger"
    ]


def test_stubborn_model_ends_in_drop_keeping_backed_claims(tools):
    model = scripted(*pipeline_script(STUBBORN, STUBBORN, STUBBORN, fix=False))
    agent = create_agent(model, tools.pipeline)

    out = agent.with_fact_check(max_retries=2).invoke(PIPELINE_Q)

    report = get_run_report(out)
    assert report.outcome == "dropped"
    assert len(report.attempts) == 3 and len(report.corrections) == 2
    assert all(not a.ok for a in report.attempts)
    assert out["messages"][-1].content == "文章已生成，拟人化评分 82 分。"
    assert report.final_text == "文章已生成，拟人化评分 82 分。"
    assert tools.count["publish_article"] == 0


def test_stubborn_model_with_nothing_backed_falls_back_to_safe_message(tools):
    model = scripted(*pipeline_script(NARRATED, NARRATED, fix=False))
    agent = create_agent(model, tools.pipeline)

    out = agent.with_fact_check(max_retries=1, fallback="暂时无法确认发布结果。").invoke(PIPELINE_Q)

    assert out["messages"][-1].content == "暂时无法确认发布结果。"
    assert get_run_report(out).outcome == "dropped"


def test_stubborn_model_ends_in_raise_with_every_attempt(tools):
    model = scripted(*pipeline_script(STUBBORN, STUBBORN, STUBBORN, fix=False))
    agent = create_agent(model, tools.pipeline)

    with pytest.raises(UnbackedActionError) as info:
        agent.with_fact_check(on_fail="raise").invoke(PIPELINE_Q)

    run = info.value.run_report
    assert isinstance(run, RunReport) and run.outcome == "raised"
    assert [a.answer for a in run.attempts] == [STUBBORN] * 3
    assert info.value.report is run.attempts[-1]
    assert model.calls == 5  # generate, humanize, then three answers


def test_contradiction_that_is_not_an_action_raises_plain_fact_check_error(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), "订单号 88231 已退款成功。")
    agent = create_agent(model, [tools.refund_order])

    with pytest.raises(FactCheckError) as info:
        agent.with_fact_check(on_fail="raise", max_retries=0).invoke(REFUND_Q)

    assert type(info.value) is FactCheckError
    assert info.value.run_report.attempts[0].claims[0].verdict is Verdict.CONTRADICTED


def test_executed_publish_is_never_run_twice_by_a_retry(tools):
    wrong = "文章已发布至平台。链接 https://domain/item/wrong-id。"
    model = scripted(
        call("publish_article", {"article_id": "A-17"}, "c1"),
        wrong,
        # after the correction the model tries to publish again
        call("publish_article", {"article_id": "A-17"}, "c2"),
        f"文章已发布至平台。链接 {REAL_URL}。",
    )
    agent = create_agent(model, tools.pipeline)

    out = agent.with_fact_check().invoke({"messages": [("user", "发布文章 A-17")]})

    assert tools.count["publish_article"] == 1
    report = get_run_report(out)
    assert report.outcome == "dropped"
    assert len(report.attempts) == 1
    assert any("publish_article" in n and "not run again" in n for n in report.notes)
    # the correction had told the model not to call it again
    assert "publish_article" in report.corrections[0]
    assert out["messages"][-1].content == "文章已发布至平台。"


def test_annotate_keeps_text_and_marks_flagged_claims(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), "已为您成功退款，订单号 88231。")
    agent = create_agent(model, [tools.refund_order])

    out = agent.with_fact_check(on_fail="annotate", max_retries=0).invoke(REFUND_Q)

    assert out["messages"][-1].content == "已为您成功退款，订单号 88231。【未经系统核实】"
    assert get_run_report(out).outcome == "annotated"


def test_callable_on_fail_gets_the_last_report(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), "已为您成功退款，订单号 88231。")
    agent = create_agent(model, [tools.refund_order])
    seen = []

    def policy(report):
        seen.append(report)
        return f"{len(report.flagged)} claim(s) withheld"

    out = agent.with_fact_check(on_fail=policy, max_retries=0).invoke(REFUND_Q)

    assert out["messages"][-1].content == "1 claim(s) withheld"
    assert seen[0].answer == "已为您成功退款，订单号 88231。"
    assert get_run_report(out).outcome == "custom"


def test_grounded_answer_passes_untouched_with_one_model_answer(tools):
    model = scripted(
        call("refund_order", {"order_id": "88231"}), "订单号 88231 的退款失败了，未退款。"
    )
    agent = create_agent(model, [tools.refund_order])

    out = agent.with_fact_check().invoke(REFUND_Q)

    assert get_run_report(out).outcome == "passed"
    assert out["messages"][-1].content == "订单号 88231 的退款失败了，未退款。"
    assert model.calls == 2


def test_failed_tool_call_does_not_back_the_action(tools):
    model = scripted(
        call("broken_tool", {"order_id": "88231"}),
        "已为您成功退款，订单号 88231。",
    )
    agent = create_agent(model, [tools.broken_tool])

    with pytest.raises(RuntimeError, match="backend down"):
        # create_agent re-raises tool exceptions by default: propagated unchanged
        agent.with_fact_check().invoke(REFUND_Q)


def test_error_tool_message_counts_as_not_executed(tools):
    from langchain_core.tools import ToolException, tool

    @tool
    def refund_order(order_id: str) -> str:
        """Refund an order."""
        raise ToolException("refund service timeout")

    refund_order.handle_tool_error = True
    model = scripted(call("refund_order", {"order_id": "88231"}), "已为您成功退款，订单号 88231。")
    agent = create_agent(model, [refund_order])

    out = agent.with_fact_check(max_retries=0, on_fail="annotate").invoke(REFUND_Q)

    report = get_run_report(out)
    assert report.failed_tools == ["refund_order"] and report.executed_tools == []
    facts = [f for c in report.attempts[0].flagged for f in c.facts if f.verdict.flagged]
    assert any(f.code == "tool_error" for f in facts)


def test_report_is_json_data_in_message_metadata(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), "订单号 88231 未退款。")
    agent = create_agent(model, [tools.refund_order])

    out = agent.with_fact_check().invoke(REFUND_Q)

    data = out["fact_check"]
    assert isinstance(data, dict)
    assert out["messages"][-1].response_metadata["fact_check"] == data
    assert RunReport.model_validate(data).attempts[0].answer == "订单号 88231 未退款。"
    assert isinstance(out["messages"][-1], AIMessage)


def test_a_fare_from_the_wrong_flight_is_sent_back_with_the_right_one():
    from langchain_core.tools import tool

    @tool
    def search_flights(date: str) -> str:
        """Flights from Shanghai to Chengdu on a date."""
        return (
            '{"flights": [{"flight_no": "MU5401", "dep_time": "07:05", "fare": 1260.0},'
            ' {"flight_no": "CA4508", "dep_time": "08:30", "fare": 980.0}]}'
        )

    model = scripted(
        call("search_flights", {"date": "2026-10-12"}),
        "最早的航班是 MU5401，07:05 起飞，票价 980 元。",
        "最早的航班是 MU5401，07:05 起飞，票价 1,260 元。",
    )
    agent = create_agent(model, [search_flights])

    out = agent.with_fact_check().invoke({"messages": [("user", "10月12日上海飞成都最早的航班多少钱？")]})

    report = get_run_report(out)
    assert report.outcome == "retried"
    fare = next(f for f in report.attempts[0].claims[0].facts if f.text == "980 元")
    assert (fare.verdict, fare.code) == (Verdict.CONTRADICTED, "wrong_record")
    # the correction quotes the fare of the flight the answer named
    assert "flights[0].fare" in report.corrections[0] and "1260" in report.corrections[0]
    assert report.attempts[1].ok
    assert out["messages"][-1].content == "最早的航班是 MU5401，07:05 起飞，票价 1,260 元。"
