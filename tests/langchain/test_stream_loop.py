"""The end of a fact-checked stream when the checker fails open: the answer passes, in every shape."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import CountedTools, call, token_model
from langchain.agents import create_agent
from langchain_core.messages import AIMessageChunk

from factcheck.langchain import RunReport
from factcheck.langchain.extract import message_text

ANSWER = "I checked order 88231. Your refund of $45 has been processed. Thanks for waiting."
REFUND_Q = {"messages": [("user", "please refund order 88231")]}


class BrokenChecker:
    """A checker that fails the way a bug would."""

    def check(self, answer, tool_calls=(), context=(), lang=None):
        raise ValueError("checker bug")


def _wrapped(kind: str, **options: Any) -> tuple[Any, Any]:
    """A fail-open wrapped chat model or agent, and its input."""
    options = {"checker": BrokenChecker(), "fail_open": True, **options}
    if kind == "chat model":
        return token_model(ANSWER).with_fact_check(**options), "please refund order 88231"
    agent = create_agent(token_model(call("refund_order", {"order_id": "88231"}), ANSWER),
                         [CountedTools().refund_order])
    return agent.with_fact_check(**options), REFUND_Q


def _answer_of(kind: str, chunks: list[Any]) -> str:
    if kind == "chat model":
        return "".join(message_text(c) for c in chunks if isinstance(c, AIMessageChunk))
    return message_text(chunks[-1]["messages"][-1])  # stream_mode="values": the last state


def _stream(wrapped: Any, question: Any, mode: str) -> list[Any]:
    kwargs = {} if isinstance(question, str) else {"stream_mode": "values"}
    if mode == "sync":
        return list(wrapped.stream(question, **kwargs))

    async def collect() -> list[Any]:
        return [chunk async for chunk in wrapped.astream(question, **kwargs)]

    return asyncio.run(collect())


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("kind", ["chat model", "agent"])
@pytest.mark.parametrize("return_report", [False, True])
def test_fail_open_streams_pass_the_answer_in_the_stream_shape(kind, return_report, mode):
    wrapped, question = _wrapped(kind, return_report=return_report)
    got = _stream(wrapped, question, mode)
    if return_report:
        assert all(isinstance(item, tuple) and len(item) == 2 for item in got)
        assert all(report is None for _, report in got[:-1])
        report = got[-1][1]
        assert isinstance(report, RunReport) and report.outcome == "unchecked"
        got = [chunk for chunk, _ in got if chunk is not None]
    assert _answer_of(kind, got) == ANSWER


@pytest.mark.parametrize("kind", ["chat model", "agent"])
def test_fail_open_answer_streams_to_event_consumers_too(kind):
    wrapped, question = _wrapped(kind)

    async def released() -> str:
        return "".join([
            message_text(e["data"]["chunk"]) async for e in wrapped.astream_events(question, version="v2")
            if e["event"] == "on_chat_model_stream"
        ])

    assert asyncio.run(released()) == ANSWER
