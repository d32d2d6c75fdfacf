"""Benchmark: streaming latency of checked answers versus the unwrapped stream.

A scripted `create_agent` model calls one tool, then streams a faithful answer one
word every 20 ms (`stream_mode="messages"`). For the unwrapped agent, the agent
wrapped by `.with_fact_check()` and the agent with `FactCheckMiddleware`, it measures
the time from the call to the first token of the answer and to the end of the stream,
median of several runs. The delay of the first checked token is also given in
sentences of the answer (the release rule holds each claim until the next one has
started, so one sentence is the expected delay), and the total overhead per sentence.

Run: python bench/bench_stream.py [--runs 5] [--sentences 4 8]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Iterator
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.tools import tool

import factcheck.langchain  # noqa: F401 - registers Runnable.with_fact_check
from factcheck.langchain import FactCheckMiddleware

TOKEN_SECONDS = 0.020
"""The scripted model emits one token (a word) every 20 ms."""

SENTENCES = [
    "Order 88231 has shipped.",
    "The carrier is SF.",
    "It will arrive in 3 days.",
    "The order status is 已发货.",
    "Your order id is 88231.",
    "SF is carrying it.",
    "Delivery takes 3 days.",
    "Thanks for waiting.",
]


class PacedModel(GenericFakeChatModel):
    """Scripted model: a tool call, then the answer word by word, one word per tick."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> PacedModel:
        return self

    def _stream(self, messages: Any, stop: Any = None, run_manager: Any = None,
                **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        message = next(self.messages)
        if message.tool_calls:
            calls = [{"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": 0}
                     for c in message.tool_calls]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=calls))
            return
        for word in re.findall(r"\S+\s*", message.content):
            time.sleep(TOKEN_SECONDS)
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=word))
            if run_manager is not None:
                run_manager.on_llm_new_token(word, chunk=chunk)
            yield chunk


@tool
def order_lookup(order_id: str) -> dict:
    """Look up an order."""
    return {"order_id": order_id, "status": "已发货", "carrier": "SF", "days": 3}


def agent(answer: str, kind: str) -> Any:
    script = iter([
        AIMessage("", tool_calls=[{"name": "order_lookup", "args": {"order_id": "88231"}, "id": "c1"}]),
        AIMessage(answer),
    ])
    model = PacedModel(messages=script)
    if kind == "middleware":
        return create_agent(model, [order_lookup], middleware=[FactCheckMiddleware()])
    built = create_agent(model, [order_lookup])
    return built.with_fact_check() if kind == "wrapper" else built


def one_run(answer: str, kind: str) -> tuple[float, float, str]:
    """Seconds to the first answer token and to the end; the streamed answer text."""
    start = time.perf_counter()
    first = None
    text = ""
    for message, meta in agent(answer, kind).stream(
        {"messages": [("user", "where is order 88231?")]}, stream_mode="messages"
    ):
        if isinstance(message, AIMessageChunk) and message.content and meta.get("langgraph_node", "model") == "model":
            first = first if first is not None else time.perf_counter() - start
            text += message.content
    return first or float("nan"), time.perf_counter() - start, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sentences", type=int, nargs="+", default=[4, 8])
    args = parser.parse_args()
    one_run(" ".join(SENTENCES[:2]), "wrapper")  # load the checker once, outside the timings

    print(f"token every {TOKEN_SECONDS * 1000:.0f} ms; median of {args.runs} runs; stream_mode='messages'")
    print("| sentences | stream | first token (ms) | first token delay | total (ms) | overhead / sentence |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in args.sentences:
        answer = " ".join(SENTENCES[:n])
        words = len(answer.split())
        sentence_ms = words / n * TOKEN_SECONDS * 1000
        results: dict[str, tuple[float, float]] = {}
        for kind in ("unwrapped", "wrapper", "middleware"):
            runs = [one_run(answer, kind) for _ in range(args.runs)]
            assert all(text == answer for _, _, text in runs), (kind, runs[0][2])
            results[kind] = (
                statistics.median(r[0] for r in runs) * 1000,
                statistics.median(r[1] for r in runs) * 1000,
            )
        base_first, base_total = results["unwrapped"]
        for kind, (first, total) in results.items():
            delay = first - base_first
            over = (total - base_total) / n
            cells = (
                "-" if kind == "unwrapped" else f"+{delay:.0f} ms = {delay / sentence_ms:.2f} sentences",
                f"{total:.0f}",
                "-" if kind == "unwrapped" else f"{over:+.1f} ms ({total / base_total:.3f}x total)",
            )
            print(f"| {n} | {kind} | {first:.0f} | {cells[0]} | {cells[1]} | {cells[2]} |")


if __name__ == "__main__":
    main()
