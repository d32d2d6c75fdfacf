"""Benchmark: N invokes of a `create_agent` refund agent wrapped by `.with_fact_check()`.

Each invoke is a real agent loop (scripted model, real tool): the model calls the refund tool,
claims a refund the tool says failed, is corrected once and answers from the tool (outcome
`retried`); every fourth order succeeds at once (outcome `passed`). Prints the invokes, the time
they took (the checker built and warm before the clock starts), the time per invoke and the
outcomes, so one tree can be timed against another as a whole process too. With `stream`, each run is
streamed (`stream_mode="values"`) instead of invoked.

Run: PYTHONPATH=. python bench/bench_invoke.py [N] [invoke|stream]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from factcheck.langchain import get_run_report, with_fact_check
from factcheck.langchain.extract import is_correction, message_text


@tool
def refund_order(order_id: str) -> str:
    """Refund an order."""
    if int(order_id) % 4:
        return f"refund result: 失败，订单号 {order_id} 未退款"
    return f"refund result: 成功，订单号 {order_id} 已退款"


class RefundModel(GenericFakeChatModel):
    """Calls the tool, claims success, and after a correction repeats what the tool said."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> RefundModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=_reply(messages))])


def _reply(messages: list[BaseMessage]) -> AIMessage:
    question = next(m for m in messages if isinstance(m, HumanMessage) and not is_correction(m))
    order_id = message_text(question).split()[-1]
    last = messages[-1]
    if isinstance(last, HumanMessage) and not is_correction(last):
        return AIMessage("", tool_calls=[{"name": "refund_order", "args": {"order_id": order_id},
                                          "id": f"call_{order_id}"}])
    if is_correction(last):
        return AIMessage(f"抱歉，订单号 {order_id} 的退款失败了，目前未退款。")
    assert isinstance(last, ToolMessage)
    return AIMessage(f"已为您成功退款，订单号 {order_id}。")


def main(runs: int, how: str = "invoke") -> None:
    agent = with_fact_check(create_agent(RefundModel(messages=iter(())), [refund_order]))
    agent.invoke({"messages": [("user", "请帮我退款，订单号 10000")]})  # warm: checker built
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    for i in range(runs):
        question = {"messages": [("user", f"请帮我退款，订单号 {10001 + i}")]}
        out = agent.invoke(question) if how == "invoke" else list(agent.stream(question, stream_mode="values"))[-1]
        outcomes[get_run_report(out).outcome] += 1
    seconds = time.perf_counter() - start
    print(f"{how}s: {runs}")
    print(f"seconds: {seconds:.3f}")
    print(f"ms per {how}: {1000 * seconds / runs:.2f}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100, sys.argv[2] if len(sys.argv) > 2 else "invoke")
