"""`.with_fact_check()` streams: no flagged text reaches the consumer, checked text streams."""

from __future__ import annotations

import asyncio

import pytest
from conftest import CountedTools, call, payload_text, token_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.messages import AIMessageChunk
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate

from factcheck.config import CheckerConfig
from factcheck.langchain import get_run_report

LIE = "Your refund of $45 has been processed."
BAD = f"I checked order 88231. {LIE} Thanks for waiting."
GOOD = "I checked order 88231. The refund of order 88231 failed. It was not refunded."
FAITHFUL = "Order 88231 has shipped. The carrier is SF. It will arrive in 3 days. Thanks for waiting."
NO_FACTS = "Hello there. I can help with your orders. Ask me about any of them. Have a nice day."
REFUND_Q = {"messages": [("user", "please refund order 88231")]}
LOOKUP_Q = {"messages": [("user", "where is order 88231?")]}


def refund_agent(*answers: str, blocks: bool = False, **options):
    tools = CountedTools()
    model = token_model(call("refund_order", {"order_id": "88231"}), *answers, blocks=blocks)
    return create_agent(model, [tools.refund_order]).with_fact_check(**options)


def lookup_agent(answer: str = FAITHFUL, **options):
    tools = CountedTools()
    model = token_model(call("order_lookup", {"order_id": "88231"}), answer)
    return create_agent(model, [tools.order_lookup]).with_fact_check(**options)


def _message_text(chunks, pick):
    return "".join(
        str(m.content) for m in map(pick, chunks)
        if isinstance(m, AIMessageChunk) and not m.tool_call_chunks
    )


def _pieces(chunks, pick):
    return [m.content for m in map(pick, chunks) if isinstance(m, AIMessageChunk) and m.content]


async def _collect(agent, question, surface):
    """Run one streaming surface; return (everything received, released answer pieces)."""
    kind, arg = surface
    if kind == "stream":
        got = list(agent.stream(question, **arg))
    elif kind == "astream":
        got = [c async for c in agent.astream(question, **arg)]
    elif kind == "events":
        got = [e async for e in agent.astream_events(question, version="v2")]
        pieces = [
            e["data"]["chunk"].content for e in got
            if e["event"] == "on_chat_model_stream" and e["data"]["chunk"].content
        ]
        return got, pieces
    else:
        got = [p async for p in agent.astream_log(question, **arg)]
        return got, []
    mode = arg.get("stream_mode")
    if mode == "messages":
        return got, _pieces(got, lambda c: c[0])
    if isinstance(mode, list) and "messages" in mode:
        return got, _pieces([c for c in got if c[-2] == "messages"], lambda c: c[-1][0])
    return got, []


SURFACES = [
    ("stream", {}),
    ("stream", {"stream_mode": "values"}),
    ("stream", {"stream_mode": "updates"}),
    ("stream", {"stream_mode": "messages"}),
    ("stream", {"stream_mode": "custom"}),
    ("stream", {"stream_mode": ["updates", "messages"]}),
    ("stream", {"stream_mode": ["values", "messages"], "subgraphs": True}),
    ("astream", {"stream_mode": "messages"}),
    ("astream", {"stream_mode": ["values", "updates", "messages", "custom"]}),
    ("events", {}),
    ("log", {}),
    ("log", {"diff": False}),
]
TOKEN_SURFACES = [s for s in SURFACES if s[0] == "events" or "messages" in str(s[1])]


@pytest.mark.parametrize("surface", SURFACES, ids=str)
def test_flagged_sentence_never_reaches_the_consumer(surface):
    agent = refund_agent(BAD, BAD, max_retries=1)
    got, _ = asyncio.run(_collect(agent, REFUND_Q, surface))
    assert got or surface[1].get("stream_mode") == "custom"  # no node writes custom data
    assert "$45" not in payload_text(got)


@pytest.mark.parametrize("surface", TOKEN_SURFACES, ids=str)
def test_annotated_answer_streams_as_invoke_returns_it(surface):
    got, pieces = asyncio.run(_collect(refund_agent(BAD, max_retries=0, on_fail="annotate"), REFUND_Q, surface))
    final = refund_agent(BAD, max_retries=0, on_fail="annotate").invoke(REFUND_Q)["messages"][-1].content
    assert final != BAD and LIE in final  # the claim stays, marked
    assert "".join(pieces) == final
    assert BAD not in payload_text(got)  # never unmarked


@pytest.mark.parametrize("surface", TOKEN_SURFACES, ids=str)
def test_retried_answer_streams_only_checked_text(surface):
    got, pieces = asyncio.run(_collect(refund_agent(BAD, GOOD), REFUND_Q, surface))
    assert "$45" not in payload_text(got)
    # the verified first sentence of the flagged answer was shown; the retry continues it
    assert "".join(pieces) == GOOD


@pytest.mark.parametrize("surface", TOKEN_SURFACES, ids=str)
def test_faithful_answer_streams_sentence_by_sentence(surface):
    got, pieces = asyncio.run(_collect(lookup_agent(), LOOKUP_Q, surface))
    assert len(pieces) >= 4
    assert "".join(pieces) == lookup_agent().invoke(LOOKUP_Q)["messages"][-1].content == FAITHFUL


@pytest.mark.parametrize("blocks", [False, True])
def test_chat_model_stream(blocks):
    model = token_model(NO_FACTS, blocks=blocks)
    # the model alone has no tool results: its claims have no evidence, so a lie is dropped
    lie = token_model(f"{LIE} Thanks for waiting.", f"{LIE} Thanks.", blocks=blocks)
    chunks = list(lie.with_fact_check(max_retries=1).stream("how is my refund?"))
    assert "$45" not in payload_text(chunks)
    total = sum(chunks[1:], chunks[0])
    assert get_run_report(total).outcome == "dropped"
    faithful = list(model.with_fact_check().stream("hi"))
    assert "".join(str(c.content) for c in faithful) == NO_FACTS
    assert len([c for c in faithful if c.content]) >= 4


def test_lcel_chain_of_str_chunks():
    prompt = ChatPromptTemplate.from_messages([("user", "{question}")])
    chain = prompt | token_model(f"Hello. {LIE} Bye.") | StrOutputParser()
    wrapped = chain.with_fact_check(max_retries=0)
    chunks = list(wrapped.stream({"question": "refund?"}))
    assert all(isinstance(c, str) for c in chunks)
    assert "$45" not in "".join(chunks)
    prompt_again = prompt | token_model(f"Hello. {LIE} Bye.") | StrOutputParser()
    assert "".join(chunks) == prompt_again.with_fact_check(max_retries=0).invoke({"question": "refund?"})


def test_final_release_holds_the_whole_answer():
    chunks = list(lookup_agent(stream_release="final").stream(LOOKUP_Q, stream_mode="messages"))
    pieces = _pieces(chunks, lambda c: c[0])
    assert pieces == [FAITHFUL]


def test_return_report_pairs_chunks_with_the_report():
    chunks = list(lookup_agent(return_report=True).stream(LOOKUP_Q, stream_mode="messages"))
    assert all(report is None for _, report in chunks[:-1])
    assert chunks[-1][1].outcome == "passed"


@pytest.mark.parametrize("kwargs", [{"stream_mode": "debug"}, {"stream_mode": ["values", "tasks"]}])
def test_unsupported_stream_mode_is_a_clear_error(kwargs):
    with pytest.raises(ValueError, match="not supported"):
        list(lookup_agent().stream(LOOKUP_Q, **kwargs))


TRUE_SENTENCES = [
    "I checked order 88231.",
    "The refund of order 88231 failed.",
    "It was not refunded.",
    "Thanks for waiting.",
    "Let me know if you need anything else.",
]
FALSE_SENTENCES = [
    "Your refund of $45 has been processed.",
    "Order 88231 was refunded successfully.",
    "The refund of $99 is on its way.",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(TRUE_SENTENCES + FALSE_SENTENCES), min_size=1, max_size=5),
    st.sampled_from([None, 0.0]),
    st.sampled_from(["messages", ["updates", "messages"], ["values", "messages"]]),
)
def test_property_no_flagged_sentence_is_ever_streamed(sentences, min_confidence, mode):
    answer = " ".join(sentences)
    options = {"max_retries": 0}
    if min_confidence is not None:
        options["config"] = CheckerConfig(min_confidence=min_confidence)
    got, pieces = asyncio.run(
        _collect(refund_agent(answer, **options), REFUND_Q, ("stream", {"stream_mode": mode}))
    )
    out = refund_agent(answer, **options).invoke(REFUND_Q)
    flagged = [c.text for c in get_run_report(out).report.flagged]
    seen = payload_text(got)
    for text in flagged:
        assert text not in seen
    if any(s in FALSE_SENTENCES for s in sentences) and min_confidence == 0.0:
        assert flagged  # at min_confidence 0 every false sentence here is flagged
    assert "".join(pieces) == out["messages"][-1].content


def _message_graph(model):
    from langgraph.graph import START, MessagesState, StateGraph

    def answer(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    return graph.compile()


@pytest.mark.parametrize("mode", ["messages", "values", "updates", ["messages", "updates"]], ids=str)
def test_plain_langgraph_graph(mode):
    lie = f"Hello. {LIE} Bye."
    wrapped = _message_graph(token_model(lie)).with_fact_check(max_retries=0)
    got = list(wrapped.stream({"messages": [("user", "refund?")]}, stream_mode=mode))
    assert got and "$45" not in payload_text(got)
    final = _message_graph(token_model(lie)).with_fact_check(max_retries=0).invoke(
        {"messages": [("user", "refund?")]}
    )
    assert final["messages"][-1].content.split() == ["Hello.", "Bye."]
    if mode == "messages":
        assert "".join(_pieces(got, lambda c: c[0])) == final["messages"][-1].content


@pytest.mark.parametrize("blocks", [False, True])
async def test_chat_model_and_chain_astream(blocks):
    chunks = [c async for c in token_model(NO_FACTS, blocks=blocks).with_fact_check().astream("hi")]
    assert "".join(str(c.content) for c in chunks) == NO_FACTS
    assert len([c for c in chunks if c.content]) >= 4
    prompt = ChatPromptTemplate.from_messages([("user", "{question}")])
    chain = prompt | token_model(f"Hello. {LIE} Bye.", blocks=blocks) | StrOutputParser()
    pieces = [c async for c in chain.with_fact_check(max_retries=0).astream({"question": "refund?"})]
    assert "$45" not in "".join(pieces) and "".join(pieces).startswith("Hello.")
