"""`FactCheckMiddleware` streams: flagged answers never enter messages; checked text streams."""

from __future__ import annotations

import asyncio
import warnings

import pytest
from conftest import CountedTools, call, payload_text, token_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.messages import AIMessageChunk

from factcheck.langchain import FactCheckMiddleware, get_run_report

LIE = "Your refund of $45 has been processed."
BAD = f"I checked order 88231. {LIE} Thanks for waiting."
GOOD = "I checked order 88231. The refund of order 88231 failed. It was not refunded."
FAITHFUL = "Order 88231 has shipped. The carrier is SF. It will arrive in 3 days. Thanks for waiting."
REFUND_Q = {"messages": [("user", "please refund order 88231")]}
LOOKUP_Q = {"messages": [("user", "where is order 88231?")]}


def refund_agent(*answers: str, blocks: bool = False, **options):
    tools = CountedTools()
    model = token_model(call("refund_order", {"order_id": "88231"}), *answers, blocks=blocks)
    return create_agent(model, [tools.refund_order], middleware=[FactCheckMiddleware(**options)])


def lookup_agent(answer: str = FAITHFUL, **options):
    tools = CountedTools()
    model = token_model(call("order_lookup", {"order_id": "88231"}), answer)
    return create_agent(model, [tools.order_lookup], middleware=[FactCheckMiddleware(**options)])


def _answer_pieces(got, surface):
    kind, arg = surface
    if kind == "events":
        return [
            e["data"]["chunk"].content for e in got
            if e["event"] == "on_chat_model_stream" and e["data"]["chunk"].content
        ]
    mode = arg.get("stream_mode")
    if mode == "messages":
        pairs = got
    elif isinstance(mode, list) and "messages" in mode:
        pairs = [c[-1] for c in got if c[-2] == "messages"]
    else:
        return []
    return [
        m.content for m, meta in pairs
        if isinstance(m, AIMessageChunk) and m.content and meta.get("langgraph_node") == "model"
    ]


async def _collect(agent, question, surface):
    kind, arg = surface
    if kind == "stream":
        return list(agent.stream(question, **arg))
    if kind == "astream":
        return [c async for c in agent.astream(question, **arg)]
    # the model's own run is tagged `nostream`; event consumers leave it out by that tag
    if kind == "events":
        return [e async for e in agent.astream_events(question, version="v2", exclude_tags=["nostream"])]
    with warnings.catch_warnings():  # LangChain deprecates astream_log; the middleware still serves its callers
        warnings.filterwarnings("ignore", message="astream_log is deprecated")
        return [p async for p in agent.astream_log(question, exclude_tags=["nostream"])]


SURFACES = [
    ("stream", {"stream_mode": "values"}),
    ("stream", {"stream_mode": "updates"}),
    ("stream", {"stream_mode": "messages"}),
    ("stream", {"stream_mode": ["values", "updates", "messages"]}),
    ("stream", {"stream_mode": ["updates", "messages"], "subgraphs": True}),
    ("astream", {"stream_mode": "messages"}),
    ("astream", {"stream_mode": ["updates", "messages"]}),
    ("events", {}),
    ("log", {}),
]
TOKEN_SURFACES = [s for s in SURFACES if s[0] == "events" or "messages" in str(s[1])]


@pytest.mark.parametrize("surface", SURFACES, ids=str)
@pytest.mark.parametrize("answers", [(BAD, GOOD), (BAD, BAD, BAD)], ids=["retried", "dropped"])
def test_flagged_sentence_never_reaches_the_consumer(surface, answers):
    got = asyncio.run(_collect(refund_agent(*answers), REFUND_Q, surface))
    assert got
    assert "$45" not in payload_text(got)


@pytest.mark.parametrize("surface", TOKEN_SURFACES, ids=str)
def test_retried_answer_streams_as_one_checked_message(surface):
    got = asyncio.run(_collect(refund_agent(BAD, GOOD), REFUND_Q, surface))
    assert "".join(_answer_pieces(got, surface)) == GOOD
    if surface[0] != "events" and surface[1]["stream_mode"] == "messages":
        ids = {m.id for m, meta in got if meta.get("langgraph_node") == "model" and m.content}
        assert len(ids) == 1  # the answer keeps one message id across the retry


@pytest.mark.parametrize("surface", TOKEN_SURFACES, ids=str)
def test_faithful_answer_streams_sentence_by_sentence(surface):
    got = asyncio.run(_collect(lookup_agent(), LOOKUP_Q, surface))
    pieces = _answer_pieces(got, surface)
    assert len(pieces) >= 4
    out = lookup_agent().invoke(LOOKUP_Q)
    assert "".join(pieces) == out["messages"][-1].content == FAITHFUL


def test_content_blocks_stream_as_text():
    got = list(refund_agent(BAD, GOOD, blocks=True).stream(REFUND_Q, stream_mode="messages"))
    assert "$45" not in payload_text(got)
    assert "".join(_answer_pieces(got, ("stream", {"stream_mode": "messages"}))) == GOOD


def test_final_release_streams_the_answer_once_checked():
    got = list(lookup_agent(stream_release="final").stream(LOOKUP_Q, stream_mode="messages"))
    assert _answer_pieces(got, ("stream", {"stream_mode": "messages"})) == [FAITHFUL]


def test_final_state_holds_no_flagged_answer_nor_correction():
    out = refund_agent(BAD, GOOD).invoke(REFUND_Q)
    assert "$45" not in payload_text(out["messages"])
    report = get_run_report(out)
    assert report.outcome == "retried" and LIE in report.attempts[0].answer


def test_second_turn_with_a_checkpointer_streams_checked_text():
    from langgraph.checkpoint.memory import InMemorySaver

    tools = CountedTools()
    model = token_model(
        call("refund_order", {"order_id": "88231"}, "r1"), BAD, GOOD,
        call("order_lookup", {"order_id": "88231"}, "l1"), FAITHFUL,
    )
    agent = create_agent(
        model, [tools.refund_order, tools.order_lookup], middleware=[FactCheckMiddleware()],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t1"}}
    first = list(agent.stream(REFUND_Q, config, stream_mode="messages"))
    second = list(agent.stream(LOOKUP_Q, config, stream_mode="messages"))
    surface = ("stream", {"stream_mode": "messages"})
    assert "".join(_answer_pieces(first, surface)) == GOOD
    assert "".join(_answer_pieces(second, surface)) == FAITHFUL
    assert "$45" not in payload_text(first + second)
    state = agent.get_state(config).values
    assert [m.content for m in state["messages"] if m.type == "ai" and m.content] == [GOOD, FAITHFUL]


@pytest.mark.parametrize("wrapped", [False, True], ids=["middleware", "wrapper"])
def test_raise_ends_the_stream_with_the_error_and_no_flagged_text(wrapped):
    from factcheck import FactCheckError

    if wrapped:
        tools = CountedTools()
        model = token_model(call("refund_order", {"order_id": "88231"}), BAD)
        agent = create_agent(model, [tools.refund_order]).with_fact_check(on_fail="raise", max_retries=0)
    else:
        agent = refund_agent(BAD, on_fail="raise", max_retries=0)
    got = []
    with pytest.raises(FactCheckError) as info:
        for chunk in agent.stream(REFUND_Q, stream_mode="messages"):
            got.append(chunk)
    assert "$45" not in payload_text(got)
    assert "I checked order 88231." in payload_text(got)  # the verified first sentence came through
    assert get_run_report(info.value).outcome == "raised"


TRUE_SENTENCES = [
    "I checked order 88231.",
    "The refund of order 88231 failed.",
    "It was not refunded.",
    "Thanks for waiting.",
]
FALSE_SENTENCES = [
    "Your refund of $45 has been processed.",
    "Order 88231 was refunded successfully.",
    "The refund of $99 is on its way.",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(TRUE_SENTENCES + FALSE_SENTENCES), min_size=1, max_size=5),
    st.sampled_from(["messages", ["updates", "messages"], "values"]),
)
def test_property_no_flagged_sentence_is_ever_streamed(sentences, mode):
    answer = " ".join(sentences)
    got = list(refund_agent(answer, max_retries=0).stream(REFUND_Q, stream_mode=mode))
    out = refund_agent(answer, max_retries=0).invoke(REFUND_Q)
    seen = payload_text(got)
    for claim in get_run_report(out).report.flagged:
        assert claim.text not in seen
    if mode != "values":
        assert "".join(_answer_pieces(got, ("stream", {"stream_mode": mode}))) == out["messages"][-1].content
