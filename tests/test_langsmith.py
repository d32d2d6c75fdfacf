"""`factcheck.langsmith`: the evaluator on real LangSmith `Run`/`Example` objects and local run trees, offline."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.load import dumpd
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnablePassthrough
from langchain_core.tracers.run_collector import RunCollectorCallbackHandler
from langsmith.evaluation.evaluator import run_evaluator
from langsmith.run_helpers import tracing_context
from langsmith.schemas import Example, Run

from factcheck.langsmith import FactCheckEvaluator, revive
from tests.langchain.conftest import FIXED, NARRATED, CountedTools, call, pipeline_script, scripted
from tests.langchain.test_retrievers import DOCS, FAITHFUL, PROMPT, WRONG_ID, KeywordRetriever


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """No tracing, and any client that would still be made points at a closed loopback port."""
    monkeypatch.setenv("LANGSMITH_TRACING", "false")
    monkeypatch.setenv("LANGCHAIN_TRACING_V2", "false")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    with tracing_context(enabled=False):
        yield


EVALUATE = FactCheckEvaluator()
REFUND_QUESTION = "请帮我退款订单 88231"
REFUND_LIED = "已为您成功退款，订单号 88231。"
REFUND_TRUE = "抱歉，订单号 88231 的退款失败了，目前未退款。"


def traced(agent: Any, inputs: Any) -> Any:
    """The local run tree of one real invocation (what LangSmith's tracer records)."""
    collector = RunCollectorCallbackHandler()
    agent.invoke(inputs, {"callbacks": [collector]})
    return collector.traced_runs[0]


def refund_agent(answer: str) -> Any:
    model = scripted(call("refund_order", {"order_id": "88231"}, "c1"), answer)
    return create_agent(model, [CountedTools().refund_order])


def pipeline_agent(answer: str) -> Any:
    tools = CountedTools()
    script = pipeline_script(answer, fix=False)
    if answer == FIXED:
        script = [*script[:2], call("publish_article", {"article_id": "A-17"}, "c3"),
                  call("register_ledger", {"article_id": "A-17"}, "c4"), FIXED]
    return create_agent(scripted(*script), tools.pipeline)


def rag_chain(answer: str) -> Any:
    return {"context": KeywordRetriever(docs=DOCS), "q": RunnablePassthrough()} | PROMPT | scripted(answer)


CASES = [
    # (id, build, answer, input, score, words the comment names)
    ("seed refund", refund_agent, REFUND_LIED, {"messages": [HumanMessage(REFUND_QUESTION)]}, 0,
     ["1 of 1 claims flagged", "contradicted", "refund_order", "未退款"]),
    ("clean refund", refund_agent, REFUND_TRUE, {"messages": [HumanMessage(REFUND_QUESTION)]}, 1,
     ["no claim flagged"]),
    ("seed narrated publish", pipeline_agent, NARRATED, {"messages": [HumanMessage("写一篇文章并发布")]}, 0,
     ["fake-id", "CT-20260922-001"]),
    ("clean publish", pipeline_agent, FIXED, {"messages": [HumanMessage("写一篇文章并发布")]}, 1, ["no claim flagged"]),
    ("rag faithful", rag_chain, FAITHFUL, "Was the refund for order 1042 done?", 1, ["no claim flagged"]),
    ("rag invented id", rag_chain, WRONG_ID, "Was the refund for order 1042 done?", 0,
     ["RF-77812", "unsupported"]),
]


@pytest.mark.parametrize(("build", "answer", "inputs", "score", "words"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_local_run_tree_of_a_real_run(build, answer, inputs, score, words):
    feedback = EVALUATE(traced(build(answer), inputs))
    assert (feedback["key"], feedback["score"]) == ("fact_check", score)
    assert (feedback["value"] == 0) is bool(score)  # flagged claims counted
    for word in words:
        assert word in feedback["comment"]


def stored(run: Any) -> Run:
    """The run as LangSmith's API gives it back: a `Run` whose inputs and outputs are JSON."""
    return Run(
        id=run.id, name=run.name, run_type=run.run_type, start_time=run.start_time, trace_id=run.trace_id,
        dotted_order=run.dotted_order, inputs=dumpd(run.inputs), outputs=dumpd(run.outputs),
        error=run.error, child_runs=[stored(c) for c in run.child_runs],
    )


def example(inputs: Any) -> Example:
    return Example(id=uuid.uuid4(), dataset_id=uuid.uuid4(), inputs=dumpd(inputs) if isinstance(inputs, dict)
                   else {"q": inputs}, outputs=None, created_at=datetime.datetime.now(datetime.timezone.utc))


@pytest.mark.parametrize(("build", "answer", "inputs", "score", "words"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
async def test_stored_runs_through_langsmiths_own_evaluator_wrapper(build, answer, inputs, score, words):
    run = stored(traced(build(answer), inputs))
    evaluator = run_evaluator(EVALUATE)
    for result in (evaluator.evaluate_run(run, example(inputs)), await evaluator.aevaluate_run(run, example(inputs))):
        assert (result.key, result.score) == ("fact_check", score)
        assert all(word in result.comment for word in words)


TOOL = ToolMessage("refund result: 失败，订单号 88231 未退款", tool_call_id="c1", name="refund_order")
ASKED = AIMessage("", tool_calls=[{"name": "refund_order", "args": {"order_id": "88231"}, "id": "c1"}])


@pytest.mark.parametrize(
    ("outputs", "score"),
    [
        ({"messages": [HumanMessage(REFUND_QUESTION), ASKED, TOOL, AIMessage(REFUND_LIED)]}, 0),
        ({"messages": [HumanMessage(REFUND_QUESTION), ASKED, TOOL, AIMessage(REFUND_TRUE)]}, 1),
        ({"messages": [m.model_dump() for m in (ASKED, TOOL, AIMessage(REFUND_LIED))]}, 0),
        ({"messages": [{"role": "assistant", "content": "您好，请问还有什么可以帮您？"}]}, 1),  # nothing to check
        ({"messages": [{"role": "assistant", "content": "已为您成功退款。"}]}, 0),  # an action no tool performed
        ({"answer": REFUND_LIED}, 0),
    ],
    ids=["messages", "clean messages", "message dicts", "role dicts", "narrated action", "answer key"],
)
def test_outputs_alone(outputs, score):
    evaluate = FactCheckEvaluator(answer_key="answer") if "answer" in outputs else EVALUATE
    assert evaluate.evaluate_outputs(outputs)["score"] == score


def test_an_answer_key_run_reads_its_child_tool_runs():
    tool_run = Run(id=uuid.uuid4(), name="refund_order", run_type="tool", inputs={"order_id": "88231"},
                   outputs={"output": dumpd(TOOL)}, start_time=datetime.datetime.now(datetime.timezone.utc),
                   trace_id=uuid.uuid4())
    run = Run(id=uuid.uuid4(), name="agent", run_type="chain", inputs={"question": REFUND_QUESTION},
              outputs={"answer": REFUND_LIED}, child_runs=[tool_run],
              start_time=datetime.datetime.now(datetime.timezone.utc), trace_id=uuid.uuid4())
    feedback = FactCheckEvaluator(answer_key="answer")(run)
    assert feedback["score"] == 0 and "refund_order" in feedback["comment"]


def test_no_answer_has_no_score():
    feedback = EVALUATE.evaluate_outputs({"rows": [1, 2]})
    assert feedback["score"] is None and "no final answer" in feedback["comment"]


def test_revive_reads_stored_messages_back():
    stored_state = dumpd({"messages": [HumanMessage("hi"), AIMessage("hello")]})
    assert revive(stored_state) == {"messages": [HumanMessage("hi"), AIMessage("hello")]}
