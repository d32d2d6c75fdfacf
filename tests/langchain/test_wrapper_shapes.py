"""LCEL chains, LangGraph graphs, legacy executor outputs and bare chat models."""

from __future__ import annotations

from operator import itemgetter

from conftest import REFUND_FAIL, call, corrections_in, scripted
from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnableParallel
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from factcheck.langchain import RunReport, get_run_report

SHIPPED_BAD = "订单 88231 已签收，顺丰承运，预计 5 天送达。"
SHIPPED_GOOD = "订单 88231 已发货，由 SF 承运，预计 3 天送达。"


def _lcel_chain(tools, model):
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer from the order record: {order}"), ("human", "{question}")]
    )
    lookup = RunnableParallel(
        order=itemgetter("order_id") | tools.order_lookup, question=itemgetter("question")
    )
    return lookup | prompt | model


def test_lcel_chain_retries_with_correction_in_the_input_text(tools):
    model = scripted("订单 88231 已发货，预计 5 天送达。", SHIPPED_GOOD)
    chain = _lcel_chain(tools, model)

    # order_lookup has no read verb in front: it is declared a read so a retry may re-run it
    out = chain.with_fact_check(read_tools=("order_lookup",)).invoke(
        {"order_id": "88231", "question": "我的订单到哪了？"}
    )

    assert isinstance(out, AIMessage)
    assert out.content == SHIPPED_GOOD
    report = get_run_report(out)
    assert report.outcome == "retried"
    assert report.executed_tools == ["order_lookup", "order_lookup"]
    # a prompt chain gets the correction appended to its `question` text
    second_prompt = model.seen[1][-1].content
    assert second_prompt.startswith("我的订单到哪了？") and "【事实核查】" in second_prompt
    assert "订单 88231 已发货，预计 5 天送达。" in second_prompt  # previous answer quoted


def test_lcel_chain_that_ran_an_action_is_not_rerun_from_scratch(tools):
    prompt = ChatPromptTemplate.from_messages([("human", "{question} result: {result}")])
    chain = (
        RunnableParallel(
            result=itemgetter("article_id") | tools.publish_article,
            question=itemgetter("question"),
        )
        | prompt
        | scripted("文章已发布。链接 https://domain/item/wrong-id。", "unused")
    )

    out = chain.with_fact_check().invoke({"article_id": "A-17", "question": "发布 A-17"})

    assert tools.count["publish_article"] == 1
    report = get_run_report(out)
    assert len(report.attempts) == 1 and report.outcome == "dropped"
    assert any("publish_article" in n for n in report.notes)
    assert out.content == "文章已发布。"


def test_langgraph_graph_with_tool_node(tools):
    model = scripted(call("refund_order", {"order_id": "88231"}), "订单 88231 已退款成功。",
                     "订单 88231 退款失败，未退款。")

    def agent(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([tools.refund_order]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    graph = builder.compile()

    out = graph.with_fact_check().invoke({"messages": [HumanMessage("退款 88231")]})

    report = get_run_report(out)
    assert report.outcome == "retried"
    assert out["messages"][-1].content == "订单 88231 退款失败，未退款。"
    # the retry continued the state: the model saw the tool result and the correction
    assert tools.count["refund_order"] == 1
    assert corrections_in(model.seen[-1]) == report.corrections
    assert any(isinstance(m, ToolMessage) for m in model.seen[-1])


def _legacy_executor(tools, answers, run_tool=True):
    """A legacy-style executor: runs a tool, returns output and intermediate_steps."""
    replies = iter(answers)

    def run(inputs: dict, config) -> dict:
        action = AgentAction("order_lookup", {"order_id": "88231"}, "lookup")
        if run_tool:
            observation = tools.order_lookup.invoke({"order_id": "88231"}, config)
        else:
            observation = {"order_id": "88231", "status": "已发货", "carrier": "SF", "days": 3}
        return {"input": inputs["input"], "output": next(replies),
                "intermediate_steps": [(action, observation)]}

    return RunnableLambda(run)


def test_legacy_executor_output_key_and_no_duplicate_evidence(tools):
    executor = _legacy_executor(tools, ["订单 88231 已签收。", SHIPPED_GOOD])

    out = executor.with_fact_check(read_tools=("order_lookup",)).invoke({"input": "我的订单到哪了？"})

    assert out["output"] == SHIPPED_GOOD
    report = RunReport.model_validate(out["fact_check"])
    assert report.outcome == "retried"
    # the ledger and intermediate_steps hold the same lookup: counted once per attempt
    assert report.attempts[0].tool_call_count == 1
    assert report.attempts[1].tool_call_count == 2  # evidence of both attempts
    assert [s[0].tool for s in out["intermediate_steps"]] == ["order_lookup"]


def test_legacy_intermediate_steps_are_evidence_without_callbacks(tools):
    executor = _legacy_executor(tools, [SHIPPED_GOOD], run_tool=False)

    out = executor.with_fact_check().invoke({"input": "我的订单到哪了？"})

    assert tools.count["order_lookup"] == 0
    report = RunReport.model_validate(out["fact_check"])
    assert report.outcome == "passed" and report.attempts[0].tool_call_count == 1


def test_bare_chat_model_keeps_message_type_and_uses_context():
    model = scripted("您的订单号是 88231，收货城市是杭州。")

    out = model.with_fact_check().invoke(
        [("system", "用户信息：订单号 88231，城市：杭州"), ("human", "我的订单号是多少？")]
    )

    assert isinstance(out, AIMessage)
    report = get_run_report(out)
    assert report.outcome == "passed"
    assert report.attempts[0].claims[0].facts[0].code == "context"


def test_bare_chat_model_retry_is_a_conversation():
    model = scripted("已为您成功退款，订单号 88231。", "我无法确认退款结果，请稍后再试。")

    out = model.with_fact_check().invoke("帮我退款 88231")

    report = get_run_report(out)
    assert report.outcome == "retried"
    second = model.seen[1]
    assert [type(m).__name__ for m in second] == ["HumanMessage", "AIMessage", "HumanMessage"]
    assert second[1].content == "已为您成功退款，订单号 88231。"
    assert out.content == "我无法确认退款结果，请稍后再试。"


def test_str_output_with_return_report(tools):
    chain = _lcel_chain(tools, scripted(SHIPPED_BAD, SHIPPED_BAD)) | StrOutputParser()

    text, report = chain.with_fact_check(return_report=True, max_retries=1).invoke(
        {"order_id": "88231", "question": "我的订单到哪了？"}
    )

    assert isinstance(text, str) and isinstance(report, RunReport)
    assert report.outcome == "dropped" and text == report.final_text
    assert "签收" not in text


def test_tool_messages_in_output_are_evidence_even_without_ledger():
    # a runnable whose output carries ToolMessages it did not run through callbacks
    def fake_agent(state: dict) -> dict:
        return {"messages": [
            *state["messages"],
            AIMessage("", tool_calls=[{"name": "refund_order", "args": {}, "id": "t1"}]),
            ToolMessage(REFUND_FAIL, tool_call_id="t1", name="refund_order"),
            AIMessage("订单号 88231 退款失败，未退款。"),
        ]}

    out = RunnableLambda(fake_agent).with_fact_check().invoke({"messages": [("user", "退款")]})

    report = get_run_report(out)
    assert report.outcome == "passed" and report.attempts[0].tool_call_count == 1
